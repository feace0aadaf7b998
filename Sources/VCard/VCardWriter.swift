/// Writes vCard 3.0 or 4.0: CRLF line ends, lines folded at 75 octets without splitting a
/// UTF-8 sequence, parameters and values converted to the target version's rules.
public enum VCardWriter {
    public enum Version: String, Sendable {
        case v3 = "3.0"
        case v4 = "4.0"
    }

    public static func write(_ cards: [VCard], version: Version) -> String {
        var out = ""
        for c in cards { write(c, version: version, into: &out) }
        return out
    }

    public static func write(_ card: VCard, version: Version, into out: inout String) {
        appendFolded("BEGIN:VCARD", to: &out)
        appendFolded("VERSION:\(version.rawValue)", to: &out)
        for p in card.properties where p.name != "VERSION" && p.name != "BEGIN" && p.name != "END" {
            appendFolded(line(for: p, version: version), to: &out)
        }
        appendFolded("END:VCARD", to: &out)
    }

    /// Whether two lists of properties say the same once written in `version` (spellings of
    /// parameters and encodings that version writes alike are alike), property by property,
    /// stopping at the first that differs; no card is assembled.
    public static func sameLines(_ a: [VCardProperty], _ b: [VCardProperty], version: Version) -> Bool {
        let skipped: Set<String> = ["VERSION", "BEGIN", "END"]
        var i = a.startIndex, j = b.startIndex
        while true {
            while i < a.endIndex, skipped.contains(a[i].name) { i += 1 }
            while j < b.endIndex, skipped.contains(b[j].name) { j += 1 }
            guard i < a.endIndex, j < b.endIndex else { return i == a.endIndex && j == b.endIndex }
            if !a[i].sameValue(as: b[j]) && line(for: a[i], version: version) != line(for: b[j], version: version) { return false }
            i += 1
            j += 1
        }
    }

    static func line(for original: VCardProperty, version: Version) -> String {
        var p = original
        var params: [VCardParameter] = []
        var isBase64 = false
        var mediaType: String?
        for param in p.parameters {
            guard let name = param.name else {
                let v = param.values.joined(separator: ",")
                if v.uppercased() == "BASE64" || v.uppercased() == "B" {
                    isBase64 = true
                } else {
                    params.append(VCardParameter("TYPE", [v.lowercased()]))
                }
                continue
            }
            if name == "ENCODING" {
                if param.values.contains(where: { ["B", "BASE64"].contains($0.uppercased()) }) { isBase64 = true }
                continue
            }
            params.append(param)
        }
        if isBase64, case .raw = p.value {
            // Binary data: typed by TYPE=JPEG (3.0) or a MIME type; written as ENCODING=b or a data URI.
            if let i = params.firstIndex(where: { $0.name == "TYPE" && $0.values.count == 1 && imageType($0.values[0]) != nil }) {
                mediaType = imageType(params[i].values[0])
                if version == .v4 { params.remove(at: i) }
            }
            if version == .v3 {
                params.append(VCardParameter("ENCODING", ["b"]))
            } else {
                let data = TextDecoding.removingWhitespace(p.value.joined)
                p.value = .raw("data:\(mediaType ?? sniffedType(data) ?? "application/octet-stream");base64,\(data)")
            }
        } else if version == .v3, case .raw(let r) = p.value, r.hasPrefix("data:"), let comma = r.firstIndex(of: ","),
            r[..<comma].hasSuffix(";base64")
        {
            let mime = String(r[r.index(r.startIndex, offsetBy: 5)..<comma].dropLast(7))
            params.append(VCardParameter("ENCODING", ["b"]))
            if let sub = mime.split(separator: "/").last, !sub.isEmpty { params.append(VCardParameter("TYPE", [sub.uppercased()])) }
            p.value = .raw(String(r[r.index(after: comma)...]))
        }
        var s = ""
        if let g = p.group { s += g + "." }
        s += p.writtenName
        for param in params {
            s +=
                ";" + (param.writtenName ?? "TYPE") + "=" + param.values.map { parameterValue($0, version: version) }.joined(separator: ",")
        }
        s += ":"
        switch p.value {
        case .raw(let r): s += r.replacingNewlines()
        case .text(let components):
            for (i, component) in components.enumerated() {
                if i > 0 { s += ";" }
                for (j, value) in component.enumerated() {
                    if j > 0 { s += "," }
                    s += TextEscaping.escape(value)
                }
            }
        }
        return s
    }

    /// The image type from the first base64 characters, for photos that do not say.
    static func sniffedType(_ base64: String) -> String? {
        if base64.hasPrefix("/9j/") { return "image/jpeg" }
        if base64.hasPrefix("iVBOR") { return "image/png" }
        if base64.hasPrefix("R0lGOD") { return "image/gif" }
        if base64.hasPrefix("UklGR") { return "image/webp" }
        return nil
    }

    static func imageType(_ v: String) -> String? {
        let u = v.uppercased()
        if u.utf8.contains(UInt8(ascii: "/")) { return v.lowercased() }
        switch u {
        case "JPEG", "JPG": return "image/jpeg"
        case "PNG": return "image/png"
        case "GIF": return "image/gif"
        case "WEBP": return "image/webp"
        case "HEIC": return "image/heic"
        case "BMP": return "image/bmp"
        case "TIFF": return "image/tiff"
        default: return nil
        }
    }

    static func parameterValue(_ v: String, version: Version) -> String {
        // RFC 6868 updates both 3.0 (RFC 2426) and 4.0 (RFC 6350).
        let value = v.replacingAll("^", "^^").replacingAll("\r\n", "^n").replacingAll("\n", "^n").replacingAll("\"", "^'")
        if value.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") }) {
            return "\"\(value)\""
        }
        return value
    }

    /// Appends a content line folded at 75 octets, never inside a UTF-8 sequence.
    static func appendFolded(_ line: String, to out: inout String) {
        if line.utf8.count <= 75 {
            out += line
            out += "\r\n"
            return
        }
        let bytes = Array(line.utf8)
        var start = 0
        var limit = 75
        var first = true
        while start < bytes.count {
            var end = min(start + limit, bytes.count)
            // Back off to a character boundary: continuation bytes are 10xxxxxx.
            while end < bytes.count && end > start && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if !first { out += " " }
            out += String(decoding: bytes[start..<end], as: UTF8.self)
            out += "\r\n"
            start = end
            first = false
            limit = 74
        }
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        // A byte test first: most values hold nothing to replace.
        guard let first = target.utf8.first, utf8.contains(first) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    func replacingNewlines() -> String {
        // A byte test first: most values (photos, URLs) hold no line end.
        guard utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return self }
        var out = ""
        for c in self {
            if c == "\r\n" || c == "\n" { out += "\\n" } else if c != "\r" { out.append(c) }
        }
        return out
    }
}
