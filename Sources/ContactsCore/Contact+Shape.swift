import ContactsSupport
import JSONCore

/// A contact's fields as JSON, described once: the API's shape (`json`) and the store's body
/// column are both built from `build(into:_:)`, the one place that names each field's key.
extension Contact {
    /// Which of a contact's fields a shape holds.
    public enum Shape: Sendable {
        /// Everything, as the API shows it: absent values as `null` or `[]`.
        case api
        /// The typed fields the store keeps in its `body` column (identity, name, favorite,
        /// groups and times have columns of their own); absent ones are left out.
        case storedBody
    }

    /// The contact in the API's JSON shape.
    public var json: JSONValue {
        var tree = JSONTreeBuilder()
        build(into: &tree, .api)
        return tree.value
    }

    public func build(into b: inout some JSONBuilding, _ shape: Shape) {
        let all = shape == .api
        b.beginObject(nil)
        if all {
            b.string("id", id)
            b.string("uid", uid)
            b.int("revision", revision)
            b.string("name", name)
        }
        if all || structuredName != nil {
            if let n = structuredName { n.build("structuredName", into: &b) } else { b.string("structuredName", nil) }
        }
        if all || nickname != nil { b.string("nickname", nickname) }
        if all {
            LabeledValue.buildPhones("phones", phones, into: &b)
        } else if !phones.isEmpty {
            LabeledValue.build("phones", phones, into: &b)
        }
        if all || !emails.isEmpty { LabeledValue.build("emails", emails, into: &b) }
        if all || !addresses.isEmpty {
            b.beginArray("addresses")
            for a in addresses { a.build(nil, into: &b) }
            b.endArray()
        }
        if all || organization != nil { b.string("organization", organization) }
        if all || title != nil { b.string("title", title) }
        if all || birthday != nil { b.string("birthday", birthday) }
        if all || note != nil { b.string("note", note) }
        if all || !urls.isEmpty { LabeledValue.build("urls", urls, into: &b) }
        if all {
            b.bool("favorite", favorite)
            b.strings("groups", groups)
        }
        if all || photo != nil {
            if let p = photo { p.build("photo", into: &b) } else { b.string("photo", nil) }
        }
        if all {
            b.string("createdAt", Timestamp.format(createdAt))
            b.string("updatedAt", Timestamp.format(updatedAt))
        }
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
