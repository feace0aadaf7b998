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
        var c = Contact(name: "")
        fill(&c, from: card.properties)
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
        let labels = labelsByGroup(props)
        func label(_ p: VCardProperty, kind: LabelKind) -> String? {
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
                case "ORG" where c.organization == nil: c.organization = nonEmpty(clean(props[i].value.component(0)))
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
                case "PHOTO" where c.photo == nil: c.photo = photoReference(props[i])
                case "X-CONTACTSD-FAVORITE": c.favorite = ["1", "TRUE", "YES"].contains(props[i].text.uppercased())
                default: break
                }
            }
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
        if let t = text.firstIndex(of: "T") { text = String(text[..<t]) }
        let omitYear = p.parameter("X-APPLE-OMIT-YEAR")
        if let omitYear, text.hasPrefix(omitYear) { text = "--" + text.dropFirst(omitYear.count).drop { $0 == "-" } }
        return try? Birthday.normalize(text, field: "BDAY")
    }

    /// The photo a card carries, if any (its first PHOTO with a value).
    public static func photo(in card: VCard) -> PhotoReference? {
        card.all("PHOTO").lazy.compactMap(photoReference).first
    }

    static func photoReference(_ p: VCardProperty) -> PhotoReference? {
        if let (hash, mimeType) = storedPhoto(p) { return .stored(hash: hash, mimeType: mimeType, width: nil, height: nil) }
        guard case .raw(let r) = p.value, !r.isEmpty else { return nil }
        if let data = PhotoData.decode(p) {
            return .stored(hash: "sha256:" + SHA256.hex(data.bytes), mimeType: data.mimeType, width: nil, height: nil)
        }
        var compact = r.filter { !$0.isWhitespace }
        if compact.hasPrefix("data:"), let comma = compact.firstIndex(of: ",") { compact = String(compact[compact.index(after: comma)...]) }
        if r.hasPrefix("data:") || !compact.utf8.contains(UInt8(ascii: ":")) {
            // Inline data that does not decode: kept as it came (in the card), named by content.
            return .stored(hash: "sha256:" + SHA256.hex(Array(compact.utf8)), mimeType: "application/octet-stream", width: nil, height: nil)
        }
        return .url(r)
    }

    // MARK: Photos kept in the photo store

    /// Takes the bytes of the contact's photo out of its card: that PHOTO keeps its place and
    /// its other parameters, and names its content instead of carrying it. Returns the photo,
    /// to be stored by content. (Any further PHOTO stays in the card as it came.)
    public static func detachPhoto(_ c: inout Contact) -> PhotoData? { detach(&c, source: nil) }

    /// `detachPhoto` for a contact that `contact(from:)` has just made: its photo is the card's
    /// first PHOTO with a value, already decoded and hashed once there, so that property is
    /// decoded again but not hashed again (an import does this for every card with a photo).
    public static func detachCardPhoto(_ c: inout Contact) -> PhotoData? {
        let source = c.vcardProperties?.firstIndex { p in
            guard p.name == "PHOTO" else { return false }
            if storedPhoto(p) != nil { return true }
            if case .raw(let r) = p.value { return !r.isEmpty }
            return false
        }
        return detach(&c, source: source ?? -1)
    }

    /// Replaces each PHOTO that holds the contact's photo. The first is the one at `source`
    /// when the caller knows it, else the first whose bytes have the photo's hash; later ones
    /// match by their bytes.
    private static func detach(_ c: inout Contact, source: Int?) -> PhotoData? {
        guard let hash = c.photo?.hash, var props = c.vcardProperties else { return nil }
        var photo: PhotoData?
        for i in props.indices where props[i].name == "PHOTO" {
            guard case .raw = props[i].value, let data = PhotoData.decode(props[i]) else { continue }
            let matches = photo.map { $0.bytes == data.bytes } ?? source.map { $0 == i } ?? (data.hash == hash)
            guard matches else { continue }
            props[i] = storedPhotoProperty(hash: hash, mimeType: data.mimeType, keeping: props[i].parameters)
            photo = photo ?? data
        }
        c.vcardProperties = props
        return photo
    }

    /// A PHOTO whose bytes are in the photo store. Its value is structured text, which a
    /// parsed PHOTO never is, so no card can pass one off as a reference.
    static func storedPhotoProperty(hash: String, mimeType: String, keeping parameters: [VCardParameter] = []) -> VCardProperty {
        let kept = parameters.filter { param in
            guard let name = param.name else { return false }
            switch name {
            case "ENCODING", "VALUE", "MEDIATYPE": return false
            case "TYPE": return !param.values.contains { PhotoData.mimeType(forType: $0.uppercased()) != nil }
            default: return true
            }
        }
        return VCardProperty(name: "PHOTO", parameters: kept, value: .text([[hash], [mimeType]]))
    }

    static func storedPhoto(_ p: VCardProperty) -> (hash: String, mimeType: String)? {
        guard p.name == "PHOTO", case .text(let parts) = p.value, parts.count == 2, let hash = parts[0].first, hash.hasPrefix("sha256:")
        else { return nil }
        return (hash, parts[1].first ?? "application/octet-stream")
    }

    /// The properties with each stored photo's bytes put back inline (`ENCODING=b` with a
    /// TYPE; the 4.0 writer turns that into a data URI). A photo whose bytes cannot be had
    /// is left out.
    public static func attachPhotos(_ props: [VCardProperty], bytes: (String) -> [UInt8]?) -> [VCardProperty] {
        guard props.contains(where: { storedPhoto($0) != nil }) else { return props }
        return props.compactMap { p in
            guard let (hash, mimeType) = storedPhoto(p) else { return p }
            guard let data = bytes(hash) else { return nil }
            var out = p
            out.parameters.append(VCardParameter("ENCODING", ["b"]))
            if let sub = mimeType.split(separator: "/").last, mimeType.hasPrefix("image/") {
                out.parameters.append(VCardParameter("TYPE", [sub.uppercased()]))
            }
            out.value = .raw(Data(data).base64EncodedString())
            return out
        }
    }

    // MARK: Labels

    enum LabelKind { case phone, email, url, address }

    /// Apple and Google put a custom label in `itemN.X-ABLabel` beside the property.
    static func labelsByGroup(_ props: [VCardProperty]) -> [String: String] {
        var out: [String: String] = [:]
        for p in props where p.name == "X-ABLABEL" {
            guard let g = p.group?.lowercased() else { continue }
            out[g] = systemLabel(p.text) ?? clean(p.text)
        }
        return out
    }

    /// `_$!<HomePage>!$_` and friends are Apple's system labels: shown as words.
    static func systemLabel(_ s: String) -> String? {
        guard s.hasPrefix("_$!<"), s.hasSuffix(">!$_") else { return nil }
        let inner = s.dropFirst(4).dropLast(4)
        var words: [String] = []
        var current = ""
        for ch in inner {
            if ch.isUppercase, let last = current.last, last.isLowercase {
                words.append(current)
                current = ""
            }
            current.append(ch)
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }.joined(separator: " ")
    }

    static let ignoredTypes: Set<String> = [
        "VOICE", "INTERNET", "PREF", "X400", "MSG", "POSTAL", "PARCEL", "DOM", "INTL", "TEXT", "X-INTERNET",
    ]

    static func typeLabel(_ types: [String], kind: LabelKind) -> String? {
        var words: [String] = []
        for t in types where !ignoredTypes.contains(t) && !t.isEmpty && Int(t) == nil {
            let w: String
            switch t {
            case "CELL", "MOBILE": w = "mobile"
            case "IPHONE": w = "iPhone"
            default: w = t.hasPrefix("X-") ? String(t.dropFirst(2)).lowercased() : t.lowercased()
            }
            if !words.contains(w) { words.append(w) }
        }
        // "fax" reads after where: "home fax".
        if let i = words.firstIndex(of: "fax"), words.count > 1 {
            words.remove(at: i)
            words.append("fax")
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
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

        func replace(_ names: Set<String>, with new: [VCardProperty]) {
            let removedGroups = Set(props.filter { names.contains($0.name) }.compactMap { $0.group?.lowercased() })
            let at = props.firstIndex { names.contains($0.name) } ?? props.count
            var kept: [VCardProperty] = []
            var insertAt = 0
            for (i, p) in props.enumerated() {
                if i == at { insertAt = kept.count }
                if names.contains(p.name) { continue }
                // A label belongs to the property it labelled.
                if p.name == "X-ABLABEL", let g = p.group?.lowercased(), removedGroups.contains(g) { continue }
                kept.append(p)
            }
            if at >= props.count { insertAt = kept.count }
            kept.insert(contentsOf: new, at: insertAt)
            props = kept
        }

        func labeled(_ name: String, _ values: [LabeledValue], kind: LabelKind) -> [VCardProperty] {
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
            replace(["NICKNAME"], with: c.nickname.map { [VCardProperty(name: "NICKNAME", text: $0)] } ?? [])
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
        if derived.organization != c.organization {
            replace(["ORG"], with: c.organization.map { [VCardProperty(name: "ORG", text: $0)] } ?? [])
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
        if derived.uid != c.uid { replace(["UID"], with: [VCardProperty(name: "UID", value: .raw(c.uid))]) }
        if derived.favorite != c.favorite {
            replace(["X-CONTACTSD-FAVORITE"], with: c.favorite ? [VCardProperty(name: "X-CONTACTSD-FAVORITE", value: .raw("TRUE"))] : [])
        }
        return props
    }

    static func labeledProperty(_ name: String, value: VCardValue, label: String?, kind: LabelKind, nextItem: inout Int) -> [VCardProperty]
    {
        guard let label, !label.isEmpty else { return [VCardProperty(name: name, value: value)] }
        if let types = typesForLabel(label, kind: kind) {
            return [VCardProperty(name: name, parameters: [VCardParameter("TYPE", types)], value: value)]
        }
        let group = "item\(nextItem)"
        nextItem += 1
        return [
            VCardProperty(group: group, name: name, value: value),
            VCardProperty(group: group, name: "X-ABLabel", text: label),
        ]
    }

    /// The TYPE values that say a label, when there are any.
    static func typesForLabel(_ label: String, kind: LabelKind) -> [String]? {
        let words = label.lowercased().split(separator: " ").map(String.init)
        var types: [String] = []
        for w in words {
            switch (w, kind) {
            case ("mobile", .phone), ("cell", .phone): types.append("cell")
            case ("iphone", .phone): types.append("iphone")
            case ("fax", .phone), ("pager", .phone), ("main", .phone), ("voice", .phone), ("text", .phone), ("video", .phone):
                types.append(w)
            case ("home", _), ("work", _), ("other", _): types.append(w)
            default: return nil
            }
        }
        return types.isEmpty ? nil : types
    }
}

/// A photo's bytes as a card carries them: base64 (any 2.1/3.0 spelling) or a data URI.
public struct PhotoData: Sendable, Equatable {
    public var bytes: [UInt8]
    public var mimeType: String
    /// The content address: `sha256:` and the hex digest.
    public var hash: String { "sha256:" + SHA256.hex(bytes) }

    public static func decode(_ p: VCardProperty) -> PhotoData? {
        guard case .raw(let r) = p.value, !r.isEmpty else { return nil }
        var payload = Substring(r)
        var mime: String?
        if r.hasPrefix("data:") {
            // data:image/jpeg;base64,... (some producers escape the comma)
            guard let comma = r.firstIndex(of: ",") else { return nil }
            var head = r[r.index(r.startIndex, offsetBy: 5)..<comma]
            if head.hasSuffix("\\") { head = head.dropLast() }
            guard head.lowercased().hasSuffix(";base64") else { return nil }
            mime = String(head.dropLast(7))
            payload = r[r.index(after: comma)...]
        } else {
            let encoded = p.parameterValues("ENCODING") + p.parameterValues("TYPE")
            let declared = encoded.contains("B") || encoded.contains("BASE64")
            if !declared {
                // Undeclared: only a long run of the base64 alphabet (whitespace aside) counts.
                var letters = 0
                for b in r.utf8 {
                    switch b {
                    case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): letters += 1
                    case 0x20, 0x09, 0x0A, 0x0D: continue
                    default: return nil
                    }
                }
                guard letters > 32 else { return nil }
            }
            mime = p.parameterValues("TYPE").lazy.compactMap(mimeType(forType:)).first ?? p.parameter("MEDIATYPE")
        }
        guard let bytes = Base64.decode(payload.utf8, lenient: true), !bytes.isEmpty else { return nil }
        let declared = mime.flatMap { $0.isEmpty || $0 == "application/octet-stream" ? nil : $0.lowercased() }
        return PhotoData(bytes: bytes, mimeType: declared ?? sniff(bytes))
    }

    static func mimeType(forType t: String) -> String? {
        switch t {
        case "JPEG", "JPG": "image/jpeg"
        case "PNG": "image/png"
        case "GIF": "image/gif"
        case "WEBP": "image/webp"
        case "HEIC": "image/heic"
        case "BMP": "image/bmp"
        default: t.utf8.contains(UInt8(ascii: "/")) ? t.lowercased() : nil
        }
    }

    /// The type from the first bytes, for photos that do not say.
    public static func sniff(_ b: [UInt8]) -> String {
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if b.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if b.count > 12 && b.starts(with: Array("RIFF".utf8)) && Array(b[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        if b.count > 12 && Array(b[4..<8]) == Array("ftyp".utf8) { return "image/heic" }
        return "application/octet-stream"
    }
}
