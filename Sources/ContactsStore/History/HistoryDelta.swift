import ContactsCore
import JSONCore

/// The state a change of a contact replaced, as `history.before` keeps it: only the fields
/// that differ from the state the change made, with their earlier values, and the earlier
/// time. A contact edited ten times keeps ten small differences, not ten copies of itself; an
/// earlier state is the contact as it is now with the differences after it undone, latest
/// first. The earlier revision is the history row's less one.
///
/// The JSON: `{"changed": [field names], "updatedAt", then the earlier values: the body's
/// fields under the body's keys (one left out was empty), "name", "uid", "favorite",
/// "groups", and "vcard" for the card's other properties}`. A `before` without `changed` is
/// a whole state, as stores of schema 6 keep.
struct HistoryDelta {
    /// Every field, in the order `contacts.history` lists them.
    static var fields: [ContactField] { ContactField.all }

    /// The names of the fields that differ between two states.
    static func changes(_ a: Contact, _ b: Contact) -> [String] { ContactField.changes(a, b) }

    /// The difference that takes a contact from the state after a change back to `old`, as JSON.
    static func encode(_ old: Contact, changed: [String]) -> String {
        let set = Set(changed)
        var part = Contact(name: "")
        for f in fields where set.contains(f.name) { f.copy(old, &part) }
        var b = JSONTextBuilder(capacity: 128)
        b.beginObject(nil)
        b.strings("changed", changed)
        b.int("updatedAt", Int(old.updatedAt))
        if set.contains("name") { b.string("name", old.name) }
        if set.contains("uid") { b.string("uid", old.uid) }
        if set.contains("favorite") { b.bool("favorite", old.favorite) }
        if set.contains("groups") { b.strings("groups", old.groups) }
        if set.contains("properties"), let card = StoredProperties.encode(old.vcardProperties) { b.string("vcard", card) }
        b.endObject()
        // The body's fields join the same object: its text without its braces.
        var body = JSONTextBuilder(capacity: 64)
        part.build(into: &body, .storedBody)
        var text = b.string
        let members = body.string.utf8.dropFirst().dropLast()
        if !members.isEmpty {
            text.removeLast()
            text += "," + String(Substring(members)) + "}"
        }
        return text
    }

    /// The names `before` says changed (nil for a whole state), and the state before the change
    /// (at `revision`) given the state after it.
    static func apply(_ text: String, to after: Contact, revision: Int) -> (changed: [String]?, before: Contact)? {
        let bytes = Array(text.utf8)
        guard case .object(let o)? = try? bytes.withUnsafeBytes({ try JSONParser.parse($0) }) else { return nil }
        guard let changed = o["changed"]?.arrayValue?.compactMap(\.stringValue) else {
            return ContactStore.snapshot(o, id: after.id).map { (nil, $0) }
        }
        var part = Contact(name: o["name"]?.stringValue ?? "")
        part.uid = o["uid"]?.stringValue ?? ""
        part.favorite = o["favorite"]?.boolValue ?? false
        part.groups = (o["groups"]?.arrayValue ?? []).compactMap(\.stringValue)
        bytes.withUnsafeBytes { StoredBody.decode($0, into: &part) }
        if let card = o["vcard"]?.stringValue { part.vcardProperties = Array(card.utf8).withUnsafeBytes { StoredProperties.decode($0) } }
        var before = after
        for name in changed { ContactField.byName[name]?.copy(part, &before) }
        before.revision = revision
        before.updatedAt = Int64(o["updatedAt"]?.intValue ?? Int(after.updatedAt))
        return (changed, before)
    }
}
