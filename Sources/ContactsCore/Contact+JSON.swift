import ContactsSupport
import JSONCore

// MARK: - Reading contacts from clients

extension Contact {
    /// The fields a client may set, in the order they are applied.
    public static let editableFields: [String] =
        [
            "name", "uid", "structuredName", "nickname", "phones", "phone", "emails", "email", "addresses", "address",
            "organization", "title", "birthday", "note", "urls",
        ] + DeclaredField.all.map(\.name) + ["favorite", "groups"]

    /// The fields of the API's shape that contactsd sets: a contact as the API shows it (a
    /// JSON export read back) may carry them, and they are passed over.
    public static let shownFields: Set<String> = ["id", "revision", "photo", "createdAt", "updatedAt", "account", "collected"]

    /// A new contact from a client's JSON (`contacts.create`); `path` names it in errors.
    /// A key that is no field a client sets is refused, but for those in `passing`. With
    /// `checkingValues` false (contactsd's own JSON read back), a value is taken as the vCard
    /// import takes it (`email1`, `aim:AIM JOHN`), so that whatever the store holds, its
    /// export brings back; its size and characters are checked all the same.
    public init(
        creating object: JSONObject, path: String = "contact", passing: Set<String> = [], checkingValues: Bool = true
    ) throws(ContactError) {
        guard object["name"] != nil, object["name"] != .null else {
            throw ContactError(.invalidData, field: "\(path).name", "a contact needs a name")
        }
        self.init(name: "")
        try apply(object, path: path, passing: passing, checkingValues: checkingValues)
    }

    /// Applies a partial contact (`contacts.update` changes): fields present replace the stored
    /// ones, `null` clears them, fields absent are kept. A key that is no field a client sets
    /// is refused (a misspelt one would otherwise be lost without a word), but for those in
    /// `passing`, which are passed over.
    public mutating func apply(
        _ changes: JSONObject, path: String = "changes", passing: Set<String> = [], checkingValues: Bool = true
    ) throws(ContactError) {
        try Self.checkKeys(changes, path: path, passing: passing)
        for key in Self.editableFields {
            guard let value = changes[key] else { continue }
            let field = "\(path).\(key)"
            let r = FieldReader(value: value, path: field, checksValues: checkingValues)
            switch key {
            case "name":
                guard let s = try r.optionalText(limit: Limits.shortText) else {
                    throw ContactError(.invalidData, field: field, "a contact needs a name")
                }
                name = s
            case "uid":
                if let s = try r.optionalText(limit: Limits.shortText) { uid = s }
            case "structuredName": structuredName = try r.structuredName()
            case "nickname": nickname = try r.optionalText(limit: Limits.shortText)
            case "phones": phones = try r.labeledList(kind: .phone)
            case "phone":
                if let s = try r.optionalText(limit: Limits.shortText) {
                    phones = [try r.checked(s, kind: .phone, field: field)]
                } else {
                    phones = []
                }
            case "emails": emails = try r.labeledList(kind: .email)
            case "email":
                if let s = try r.optionalText(limit: Limits.shortText) {
                    emails = [try r.checked(s, kind: .email, field: field)]
                } else {
                    emails = []
                }
            case "addresses": addresses = try r.addresses()
            case "address":
                addresses = try r.optionalText(limit: Limits.shortText).map { [PostalAddress(street: $0)] } ?? []
            case "organization": organization = try r.optionalText(limit: Limits.shortText)
            case "title": title = try r.optionalText(limit: Limits.shortText)
            case "birthday":
                if let s = try r.optionalText(limit: 32) {
                    birthday = try r.checked(s, kind: .date, field: field).value
                } else {
                    birthday = nil
                }
            case "note": note = try r.optionalText(limit: Limits.longText, multiline: true)
            case "urls": urls = try r.labeledList(kind: .url)
            case "favorite": favorite = try r.bool()
            case "groups": groups = try r.groupNames()
            default: try DeclaredField.byName[key]?.read(r, into: &self)
            }
        }
    }

