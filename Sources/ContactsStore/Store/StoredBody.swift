import ContactsCore
import JSONCore
import VCard

/// The typed fields kept in a contact's `body` column as JSON; the rest have their own columns.
enum StoredBody {
    static func encode(_ c: Contact) -> String {
        var o = JSONObject()
        if let n = c.structuredName { o["structuredName"] = n.json }
        if let v = c.nickname { o["nickname"] = .string(v) }
        if !c.phones.isEmpty { o["phones"] = .array(c.phones.map(\.json)) }
        if !c.emails.isEmpty { o["emails"] = .array(c.emails.map(\.json)) }
        if !c.addresses.isEmpty { o["addresses"] = .array(c.addresses.map(\.json)) }
        if let v = c.organization { o["organization"] = .string(v) }
        if let v = c.title { o["title"] = .string(v) }
        if let v = c.birthday { o["birthday"] = .string(v) }
        if let v = c.note { o["note"] = .string(v) }
        if !c.urls.isEmpty { o["urls"] = .array(c.urls.map(\.json)) }
        if let p = c.photo { o["photo"] = p.json }
        return JSONWriter.string(.object(o))
    }

    /// Fills `contact` from a stored body. The store wrote it, so shapes are trusted, but a
    /// field it cannot read is left empty rather than failing the whole contact.
    static func decode(_ bytes: UnsafeRawBufferPointer, into c: inout Contact) {
        guard case .object(let o)? = try? JSONParser.parse(bytes) else { return }
        for m in o {
            switch m.key {
            case "structuredName":
                if let n = m.value.objectValue {
                    c.structuredName = StructuredName(
                        family: n["family"]?.stringValue ?? "", given: n["given"]?.stringValue ?? "",
                        additional: n["additional"]?.stringValue ?? "", prefix: n["prefix"]?.stringValue ?? "",
                        suffix: n["suffix"]?.stringValue ?? "")
                }
            case "nickname": c.nickname = m.value.stringValue
            case "phones": c.phones = labeled(m.value)
            case "emails": c.emails = labeled(m.value)
            case "urls": c.urls = labeled(m.value)
            case "addresses":
                c.addresses = (m.value.arrayValue ?? []).compactMap { v in
                    guard let a = v.objectValue else { return nil }
                    var p = PostalAddress()
                    p.poBox = a["poBox"]?.stringValue ?? ""
                    p.extended = a["extended"]?.stringValue ?? ""
                    p.street = a["street"]?.stringValue ?? ""
                    p.locality = a["locality"]?.stringValue ?? ""
                    p.region = a["region"]?.stringValue ?? ""
                    p.postalCode = a["postalCode"]?.stringValue ?? ""
                    p.country = a["country"]?.stringValue ?? ""
                    p.label = a["label"]?.stringValue
                    return p
                }
            case "organization": c.organization = m.value.stringValue
            case "title": c.title = m.value.stringValue
            case "birthday": c.birthday = m.value.stringValue
            case "note": c.note = m.value.stringValue
            case "photo":
                if let p = m.value.objectValue {
                    if let url = p["url"]?.stringValue {
                        c.photo = .url(url)
                    } else if let hash = p["hash"]?.stringValue {
                        c.photo = .stored(
                            hash: hash, mimeType: p["mimeType"]?.stringValue ?? "application/octet-stream",
                            width: p["width"]?.intValue, height: p["height"]?.intValue)
                    }
                }
            default: break
            }
        }
    }

    private static func labeled(_ v: JSONValue) -> [LabeledValue] {
        (v.arrayValue ?? []).compactMap { e in
            guard let o = e.objectValue, let value = o["value"]?.stringValue else { return nil }
            return LabeledValue(value: value, label: o["label"]?.stringValue)
        }
    }
}

/// A contact's vCard properties as compact JSON in the `vcard` column:
/// `[{"g": group, "n": name, "p": [[name|null, [values]]], "t": [[items]] | "r": raw}]`.
enum StoredProperties {
    static func encode(_ props: [VCardProperty]?) -> String? {
        guard let props else { return nil }
        let list: [JSONValue] = props.map { p in
            var o = JSONObject()
            if let g = p.group { o["g"] = .string(g) }
            o["n"] = .string(p.name)
            if !p.parameters.isEmpty {
                o["p"] = .array(p.parameters.map { .array([$0.name.map(JSONValue.string) ?? .null, .array($0.values.map(JSONValue.string))]) })
            }
            switch p.value {
            case .raw(let r): o["r"] = .string(r)
            case .text(let c): o["t"] = .array(c.map { .array($0.map(JSONValue.string)) })
            }
            return .object(o)
        }
        return JSONWriter.string(.array(list))
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> [VCardProperty]? {
        guard case .array(let list)? = try? JSONParser.parse(bytes) else { return nil }
        return list.compactMap { v -> VCardProperty? in
            guard let o = v.objectValue, let name = o["n"]?.stringValue else { return nil }
            let params = (o["p"]?.arrayValue ?? []).compactMap { p -> VCardParameter? in
                guard let pair = p.arrayValue, pair.count == 2 else { return nil }
                return VCardParameter(pair[0].stringValue, (pair[1].arrayValue ?? []).compactMap(\.stringValue))
            }
            let value: VCardValue
            if let r = o["r"]?.stringValue {
                value = .raw(r)
            } else {
                value = .text((o["t"]?.arrayValue ?? []).map { ($0.arrayValue ?? []).compactMap(\.stringValue) })
            }
            return VCardProperty(group: o["g"]?.stringValue, name: name, parameters: params, value: value)
        }
    }
}
