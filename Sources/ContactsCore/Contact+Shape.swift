import ContactsSupport
import JSONCore

/// A contact's fields as JSON, described once: the API's shape (`json`) and the store's body
/// column are both built from `build(into:_:)`, the one place that names each field's key.
extension Contact {
    /// Which of a contact's fields a shape holds.
    public enum Shape: Sendable {
        /// Everything, as the API shows it: absent values as `null` or `[]`.
        case api
        /// The API's shape of these fields alone (`id` always): a projection.
        case only(Fields)
        /// The typed fields the store keeps in its `body` column (identity, name, favorite,
        /// groups and times have columns of their own); absent ones are left out.
        case storedBody
    }

    /// A set of the API's fields, by the names the API gives them.
    public struct Fields: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Every field's name, in the order the API writes them.
        public static let names =
            [
                "id", "uid", "revision", "name", "structuredName", "nickname", "phones", "emails", "addresses", "organization", "title",
                "birthday", "note", "urls",
            ] + DeclaredField.all.map(\.name) + ["favorite", "groups", "photo", "createdAt", "updatedAt", "account", "collected"]
        public static let all = Fields(rawValue: (1 << UInt32(names.count)) - 1)

        /// The field with this name; nil for a name the API does not have.
        public init?(name: String) {
            guard let i = Self.names.firstIndex(of: name) else { return nil }
            rawValue = 1 << UInt32(i)
        }

        /// Fields by name; nil for a name the API does not have.
        public static func named(_ list: some Sequence<String>) -> (Fields, unknown: [String]) {
            var fields: Fields = [], unknown: [String] = []
            for n in list {
                if let f = Fields(name: n) { fields.insert(f) } else { unknown.append(n) }
            }
            return (fields, unknown)
        }

        // swift-format-ignore: NeverForceUnwrap
        static func field(_ name: String) -> Fields { Fields(name: name)! }  // names the API has
        public static let id = field("id"), uid = field("uid"), revision = field("revision"), name = field("name")
        public static let structuredName = field("structuredName"), nickname = field("nickname"), phones = field("phones")
        public static let emails = field("emails"), addresses = field("addresses"), organization = field("organization")
        public static let title = field("title"), birthday = field("birthday"), note = field("note"), urls = field("urls")
        public static let favorite = field("favorite"), groups = field("groups"), photo = field("photo")
        public static let createdAt = field("createdAt"), updatedAt = field("updatedAt"), account = field("account")
        public static let collected = field("collected")

