import ContactsAPI
import JSONCore

/// How a name is read aloud, as people type it beside names in scripts whose reading is not
/// written (kana for a Japanese name, pinyin for a Chinese one): the parts of the name.
public struct PhoneticName: Sendable, Equatable {
    public var given = ""
    public var middle = ""
    public var family = ""

    public init(given: String = "", middle: String = "", family: String = "") {
        self.given = given
        self.middle = middle
        self.family = family
    }

    public var isEmpty: Bool { given.isEmpty && middle.isEmpty && family.isEmpty }

    /// The parts by the keys the API gives them, in the order they are shown.
    public static let parts: [(key: String, path: WritableKeyPath<PhoneticName, String> & Sendable)] = [
        ("given", \.given), ("middle", \.middle), ("family", \.family),
    ]
}

/// The fields kept in a contact's stored body, each with its API declaration
/// (`FieldDeclaration`: key, kind, label, option, help): a field here is in the API's shape
/// and its schema, read from clients, kept in the stored body, in history, undo and a sync's
/// three-way merge, searched when it says so, and merged by `contacts.merge` — all from this one
/// entry; the client's form, `show`, `add` and `edit` come from the declaration. What remains
/// for a new field is how each format spells it: a line in the vCard table
/// (`VCardMapping+Fields`) and in the CSV table (`CSVColumns`).
public struct DeclaredField: Sendable {
    /// What the field holds, and where in a contact.
    public enum Value: Sendable {
        /// One line of text.
        case text(WritableKeyPath<Contact, String?> & Sendable)
        /// Labelled values, each checked as `kind` says.
        case list(WritableKeyPath<Contact, [LabeledValue]> & Sendable, ValueKind)
        /// A phonetic name's parts.
        case phonetic(WritableKeyPath<Contact, PhoneticName?> & Sendable)
    }

    /// The field's key, kind, label and help, as daemon and client read them.
    public let declaration: FieldDeclaration
    /// The key in the API's shape, the stored body and the form's fields.
    public var key: StaticString { declaration.jsonKey }
    public var name: String { declaration.key }
    /// The field as a person reads it.
    public var label: String { declaration.label }
    /// What the field is, for the schema.
    public var help: String { declaration.help }
    public let value: Value
    /// Whether substring search finds a contact by it.
    public let searched: Bool

    /// The field's value in a contact, as `value`'s key path reads it. Read through a key path,
    /// it cost some 0.1 µs (the runtime looks the path's types up each time), a dozen times a
    /// contact on every import; a test holds the two to each other.
    let read: @Sendable (Contact) -> Reading

    /// A field's value.
    enum Reading: Equatable {
        case text(String?)
        case list([LabeledValue])
        case phonetic(PhoneticName?)
    }

    init(_ declaration: FieldDeclaration, _ value: Value, _ read: @escaping @Sendable (Contact) -> Reading, searched: Bool) {
        self.declaration = declaration
        self.value = value
        self.read = read
        self.searched = searched
    }

    /// Every declared field, in the order the API writes them.
    public static let all: [DeclaredField] = [
        DeclaredField(.phoneticName, .phonetic(\.phoneticName), { .phonetic($0.phoneticName) }, searched: true),
        DeclaredField(.department, .text(\.department), { .text($0.department) }, searched: true),
        DeclaredField(.dates, .list(\.dates, .date), { .list($0.dates) }, searched: false),
        DeclaredField(.related, .list(\.related, .related), { .list($0.related) }, searched: true),
        DeclaredField(.impp, .list(\.impp, .impp), { .list($0.impp) }, searched: true),
        DeclaredField(.pronouns, .text(\.pronouns), { .text($0.pronouns) }, searched: false),
        DeclaredField(.gender, .text(\.gender), { .text($0.gender) }, searched: false),
    ]

    public static let byName: [String: DeclaredField] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The field's member of `Contact.Fields`.
    public var field: Contact.Fields { Contact.Fields.field(name) }

    /// Whether the contact has a value in it.
    public func isPresent(in c: Contact) -> Bool {
        switch read(c) {
        case .text(let v): v != nil
        case .list(let v): !v.isEmpty
        case .phonetic(let v): v != nil
        }
    }

    /// The value as the API shows it (absent: null or []).
    func build(_ c: Contact, into b: inout some JSONBuilding) {
        switch read(c) {
        case .text(let v): b.string(key, v)
        case .list(let v): LabeledValue.build(key, v, into: &b)
        case .phonetic(let n):
            guard let n else { return b.string(key, nil) }
            b.beginObject(key)
            b.string("given", n.given)
            b.string("middle", n.middle)
            b.string("family", n.family)
            b.endObject()
        }
    }

    /// Sets the field from a client's value; `r` says where it is in errors.
    func read(_ r: FieldReader, into c: inout Contact) throws(ContactError) {
        switch value {
        case .text(let p): c[keyPath: p] = try r.optionalText(limit: Limits.shortText)
        case .list(let p, let kind): c[keyPath: p] = try r.labeledList(kind: kind)
        case .phonetic(let p): c[keyPath: p] = try r.phoneticName()
        }
    }

    /// Sets the field from the member of a stored body the store wrote (the API's shape).
    public func decodeStored(_ v: JSONValue, into c: inout Contact) {
        switch value {
        case .text(let p): c[keyPath: p] = v.stringValue
        case .list(let p, _):
            c[keyPath: p] = (v.arrayValue ?? []).compactMap { e in
                guard let o = e.objectValue, let value = o["value"]?.stringValue else { return nil }
                return LabeledValue(value: value, label: o["label"]?.stringValue)
            }
        case .phonetic(let p):
            guard let o = v.objectValue else { return }
            var n = PhoneticName()
            for part in PhoneticName.parts { n[keyPath: part.path] = o[part.key]?.stringValue ?? "" }
            c[keyPath: p] = n.isEmpty ? nil : n
        }
    }

    /// The field as history, undo and a sync's three-way merge see it.
    var change: ContactField {
        switch value {
        case .text(let p): ContactField(name, p)
        case .list(let p, let kind): ContactField(list: name, p) { kind.key($0.value) }
        case .phonetic(let p): ContactField(name, p)
        }
    }

    /// The texts search finds the contact by (none when the field is not searched).
    func searchTexts(_ c: Contact) -> [String] {
        guard searched else { return [] }
        switch read(c) {
        case .text(let v): return v.map { [$0] } ?? []
        case .list(let v): return v.map { kindlessHandle($0.value) }
        // The reading in the order the name is written, as the sort reads it.
        case .phonetic(let v): return v == nil ? [] : [c.sortName]
        }
    }

    /// An IM address without its scheme (`xmpp:ana@example.org` is found by `ana@`).
    private func kindlessHandle(_ s: String) -> String {
        let utf8 = s.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), !utf8[..<colon].contains(UInt8(ascii: "/")), !s.hasPrefix("http")
        else { return s }
        return String(s[utf8.index(after: colon)...])
    }
}

extension Contact {
    /// What the contact sorts by: its name, or the reading of it where it has one (a Japanese
    /// or Chinese name sorts by its kana or pinyin, as phones sort them), in the order the
    /// name is written: family first when the name begins with the family name.
    public var sortName: String {
        guard let r = phoneticName else { return name }
        let familyFirst = structuredName.map { !$0.family.isEmpty && name.hasPrefix($0.family) } ?? false
        let parts = familyFirst ? [r.family, r.given, r.middle] : [r.given, r.middle, r.family]
        let reading = parts.filter { !$0.isEmpty }.joined(separator: " ")
        return reading.isEmpty ? name : reading
    }
}