    /// Refuses the first key of `object` that is no field a client sets (nor in `passing`),
    /// naming it and the fields there are.
    static func checkKeys(_ object: JSONObject, path: String, passing: Set<String>) throws(ContactError) {
        for key in object.keys where !passing.contains(key) && !editableFields.contains(key) {
            let field = "\(path).\(key)"
            switch key {
            case "account":
                throw ContactError(.invalidParams, field: field, "is not changed here: contacts.move moves a contact to an account")
            case "photo":
                throw ContactError(.invalidParams, field: field, "is set by contacts.setPhoto")
            case _ where shownFields.contains(key):
                throw ContactError(.invalidParams, field: field, "is set by contactsd, not by a client")
            default:
                throw ContactError(
                    .invalidParams, field: field,
                    "is no field of a contact; the fields are \(editableFields.joined(separator: ", "))")
            }
        }
    }
}

/// Size limits on client-given text, so that one field cannot fill the disk.
public enum Limits {
    public static let shortText = 4096
    public static let longText = 1 << 20
    public static let listItems = 1000
}

/// The kinds of labelled values a contact has: what a client's value is checked as, and
/// which TYPE words a label is written with.
public enum ValueKind: Sendable {
    case phone, email, url, address, date, related, impp

    var noun: String {
        switch self {
        case .phone: "phone number"
        case .email: "email address"
        case .url: "URL"
        case .address: "address"
        case .date: "date"
        case .related: "related person"
        case .impp: "messaging address"
        }
    }

    /// What two values are the same by, when lists are united.
    public func key(_ value: String) -> String {
        switch self {
        case .phone: String(value.filter { $0.isNumber || $0 == "+" })
        case .email, .impp, .related: value.lowercased()
        case .url, .address, .date: value
        }
    }
}

func checked(_ value: String, kind: ValueKind, field: String) throws(ContactError) -> LabeledValue {
    switch kind {
    case .phone:
        guard value.unicodeScalars.contains(where: { $0.properties.numericType != nil || $0.properties.isAlphabetic }) else {
            throw ContactError(.invalidData, field: field, "'\(value)' is not a phone number")
        }
    case .email:
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts[0].isEmpty, !(parts.last ?? "").isEmpty,
            !value.unicodeScalars.contains(where: { $0.properties.isWhitespace })
        else {
            throw ContactError(.invalidData, field: field, "'\(value)' is not an email address")
        }
    case .date: return LabeledValue(value: try Birthday.normalize(value, field: field))
    case .impp:
        let scheme = value.prefix { $0 != ":" }
        guard scheme.count < value.count, !scheme.isEmpty,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            scheme.first?.isLetter == true, !value.unicodeScalars.contains(where: { $0.properties.isWhitespace })
        else {
            throw ContactError(
                .invalidData, field: field, "'\(value)' is not a URI: write it with its scheme (xmpp:, sip:, matrix:, skype:, https:)")
        }
    case .url, .address, .related: break
    }
    return LabeledValue(value: value)
}

/// Reads one JSON field with errors that say where and why.
struct FieldReader {
    let value: JSONValue
    let path: String
    /// Whether values are checked as what they are (a phone number, an email address...), or
    /// taken as the vCard import takes them.
    var checksValues = true

    /// `value` checked as a value of `kind`; when values are not checked, one that is not
    /// such a value is kept as it is.
    func checked(_ value: String, kind: ValueKind, field: String) throws(ContactError) -> LabeledValue {
        do {
            return try ContactsCore.checked(value, kind: kind, field: field)
        } catch {
            guard !checksValues else { throw error }
            return LabeledValue(value: value)
        }
    }

    func typeError(_ expected: String) -> ContactError {
        ContactError(.invalidParams, field: path, "must be \(expected), not \(value.typeName)")
    }

    /// Trimmed text, nil for null or blank. Control characters are refused.
    func optionalText(limit: Int, multiline: Bool = false) throws(ContactError) -> String? {
        try Self.text(value, path: path, limit: limit, multiline: multiline)
    }

    static func text(_ value: JSONValue, path: String, limit: Int, multiline: Bool = false) throws(ContactError) -> String? {
        switch value {
        case .null: return nil
        case .string(let s):
            let t = s.trimmingWhitespace()
            if t.isEmpty { return nil }
            if t.utf8.count > limit {
                throw ContactError(.invalidData, field: path, "longer than \(limit) bytes")
            }
            for u in t.unicodeScalars where u.properties.generalCategory == .control {
                if multiline && (u == "\n" || u == "\t" || u == "\r") { continue }
                throw ContactError(
                    .invalidData, field: path, "contains a control character (U+\(String(u.value, radix: 16, uppercase: true)))")
            }
            return t
        default:
            throw ContactError(.invalidParams, field: path, "must be a string, not \(value.typeName)")
        }
    }

