import ContactsCore
import JSONCore
import VCard

/// The typed fields kept in a contact's `body` column as JSON; the rest have their own columns.
enum StoredBody {
    /// The body as JSON text, written directly (this runs for every contact of an import).
    static func encode(_ c: Contact) -> String {
        var b = JSONTextBuilder(capacity: 512)
        c.build(into: &b, .storedBody)
        return b.string
    }

    /// Fills `contact` from a stored body. The store wrote it, so shapes are trusted, but a
    /// field it cannot read is left empty rather than failing the whole contact.
    static func decode(_ bytes: UnsafeRawBufferPointer, into c: inout Contact) {
        guard case .object(let o)? = try? JSONParser.parse(bytes) else { return }
        for m in o { apply(m.key, m.value, into: &c) }
    }

    /// Fills `contact` with the members of a stored body that `spans` found: for a projection
    /// (`contacts.query {fields}`) of many contacts, which reads a few and steps over the rest.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, _ spans: [(field: Contact.Fields, span: Range<Int>)], into c: inout Contact
    ) {
        for (field, span) in spans {
            guard let m = members.first(where: { $0.field == field }),
                let v = try? JSONParser.parse(UnsafeRawBufferPointer(rebasing: bytes[span]))
            else { continue }
            apply(m.name, v, into: &c)
        }
    }

    /// Where the members of `fields` lie in a stored body (those it holds).
    static func spans(_ bytes: UnsafeRawBufferPointer, only fields: Contact.Fields) -> [(field: Contact.Fields, span: Range<Int>)] {
        let wanted = members.filter { fields.contains($0.field) }
        guard !wanted.isEmpty, let spans = try? JSONParser.memberSpans(bytes, wanted.map(\.key)) else { return [] }
        return zip(wanted, spans).compactMap { m, span in span.map { (m.field, $0) } }
    }

    /// The members a body can hold, and the field each fills.
    static let members: [(key: StaticString, name: String, field: Contact.Fields)] =
        [
            ("structuredName", "structuredName", .structuredName), ("nickname", "nickname", .nickname), ("phones", "phones", .phones),
            ("emails", "emails", .emails), ("urls", "urls", .urls), ("addresses", "addresses", .addresses),
            ("organization", "organization", .organization), ("title", "title", .title), ("birthday", "birthday", .birthday),
            ("note", "note", .note), ("photo", "photo", .photo), ("collected", "collected", .collected),
        ] + DeclaredField.all.map { ($0.key, $0.name, $0.field) }

    private static func apply(_ key: String, _ value: JSONValue, into c: inout Contact) {
        switch key {
        case "structuredName":
            if let n = value.objectValue {
                c.structuredName = StructuredName(
                    family: n["family"]?.stringValue ?? "", given: n["given"]?.stringValue ?? "",
                    additional: n["additional"]?.stringValue ?? "", prefix: n["prefix"]?.stringValue ?? "",
                    suffix: n["suffix"]?.stringValue ?? "")
            }
        case "nickname": c.nickname = value.stringValue
        case "collected": c.collected = value.boolValue ?? false
        case "phones": c.phones = labeled(value)
        case "emails": c.emails = labeled(value)
        case "urls": c.urls = labeled(value)
        case "addresses":
            c.addresses = (value.arrayValue ?? []).compactMap { v in
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
        case "organization": c.organization = value.stringValue
        case "title": c.title = value.stringValue
        case "birthday": c.birthday = value.stringValue
        case "note": c.note = value.stringValue
        case "photo":
            if let p = value.objectValue {
                if let url = p["url"]?.stringValue {
                    c.photo = .url(url)
                } else if let hash = p["hash"]?.stringValue {
                    c.photo = .stored(
                        hash: hash, mimeType: p["mimeType"]?.stringValue ?? "application/octet-stream",
                        width: p["width"]?.intValue, height: p["height"]?.intValue)
                }
            }
        default: DeclaredField.byName[key]?.decodeStored(value, into: &c)
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
        var w = JSONWriter(capacity: 256 + props.count * 96)
        w.writeRaw("[")
        // Read where they lie, through buffer pointers: an array's subscript hands out a copy,
        // which retains and releases each of its parts.
        props.withUnsafeBufferPointer { props in
            for i in props.indices {
                if i > 0 { w.writeRaw(",") }
                var f = true
                w.writeRaw("{")
                if let g = props[i].group {
                    w.writeKey("g", first: &f)
                    w.writeString(g)
                }
                // Names as they arrived; read back, they are upper-cased for comparison again.
                w.writeKey("n", first: &f)
                w.writeString(props[i].writtenName)
                if !props[i].parameters.isEmpty {
                    w.writeKey("p", first: &f)
                    w.writeRaw("[")
                    props[i].parameters.withUnsafeBufferPointer { params in
                        for j in params.indices {
                            if j > 0 { w.writeRaw(",") }
                            w.writeRaw("[")
                            w.writeString(params[j].writtenName)
                            w.writeRaw(",")
                            writeStrings(params[j].values, &w)
                            w.writeRaw("]")
                        }
                    }
                    w.writeRaw("]")
                }
                switch props[i].value {
                case .raw(let r):
                    w.writeKey("r", first: &f)
                    w.writeString(r)
                case .text(let components):
                    w.writeKey("t", first: &f)
                    w.writeRaw("[")
                    components.withUnsafeBufferPointer { components in
                        for j in components.indices {
                            if j > 0 { w.writeRaw(",") }
                            writeStrings(components[j], &w)
                        }
                    }
                    w.writeRaw("]")
                }
                w.writeRaw("}")
            }
        }
        w.writeRaw("]")
        return w.string
    }

    private static func writeStrings(_ list: [String], _ w: inout JSONWriter) {
        w.writeRaw("[")
        list.withUnsafeBufferPointer { list in
            for i in list.indices {
                if i > 0 { w.writeRaw(",") }
                w.writeString(list[i])
            }
        }
        w.writeRaw("]")
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