        /// The fields whose member of the stored body is written as the API shows it (by the
        /// same builder, below): a projection copies those from the body unread. (Phones are
        /// not: the API adds what each number is.)
        public static let storedAsShown = Fields([
            .structuredName, .nickname, .emails, .addresses, .organization, .title, .birthday, .note, .urls, .photo,
        ]).union(Fields(DeclaredField.all.map(\.field)))
    }

    /// The contact in the API's JSON shape.
    public var json: JSONValue {
        var tree = JSONTreeBuilder()
        build(into: &tree, .api)
        return tree.value
    }

    /// The contact in the API's JSON shape, only `fields` (and `id`).
    public func json(_ fields: Fields) -> JSONValue {
        var tree = JSONTreeBuilder()
        build(into: &tree, .only(fields))
        return tree.value
    }

    /// Builds the contact in `shape`. In the API's shape, `stored` may give the text of a
    /// field of `Fields.storedAsShown` as its stored body holds it (nil where the body has
    /// none): that text is copied in place of the field's value.
    /// Specialized for JSON text, which every stored body and reply is: a call from another
    /// module would otherwise reach each piece through the protocol.
    @_specialize(exported:true,where B == JSONTextBuilder)
    public func build<B: JSONBuilding>(
        into b: inout B, _ shape: Shape, stored: ((Fields) -> UnsafeRawBufferPointer?)? = nil
    ) {
        // The API's shape shows every field it is asked for, absent ones as null or []; the
        // stored body holds only the typed fields that have a value.
        let api: Bool, fields: Fields
        switch shape {
        case .api: (api, fields) = (true, .all)
        case .only(let f): (api, fields) = (true, f.union(.id))
        case .storedBody: (api, fields) = (false, [])
        }
        func wants(_ f: Fields, _ key: StaticString, present: Bool) -> Bool {
            guard api else { return present }
            guard fields.contains(f) else { return false }
            // Copied from the stored body, or built below.
            guard let stored, let text = stored(f) else { return true }
            b.encoded(key, text)
            return false
        }
        b.beginObject(nil)
        if fields.contains(.id) { b.string("id", id) }
        if fields.contains(.uid) { b.string("uid", uid) }
        if fields.contains(.revision) { b.int("revision", revision) }
        if fields.contains(.name) { b.string("name", name) }
        if wants(.structuredName, "structuredName", present: structuredName != nil) {
            if let n = structuredName { n.build("structuredName", into: &b) } else { b.string("structuredName", nil) }
        }
        if wants(.nickname, "nickname", present: nickname != nil) { b.string("nickname", nickname) }
        if api {
            if fields.contains(.phones) { LabeledValue.buildPhones("phones", phones, into: &b) }
        } else if !phones.isEmpty {
            LabeledValue.build("phones", phones, into: &b)
        }
        if wants(.emails, "emails", present: !emails.isEmpty) { LabeledValue.build("emails", emails, into: &b) }
        if wants(.addresses, "addresses", present: !addresses.isEmpty) {
            b.beginArray("addresses")
            for a in addresses { a.build(nil, into: &b) }
            b.endArray()
        }
        if wants(.organization, "organization", present: organization != nil) { b.string("organization", organization) }
        if wants(.title, "title", present: title != nil) { b.string("title", title) }
        if wants(.birthday, "birthday", present: birthday != nil) { b.string("birthday", birthday) }
        if wants(.note, "note", present: note != nil) { b.string("note", note) }
        if wants(.urls, "urls", present: !urls.isEmpty) { LabeledValue.build("urls", urls, into: &b) }
        for d in DeclaredField.all where wants(d.field, d.key, present: d.isPresent(in: self)) { d.build(self, into: &b) }
        if fields.contains(.favorite) { b.bool("favorite", favorite) }
        if fields.contains(.groups) { b.strings("groups", groups) }
        if wants(.photo, "photo", present: photo != nil) {
            if let p = photo { p.build("photo", into: &b) } else { b.string("photo", nil) }
        }
        if fields.contains(.createdAt) { b.string("createdAt", Timestamp.format(createdAt)) }
        if fields.contains(.updatedAt) { b.string("updatedAt", Timestamp.format(updatedAt)) }
        if fields.contains(.account) { b.string("account", account) }
        // The body keeps it only when set (a collected contact is the exception).
        if api ? fields.contains(.collected) : collected { b.bool("collected", collected) }
        b.endObject()
    }
}

/// A value whose JSON shape is described once, by `build`; `json` is that shape as a tree.
public protocol JSONShaped {
    /// Builds the value, under `key` inside an object.
    func build(_ key: StaticString?, into b: inout some JSONBuilding)
}

extension JSONShaped {
    public var json: JSONValue {
        var tree = JSONTreeBuilder()
        build(nil, into: &tree)
        return tree.value
    }
}

extension LabeledValue: JSONShaped {
    public func build(_ key: StaticString?, into b: inout some JSONBuilding) {
        b.beginObject(key)
        b.string("value", value)
        b.string("label", label)
        b.endObject()
    }

    static func build(_ key: StaticString, _ list: [LabeledValue], into b: inout some JSONBuilding) {
        b.beginArray(key)
        for v in list { v.build(nil, into: &b) }
        b.endArray()
    }
}

extension StructuredName: JSONShaped {
    public func build(_ key: StaticString?, into b: inout some JSONBuilding) {
        b.beginObject(key)
        b.string("family", family)
        b.string("given", given)
        b.string("additional", additional)
        b.string("prefix", prefix)
        b.string("suffix", suffix)
        b.endObject()
    }
}

extension PostalAddress: JSONShaped {
    /// The post-office box and extended address only when there is one: few cards have them.
    public func build(_ key: StaticString?, into b: inout some JSONBuilding) {
        b.beginObject(key)
        b.string("street", street)
        b.string("locality", locality)
        b.string("region", region)
        b.string("postalCode", postalCode)
        b.string("country", country)
        b.string("label", label)
        if !poBox.isEmpty { b.string("poBox", poBox) }
        if !extended.isEmpty { b.string("extended", extended) }
        b.endObject()
    }
}

extension PhotoReference: JSONShaped {
    public func build(_ key: StaticString?, into b: inout some JSONBuilding) {
        b.beginObject(key)
        switch self {
        case .stored(let hash, let mimeType, let width, let height):
            b.string("hash", hash)
            b.string("mimeType", mimeType)
            b.int("width", width)
            b.int("height", height)
        case .url(let url):
            b.string("url", url)
        }
        b.endObject()
    }
}
