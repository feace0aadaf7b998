import VCard

/// A contact's fields as things that change: each one's name (as `contacts.history` and a
/// sync's conflicts name it), how two states compare on it, how it is carried from one state
/// to another, and, for a list, how two lists are united. History keeps, and a three-way merge
/// compares, exactly these.
public struct ContactField: Sendable {
    public let name: String
    public let same: @Sendable (Contact, Contact) -> Bool
    public let copy: @Sendable (_ from: Contact, _ into: inout Contact) -> Void
    /// For a list (phones, emails, …): `into` keeps its values and gains those of `from` it
    /// lacks. Nil for a single value.
    public let unite: (@Sendable (_ from: Contact, _ into: inout Contact) -> Void)?

    init<V: Equatable>(_ name: String, _ path: WritableKeyPath<Contact, V> & Sendable) {
        self.name = name
        same = { $0[keyPath: path] == $1[keyPath: path] }
        copy = { $1[keyPath: path] = $0[keyPath: path] }
        unite = nil
    }

    init<E: Equatable>(list name: String, _ path: WritableKeyPath<Contact, [E]> & Sendable, key: @escaping @Sendable (E) -> String) {
        self.name = name
        same = { $0[keyPath: path] == $1[keyPath: path] }
        copy = { $1[keyPath: path] = $0[keyPath: path] }
        unite = { from, into in
            var seen = Set(into[keyPath: path].map(key))
            for v in from[keyPath: path] where seen.insert(key(v)).inserted { into[keyPath: path].append(v) }
        }
    }

    init(
        _ name: String, same: @escaping @Sendable (Contact, Contact) -> Bool, copy: @escaping @Sendable (Contact, inout Contact) -> Void,
        unite: (@Sendable (Contact, inout Contact) -> Void)? = nil
    ) {
        self.name = name
        self.same = same
        self.copy = copy
        self.unite = unite
    }

    /// Every field, in the order `contacts.history` lists them.
    public static let all: [ContactField] = before + DeclaredField.all.map(\.change) + after

    private static let before: [ContactField] = [
        ContactField("uid", \.uid),
        ContactField("name", \.name),
        ContactField("structuredName", \.structuredName),
        ContactField("nickname", \.nickname),
        ContactField(list: "phones", \.phones) { String($0.value.filter { $0.isNumber || $0 == "+" }) },
        ContactField(list: "emails", \.emails) { $0.value.lowercased() },
        ContactField(list: "addresses", \.addresses) { "\($0.street)|\($0.locality)|\($0.postalCode)|\($0.country)".lowercased() },
        ContactField("organization", \.organization),
        ContactField("title", \.title),
        ContactField("birthday", \.birthday),
        ContactField("note", \.note),
        ContactField(list: "urls", \.urls) { $0.value },
    ]

    private static let after: [ContactField] = [
        ContactField("favorite", \.favorite),
        ContactField("collected", \.collected),
        ContactField(
            "groups", same: { sameGroups($0.groups, $1.groups) }, copy: { $1.groups = $0.groups },
            unite: { from, into in
                var seen = Set(into.groups.map { $0.lowercased() })
                for g in from.groups where seen.insert(g.lowercased()).inserted { into.groups.append(g) }
            }),
        ContactField("photo", \.photo),
        // The card's other vCard properties, as one, compared as values without the line each
        // came from in its file.
        ContactField(
            "properties", same: { sameProperties($0.vcardProperties, $1.vcardProperties) },
            copy: { $1.vcardProperties = $0.vcardProperties }),
    ]

    public static let byName: [String: ContactField] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The names of the fields that differ between two states.
    public static func changes(_ a: Contact, _ b: Contact) -> [String] {
        all.filter { !$0.same(a, b) }.map(\.name)
    }

    /// Group lists name the same groups (names match regardless of case).
    public static func sameGroups(_ a: [String], _ b: [String]) -> Bool {
        Set(a.map { $0.lowercased() }) == Set(b.map { $0.lowercased() })
    }

    static func sameProperties(_ a: [VCardProperty]?, _ b: [VCardProperty]?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in
            var x = x
            x.line = y.line
            return x == y
        }
    }
}
