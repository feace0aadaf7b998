import ContactsSupport
import Foundation
import VCard

/// Between vCards and contacts: which properties make which fields, with labels, and the
/// way back that keeps every property a card arrived with.
public enum VCardMapping {
    /// Why a card cannot become a contact.
    public struct CardError: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    // MARK: Card to contact

    /// The contact a card describes; its properties are kept with it.
    public static func contact(from card: VCard) throws(CardError) -> Contact {
        var ignored: DecodedPhoto?
        return try contact(from: card, decodedPhoto: &ignored)
    }

    /// The contact, and the bytes of its photo as `fill` decoded them (where they came from).
    static func contact(from card: VCard, decodedPhoto: inout DecodedPhoto?) throws(CardError) -> Contact {
        var c = Contact(name: "")
        fill(&c, from: card.properties, decodedPhoto: &decodedPhoto)
        if c.name.isEmpty {
            throw CardError(line: card.line, message: "the card has no name: FN, N, ORG and EMAIL are all empty")
        }
        if c.name.utf8.count > Limits.shortText {
            throw CardError(line: card.first("FN")?.line ?? card.line, message: "the name is longer than \(Limits.shortText) bytes")
        }
        c.vcardProperties = card.properties
        if c.uid.isEmpty {
            // No UID: name the card by its content, so that importing it again finds it.
            var text: [UInt8] = []
            text.reserveCapacity(1024)
            let props = card.properties
            for i in props.indices {
                if let g = props[i].group { text.append(contentsOf: g.utf8) }
                text.append(0)
                text.append(contentsOf: props[i].name.utf8)
                for param in props[i].parameters {
                    text.append(1)
                    if let n = param.name { text.append(contentsOf: n.utf8) }
                    for v in param.values { text.append(2); text.append(contentsOf: v.utf8) }
                }
                text.append(3)
                text.append(contentsOf: props[i].value.joined.utf8)
                text.append(4)
            }
            c.uid = "urn:contactsd:card-" + SHA256.hex(text).prefix(32)
        }
        return c
    }

    /// The typed fields that a list of properties gives.
    static func fill(_ c: inout Contact, from props: [VCardProperty]) {
        var ignored: DecodedPhoto?
        fill(&c, from: props, decodedPhoto: &ignored)
    }

    /// `fill`, which also hands out the photo's bytes when it decoded them.
    static func fill(_ c: inout Contact, from props: [VCardProperty], decodedPhoto: inout DecodedPhoto?) {
        let labels = labelsByGroup(props)
        func label(_ p: VCardProperty, kind: ValueKind) -> String? {
            if let g = p.group?.lowercased(), let l = labels[g] { return l }
            return typeLabel(p.parameterValues("TYPE"), kind: kind)
        }
        var notes: [String] = []
        // Each property is read where it lies, through a buffer pointer: an array's subscript
        // hands out a copy, which retains and releases each of its parts.
        props.withUnsafeBufferPointer { props in
            for i in props.indices {
                let name = props[i].name
                switch name {
                case "FN" where c.name.isEmpty: c.name = clean(props[i].text)
                case "N" where c.structuredName == nil:
                    let v = props[i].value
                    let n = StructuredName(
                        family: clean(v.component(0)), given: clean(v.component(1)), additional: clean(v.component(2)),
                        prefix: clean(v.component(3)), suffix: clean(v.component(4)))
                    if !n.isEmpty { c.structuredName = n }
                case "NICKNAME" where c.nickname == nil: c.nickname = nonEmpty(clean(props[i].text))
                case "TEL":
                    var v = clean(props[i].text)
                    if v.utf8.count >= 4, v.utf8.prefix(4).lazy.map({ $0 | 0x20 }).elementsEqual("tel:".utf8) { v = String(v.dropFirst(4)) }
                    if !v.isEmpty { c.phones.append(LabeledValue(value: v, label: label(props[i], kind: .phone))) }
                case "EMAIL":
                    let v = clean(props[i].text)
                    if !v.isEmpty { c.emails.append(LabeledValue(value: v, label: label(props[i], kind: .email))) }
                case "URL":
                    let v = clean(props[i].text)
                    if !v.isEmpty { c.urls.append(LabeledValue(value: v, label: label(props[i], kind: .url))) }
                case "ADR":
                    var a = PostalAddress()
                    a.poBox = clean(props[i].value.component(0))
                    a.extended = clean(props[i].value.component(1))
                    a.street = clean(props[i].value.component(2))
                    a.locality = clean(props[i].value.component(3))
                    a.region = clean(props[i].value.component(4))
                    a.postalCode = clean(props[i].value.component(5))
                    a.country = clean(props[i].value.component(6))
                    a.label = label(props[i], kind: .address)
                    if !a.isEmpty { c.addresses.append(a) }
                case "ORG" where c.organization == nil:
                    c.organization = nonEmpty(clean(props[i].value.component(0)))
                    c.department = nonEmpty(clean(props[i].value.component(1)))
                case "TITLE" where c.title == nil: c.title = nonEmpty(clean(props[i].text))
                case "BDAY" where c.birthday == nil: c.birthday = birthday(props[i])
                case "NOTE": if let n = nonEmpty(clean(props[i].text, keepNewlines: true)) { notes.append(n) }
                case "CATEGORIES":
                    for item in props[i].value.components.flatMap({ $0.split(separator: ",").map(String.init) }) {
                        let g = clean(item)
                        if !g.isEmpty && g.lowercased() != "mycontacts" && !c.groups.contains(where: { $0.lowercased() == g.lowercased() })
                        {
                            c.groups.append(g)
                        }
                    }
                case "UID" where c.uid.isEmpty: c.uid = clean(props[i].text)
                case "PHOTO" where c.photo == nil:
                    var data: PhotoData?
                    c.photo = photoReference(props[i], decoded: &data)
                    if let data { decodedPhoto = DecodedPhoto(index: i, data: data) }
                case "X-CONTACTSD-FAVORITE": c.favorite = ["1", "TRUE", "YES"].contains(props[i].text.uppercased())
                default: readDeclared(props[i], groupLabel: props[i].group.flatMap { labels[$0.lowercased()] }, into: &c)
                }
            }
            if c.phoneticName == nil { c.phoneticName = sortAsReading(props) }
        }
        if !notes.isEmpty { c.note = notes.joined(separator: "\n\n") }
        if c.name.isEmpty {
            // A card with an empty FN: the name comes from N, then ORG, then the first email.
            if let n = c.structuredName {
                c.name = [n.prefix, n.given, n.additional, n.family, n.suffix].filter { !$0.isEmpty }.joined(separator: " ")
            }
            if c.name.isEmpty, let org = props.first(where: { $0.name == "ORG" }) {
                c.name = clean(org.value.components.filter { !$0.isEmpty }.joined(separator: ", "))
            }
            if c.name.isEmpty, let e = c.emails.first { c.name = e.value }
        }
    }

