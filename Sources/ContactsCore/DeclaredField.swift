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

/// The fields declared once each: a field here is in the API's shape and its schema, read from
/// clients, kept in the stored body, in history, undo and a sync's three-way merge, in the
/// `$EDITOR` form, `contactsctl show`, `add` and `edit`, searched when it says so, and merged
/// by `contacts.merge` — all from this one entry. What remains for a new field is how vCard
/// dialects and CSV columns spell it (`VCardMapping+Fields`, `CSVColumns`).
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

    /// The key in the API's shape, the stored body and the form's fields.
    public let key: StaticString
    public var name: String { key.description }
    /// The field as a person reads it: in the editor's form and `contactsctl show`.
    public let label: String
    /// What the field is, for the schema and the client's help.
    public let help: String
    public let value: Value
    /// Whether substring search finds a contact by it.
    public let searched: Bool

    init(_ key: StaticString, label: String, _ value: Value, searched: Bool, help: String) {
        self.key = key
        self.label = label
        self.value = value
        self.searched = searched
        self.help = help
    }

    /// Every declared field, in the order the API writes them.
    public static let all: [DeclaredField] = [
        DeclaredField(
            "phoneticName", label: "reading", .phonetic(\.phoneticName), searched: true,
            help: "how the name is read (kana, pinyin, romaji): a name with a reading sorts by it"),
        DeclaredField("department", label: "department", .text(\.department), searched: true, help: "the department in the organization"),
        DeclaredField(
            "dates", label: "dates", .list(\.dates, .date), searched: false,
            help: "anniversaries and other dates, YYYY-MM-DD or --MM-DD without a year (the birthday is its own field)"),
        DeclaredField(
            "related", label: "related", .list(\.related, .related), searched: true,
            help: "related people by name or URI, labelled spouse, child, assistant, manager or words of your own"),
        DeclaredField(
            "impp", label: "im", .list(\.impp, .impp), searched: true,
            help: "instant messaging, SIP and social profiles as URIs: xmpp:, sip:, matrix:, skype:, https:"),
        DeclaredField("pronouns", label: "pronouns", .text(\.pronouns), searched: false, help: "the pronouns to use (RFC 9554)"),
        DeclaredField("gender", label: "gender", .text(\.gender), searched: false, help: "gender, in the person's words"),
    ]

    public static let byName: [String: DeclaredField] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The field's member of `Contact.Fields`.
    public var field: Contact.Fields { Contact.Fields.field(name) }

    /// Whether the contact has a value in it.
    public func isPresent(in c: Contact) -> Bool {
        switch value {
        case .text(let p): c[keyPath: p] != nil
        case .list(let p, _): !c[keyPath: p].isEmpty
        case .phonetic(let p): c[keyPath: p] != nil
        }
    }

    /// The value as the API shows it (absent: null or []).
    func build(_ c: Contact, into b: inout some JSONBuilding) {
        switch value {
        case .text(let p): b.string(key, c[keyPath: p])
        case .list(let p, _): LabeledValue.build(key, c[keyPath: p], into: &b)
        case .phonetic(let p):
            guard let n = c[keyPath: p] else { return b.string(key, nil) }
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
        switch value {
        case .text(let p): return c[keyPath: p].map { [$0] } ?? []
        case .list(let p, _): return c[keyPath: p].map { v in kindlessHandle(v.value) }
        // The reading in the order the name is written, as the sort reads it.
        case .phonetic(let p): return c[keyPath: p] == nil ? [] : [c.sortName]
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
