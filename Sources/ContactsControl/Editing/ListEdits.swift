import ContactsAPI
import JSONCore

/// What `edit`'s list options do to a contact's lists: `--phone X` adds X (not twice),
/// `--remove-phone X` takes away the entries with that value or label, `--clear phones` empties
/// the list before the options add to it; `--group G` joins G, `--leave-group G` leaves it.
struct ListEdit: Sendable {
    /// The contact's field (`phones`), the option that adds (`phone`) and the one that removes.
    var field: String
    var add: String
    var remove: String
    /// What one value is called in messages (`phone`, `messaging address`).
    var noun: String
    /// What a value given on the command line becomes in the API's shape.
    var read: @Sendable (String) throws -> JSONValue
    /// What two values are the same by.
    var key: @Sendable (String) -> String

    /// An edit for each list field with an option that adds to it and one that takes away.
    static let all: [ListEdit] = FieldDeclaration.all.compactMap { f in
        guard let add = f.option, let remove = f.removal?.option else { return nil }
        let lowercased: @Sendable (String) -> String = { $0.lowercased() }
        let same: @Sendable (String) -> String = { $0 }
        let labeled: @Sendable (String) throws -> JSONValue = FieldValues.labeled
        let plain: @Sendable (String) throws -> JSONValue = { .string($0) }
        switch f.kind {
        case .list(.phone):
            return ListEdit(field: f.key, add: add, remove: remove, noun: "phone", read: { try FieldValues.phone($0) }, key: phoneKey)
        case .list(.email): return ListEdit(field: f.key, add: add, remove: remove, noun: "email", read: labeled, key: lowercased)
        case .list(.url): return ListEdit(field: f.key, add: add, remove: remove, noun: "url", read: plain, key: same)
        case .list(.impp):
            return ListEdit(field: f.key, add: add, remove: remove, noun: "messaging address", read: FieldValues.uri, key: lowercased)
        case .list(.date): return ListEdit(field: f.key, add: add, remove: remove, noun: "date", read: labeled, key: same)
        case .list(.related):
            return ListEdit(field: f.key, add: add, remove: remove, noun: "related person", read: labeled, key: lowercased)
        case .addresses:
            return ListEdit(field: f.key, add: add, remove: remove, noun: "address", read: FieldValues.address, key: lowercased)
        case .groups: return ListEdit(field: f.key, add: add, remove: remove, noun: "group", read: plain, key: lowercased)
        default: return nil
        }
    }

    /// A phone number's digits: `(415) 555-0100` and `415.555.0100` are one number.
    static func phoneKey(_ value: String) -> String { String(value.filter(\.isNumber)) }

    /// The text an entry is compared by: its value, or an address's parts on one line.
    func text(of entry: JSONValue) -> String {
        if let s = entry.stringValue { return s }
        if let v = entry["value"]?.stringValue { return v }
        return FieldValues.addressParts.compactMap { entry[$0]?.stringValue }.filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// Whether `entry` is what `given` names: the same value (as `key` compares), or the same
    /// label; an address also by its street.
    func matches(_ entry: JSONValue, _ given: String) -> Bool {
        let wanted = key(given)
        if !wanted.isEmpty && key(text(of: entry)) == wanted { return true }
        if let label = entry["label"]?.stringValue, label.lowercased() == given.lowercased() { return true }
        if field == "addresses", let street = entry["street"]?.stringValue, street.lowercased() == given.lowercased() { return true }
        return false
    }

    /// The list after the options: nil when none of them names this list. `cleared` empties it
    /// first. A value to remove that is not there is an error naming it.
    func apply(to current: [JSONValue], cleared: Bool, inv: Invocation, contactName: String) throws -> [JSONValue]? {
        let adds = inv.values(add), removes = inv.values(remove)
        guard cleared || !adds.isEmpty || !removes.isEmpty else { return nil }
        var list = cleared ? [] : current
        for given in removes {
            let before = list.count
            list.removeAll { matches($0, given) }
            if list.count == before && !cleared {
                throw UsageError(message: "--\(remove) '\(given)': \(contactName) has no such \(noun)", command: "contactsctl edit")
            }
        }
        for raw in adds {
            let entry = try read(raw)
            let value = text(of: entry)
            if let i = list.firstIndex(where: { key(text(of: $0)) == key(value) }) {
                // There already: a label given with it replaces the old one.
                if let label = entry["label"], case .object(var o) = list[i] {
                    o["label"] = label
                    list[i] = .object(o)
                }
                continue
            }
            list.append(entry)
        }
        return list
    }
}