    static func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }

    /// Trimmed, without control characters (newlines kept for notes).
    static func clean(_ s: String, keepNewlines: Bool = false) -> String {
        let t = s.trimmingWhitespace()
        // Control characters are C0, DEL and C1: a byte test finds them without tables.
        guard t.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return t }
        guard t.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return t }
        var out = String.UnicodeScalarView()
        for u in t.unicodeScalars {
            if u.properties.generalCategory == .control {
                if keepNewlines && (u == "\n" || u == "\t") { out.append(u) } else if u == "\n" || u == "\t" { out.append(" ") }
                continue
            }
            out.append(u)
        }
        return String(out)
    }

    static func birthday(_ p: VCardProperty) -> String? {
        var text = p.text.trimmingWhitespace()
        if let t = text.utf8.firstIndex(of: UInt8(ascii: "T")) { text = String(text[..<t]) }
        let omitYear = p.parameter("X-APPLE-OMIT-YEAR")
        if let omitYear, text.hasPrefix(omitYear) { text = "--" + text.dropFirst(omitYear.count).drop { $0 == "-" } }
        guard let date = try? Birthday.normalize(text, field: "BDAY") else { return nil }
        // CardBook's and Apple's year for "no year" (the card keeps it as it came).
        return date.hasPrefix("\(RememberedDate.placeholderYear)-") ? "--" + date.dropFirst(5) : date
    }

    // MARK: Contact to card

    /// The properties to export for a contact: the ones it arrived with, with every field
    /// edited since regenerated from the typed value, and FN, N and UID always present.
    public static func properties(for c: Contact) -> [VCardProperty] {
        var props = c.vcardProperties ?? []
        var derived = Contact(name: "")
        fill(&derived, from: props)
        var nextItem =
            (props.compactMap { p in p.group.flatMap { g in g.lowercased().hasPrefix("item") ? Int(g.dropFirst(4)) : nil } }.max() ?? 0) + 1

        func replace(_ names: Set<String>, with new: [VCardProperty]) { replace(where: { names.contains($0.name) }, with: new) }
        func replace(where taken: (VCardProperty) -> Bool, with new: [VCardProperty]) {
            let removedGroups = Set(props.filter(taken).compactMap { $0.group?.lowercased() })
            let at = props.firstIndex(where: taken) ?? props.count
            var kept: [VCardProperty] = []
            var insertAt = 0
            for (i, p) in props.enumerated() {
                if i == at { insertAt = kept.count }
                if taken(p) { continue }
                // A label belongs to the property it labelled.
                if p.name == "X-ABLABEL", let g = p.group?.lowercased(), removedGroups.contains(g) { continue }
                kept.append(p)
            }
            if at >= props.count { insertAt = kept.count }
            kept.insert(contentsOf: new, at: insertAt)
            props = kept
        }

        func labeled(_ name: String, _ values: [LabeledValue], kind: ValueKind) -> [VCardProperty] {
            values.flatMap { v -> [VCardProperty] in
                labeledProperty(name, value: .text([[v.value]]), label: v.label, kind: kind, nextItem: &nextItem)
            }
        }

        if derived.name != c.name || !props.contains(where: { $0.name == "FN" }) {
            replace(["FN"], with: [VCardProperty(name: "FN", text: c.name)])
        }
        if derived.structuredName != c.structuredName || !props.contains(where: { $0.name == "N" }) {
            let n = c.structuredName ?? StructuredName()
            replace(["N"], with: [VCardProperty(name: "N", value: .text([[n.family], [n.given], [n.additional], [n.prefix], [n.suffix]]))])
        }
        if derived.nickname != c.nickname {
            replace(
                where: { $0.name == "NICKNAME" || isAndroid($0, androidNickname) },
                with: c.nickname.map { [VCardProperty(name: "NICKNAME", text: $0)] } ?? [])
        }
        if derived.phones != c.phones { replace(["TEL"], with: labeled("TEL", c.phones, kind: .phone)) }
        if derived.emails != c.emails { replace(["EMAIL"], with: labeled("EMAIL", c.emails, kind: .email)) }
        if derived.urls != c.urls {
            replace(
                ["URL"],
                with: c.urls.flatMap { labeledProperty("URL", value: .raw($0.value), label: $0.label, kind: .url, nextItem: &nextItem) })
        }
        if derived.addresses != c.addresses {
            replace(
                ["ADR"],
                with: c.addresses.flatMap { a in
                    labeledProperty(
                        "ADR", value: .text([[a.poBox], [a.extended], [a.street], [a.locality], [a.region], [a.postalCode], [a.country]]),
                        label: a.label, kind: .address, nextItem: &nextItem)
                })
        }
        if derived.organization != c.organization || derived.department != c.department {
            // The units past the department stay as the card had them.
            let units = props.first { $0.name == "ORG" }?.value.components.dropFirst(2) ?? []
            let parts = [c.organization ?? "", c.department ?? ""] + units
            let org = VCardProperty(name: "ORG", value: .text((c.department == nil && units.isEmpty ? [parts[0]] : parts).map { [$0] }))
            replace(["ORG"], with: c.organization == nil && c.department == nil && units.isEmpty ? [] : [org])
        }
        if derived.title != c.title { replace(["TITLE"], with: c.title.map { [VCardProperty(name: "TITLE", text: $0)] } ?? []) }
        if derived.birthday != c.birthday {
            replace(["BDAY"], with: c.birthday.map { [VCardProperty(name: "BDAY", value: .raw($0))] } ?? [])
        }
        if derived.note != c.note { replace(["NOTE"], with: c.note.map { [VCardProperty(name: "NOTE", text: $0)] } ?? []) }
        if Set(derived.groups.map { $0.lowercased() }) != Set(c.groups.map { $0.lowercased() }) {
            replace(["CATEGORIES"], with: c.groups.isEmpty ? [] : [VCardProperty(name: "CATEGORIES", value: .text([c.groups]))])
        }
        if derived.photo?.hash != c.photo?.hash || (c.photo?.hash == nil && derived.photo != c.photo) {
            let photo: [VCardProperty]
            switch c.photo {
            case .stored(let hash, let mimeType, _, _)?: photo = [storedPhotoProperty(hash: hash, mimeType: mimeType)]
            case .url(let url)?: photo = [VCardProperty(name: "PHOTO", parameters: [VCardParameter("VALUE", ["uri"])], value: .raw(url))]
            case nil: photo = []
            }
            replace(["PHOTO"], with: photo)
        }
        let original = c.vcardProperties ?? []
        writeDeclared(c, derived: derived, original: original, nextItem: &nextItem) { taken, new in replace(where: taken, with: new) }
        if derived.uid != c.uid { replace(["UID"], with: [VCardProperty(name: "UID", value: .raw(c.uid))]) }
        if derived.favorite != c.favorite {
            replace(["X-CONTACTSD-FAVORITE"], with: c.favorite ? [VCardProperty(name: "X-CONTACTSD-FAVORITE", value: .raw("TRUE"))] : [])
        }
        return props
    }

}
