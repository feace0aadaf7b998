import JSONCore

/// What `edit`'s list options do to a contact's lists: `--phone X` adds X (not twice),
/// `--remove-phone X` takes away the entries with that value or label, `--clear phones` empties
/// the list before the options add to it; `--group G` joins G, `--leave-group G` leaves it.
struct ListEdit: Sendable {
    /// The contact's field (`phones`), the option that adds (`phone`) and the one that removes.
    var field: String
    var add: String
    var remove: String
    /// What a value given on the command line becomes in the API's shape.
    var read: @Sendable (String) throws -> JSONValue
    /// What two values are the same by.
    var key: @Sendable (String) -> String

    static let all: [ListEdit] = [
        ListEdit(field: "phones", add: "phone", remove: "remove-phone", read: { try FieldValues.phone($0) }, key: phoneKey),
        ListEdit(field: "emails", add: "email", remove: "remove-email", read: FieldValues.labeled, key: { $0.lowercased() }),
        ListEdit(field: "addresses", add: "address", remove: "remove-address", read: FieldValues.address, key: { $0.lowercased() }),
        ListEdit(field: "urls", add: "url", remove: "remove-url", read: { .string($0) }, key: { $0 }),
        ListEdit(field: "impp", add: "im", remove: "remove-im", read: FieldValues.uri, key: { $0.lowercased() }),
        ListEdit(field: "dates", add: "date", remove: "remove-date", read: FieldValues.labeled, key: { $0 }),
        ListEdit(field: "related", add: "related", remove: "remove-related", read: FieldValues.labeled, key: { $0.lowercased() }),
        ListEdit(field: "groups", add: "group", remove: "leave-group", read: { .string($0) }, key: { $0.lowercased() }),
    ]

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

    var noun: String {
        switch field {
        case "impp": "messaging address"
        case "groups": "group"
        case "addresses": "address"
        case "related": "related person"
        default: String(field.dropLast())
        }
    }
}