    func bool() throws(ContactError) -> Bool {
        guard case .bool(let b) = value else { throw typeError("true or false") }
        return b
    }

    func list() throws(ContactError) -> [JSONValue] {
        if value.isNull { return [] }
        guard case .array(let a) = value else { throw typeError("an array") }
        if a.count > Limits.listItems {
            throw ContactError(.invalidData, field: path, "has \(a.count) entries; at most \(Limits.listItems) are accepted")
        }
        return a
    }

    func labeledList(kind: ValueKind) throws(ContactError) -> [LabeledValue] {
        var out: [LabeledValue] = []
        for (i, e) in try list().enumerated() {
            let p = "\(path)[\(i)]"
            switch e {
            case .string:
                if let s = try Self.text(e, path: p, limit: Limits.shortText) { out.append(try checked(s, kind: kind, field: p)) }
            case .object(let o):
                guard let raw = o["value"] else { throw ContactError(.invalidParams, field: "\(p).value", "is required") }
                guard let s = try Self.text(raw, path: "\(p).value", limit: Limits.shortText) else {
                    throw ContactError(.invalidData, field: "\(p).value", "a \(kind.noun) cannot be blank")
                }
                var v = try checked(s, kind: kind, field: "\(p).value")
                v.label = try Self.text(o["label"] ?? .null, path: "\(p).label", limit: 256)
                out.append(v)
            default:
                throw ContactError(.invalidParams, field: p, "must be a string or {\"value\", \"label\"}, not \(e.typeName)")
            }
        }
        return out
    }

    func addresses() throws(ContactError) -> [PostalAddress] {
        var out: [PostalAddress] = []
        for (i, e) in try list().enumerated() {
            let p = "\(path)[\(i)]"
            switch e {
            case .string:
                if let s = try Self.text(e, path: p, limit: Limits.shortText) { out.append(PostalAddress(street: s)) }
            case .object(let o):
                func part(_ key: String) throws(ContactError) -> String {
                    try Self.text(o[key] ?? .null, path: "\(p).\(key)", limit: Limits.shortText, multiline: key == "street") ?? ""
                }
                var a = PostalAddress()
                a.poBox = try part("poBox")
                a.extended = try part("extended")
                a.street = try part("street")
                a.locality = try part("locality")
                a.region = try part("region")
                a.postalCode = try part("postalCode")
                a.country = try part("country")
                a.label = try Self.text(o["label"] ?? .null, path: "\(p).label", limit: 256)
                if a.isEmpty { throw ContactError(.invalidData, field: p, "an address needs at least one part") }
                out.append(a)
            default:
                throw ContactError(.invalidParams, field: p, "must be a string or an address object, not \(e.typeName)")
            }
        }
        return out
    }

    func structuredName() throws(ContactError) -> StructuredName? {
        if value.isNull { return nil }
        guard case .object(let o) = value else { throw typeError("an object") }
        func part(_ key: String) throws(ContactError) -> String {
            try Self.text(o[key] ?? .null, path: "\(path).\(key)", limit: Limits.shortText) ?? ""
        }
        let n = StructuredName(
            family: try part("family"), given: try part("given"), additional: try part("additional"),
            prefix: try part("prefix"), suffix: try part("suffix"))
        return n.isEmpty ? nil : n
    }

    func phoneticName() throws(ContactError) -> PhoneticName? {
        if value.isNull { return nil }
        guard case .object(let o) = value else { throw typeError("an object") }
        for key in o.keys where !PhoneticName.parts.contains(where: { $0.key == key }) {
            throw ContactError(.invalidParams, field: "\(path).\(key)", "is no part of a reading; the parts are given, middle and family")
        }
        var n = PhoneticName()
        for part in PhoneticName.parts {
            n[keyPath: part.path] = try Self.text(o[part.key] ?? .null, path: "\(path).\(part.key)", limit: Limits.shortText) ?? ""
        }
        return n.isEmpty ? nil : n
    }

    func groupNames() throws(ContactError) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for (i, e) in try list().enumerated() {
            let p = "\(path)[\(i)]"
            guard case .string = e else { throw ContactError(.invalidParams, field: p, "must be a string, not \(e.typeName)") }
            guard let name = try Self.text(e, path: p, limit: 256) else {
                throw ContactError(.invalidData, field: p, "a group name cannot be blank")
            }
            if seen.insert(name.lowercased()).inserted { out.append(name) }
        }
        return out
    }
}
