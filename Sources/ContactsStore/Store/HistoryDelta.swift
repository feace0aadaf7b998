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
    /// One field of a contact that a change can touch: its name in `changed` (and in
    /// `contacts.history`), how two states compare on it, and how to carry it from one to the other.
    struct Field: Sendable {
        let name: String
        let same: @Sendable (Contact, Contact) -> Bool
        let copy: @Sendable (Contact, inout Contact) -> Void

        init<V: Equatable>(_ name: String, _ path: WritableKeyPath<Contact, V> & Sendable) {
            self.name = name
            same = { $0[keyPath: path] == $1[keyPath: path] }
            copy = { $1[keyPath: path] = $0[keyPath: path] }
        }

        init(
            _ name: String, same: @escaping @Sendable (Contact, Contact) -> Bool,
            copy: @escaping @Sendable (Contact, inout Contact) -> Void
        ) {
            self.name = name
            self.same = same
            self.copy = copy
        }
    }

    /// Every field, in the order `contacts.history` lists them.
    static let fields: [Field] = [
        Field("uid", \.uid),
        Field("name", \.name),
        Field("structuredName", \.structuredName),
        Field("nickname", \.nickname),
        Field("phones", \.phones),
        Field("emails", \.emails),
        Field("addresses", \.addresses),
        Field("organization", \.organization),
        Field("title", \.title),
        Field("birthday", \.birthday),
        Field("note", \.note),
        Field("urls", \.urls),
        Field("favorite", \.favorite),
        Field("groups", same: { ContactStore.sameGroups($0.groups, $1.groups) }, copy: { $1.groups = $0.groups }),
        Field("photo", \.photo),
        // The card's other vCard properties, as one, compared as the store keeps them (a
        // parsed card's properties know their line in the file; stored ones do not).
        Field(
            "properties",
            same: {
                $0.vcardProperties == $1.vcardProperties
                    || StoredProperties.encode($0.vcardProperties) == StoredProperties.encode($1.vcardProperties)
            },
            copy: { $1.vcardProperties = $0.vcardProperties }),
    ]

    private static let fieldsByName = Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0) })

    /// The names of the fields that differ between two states.
    static func changes(_ a: Contact, _ b: Contact) -> [String] {
        fields.filter { !$0.same(a, b) }.map(\.name)
    }

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
        for name in changed { fieldsByName[name]?.copy(part, &before) }
        before.revision = revision
        before.updatedAt = Int64(o["updatedAt"]?.intValue ?? Int(after.updatedAt))
        return (changed, before)
    }
}
