/// A content line split into its parts, with its value still as bytes.
struct RawProperty {
    var group: String?
    var name: String
    /// The name as written, when it was not upper case.
    var spelling: String?
    var parameters: [VCardParameter]
    /// The bytes after the colon: a slice of the content line's own bytes, not a copy.
    var value: ArraySlice<UInt8>
    var line: Int
    var isNestedCard = false

    var valueUpper: String { String(decoding: value, as: UTF8.self).trimming(" \t").uppercased() }

    static func parse(_ l: LogicalLines.Line) -> RawProperty? {
        l.bytes.withUnsafeBufferPointer { parse($0, line: l.line) { l.bytes[$0...] } }
    }

    @inline(__always) static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    /// `b[range]` without the blanks at either end.
    static func trimmed(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var s = range.lowerBound, e = range.upperBound
        while s < e, isBlank(b[s]) { s += 1 }
        while e > s, isBlank(b[e - 1]) { e -= 1 }
        return s..<e
    }

    /// The property of a content line `b`; `value` gives the line's bytes from an index on.
    private static func parse(_ b: UnsafeBufferPointer<UInt8>, line: Int, value: (Int) -> ArraySlice<UInt8>) -> RawProperty? {
        // The name (with an optional group) runs to the first ';' or ':'.
        var i = 0
        while i < b.count, b[i] != UInt8(ascii: ";"), b[i] != UInt8(ascii: ":") { i += 1 }
        guard i < b.count, i > 0 else { return nil }
        let full = trimmed(b, 0..<i)
        var nameStart = full.lowerBound
        var group: String?
        var k = full.upperBound
        while k > full.lowerBound {
            k -= 1
            if b[k] == UInt8(ascii: ".") {
                group = String(decoding: UnsafeBufferPointer(rebasing: b[full.lowerBound..<k]), as: UTF8.self)
                nameStart = k + 1
                break
            }
        }
        guard nameStart < full.upperBound else { return nil }
        for k in nameStart..<full.upperBound {
            let c = b[k]
            guard VCardParser.isLetter(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") else {
                return nil
            }
        }
        let name = asciiUppercased(b, nameStart..<full.upperBound)
        let spelling = spelling(b, nameStart..<full.upperBound)
        var params: [VCardParameter] = []
        while i < b.count, b[i] == UInt8(ascii: ";") {
            i += 1
            var j = i
            var quoted = false
            while j < b.count {
                let c = b[j]
                if c == UInt8(ascii: "\"") { quoted.toggle() }
                if !quoted && (c == UInt8(ascii: ";") || c == UInt8(ascii: ":")) { break }
                j += 1
            }
            if j >= b.count { return nil }  // no ':' at all
            if !trimmed(b, i..<j).isEmpty { params.append(parameter(b, i..<j)) }
            i = j
        }
        guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
        return RawProperty(group: group, name: name, spelling: spelling, parameters: params, value: value(i + 1), line: line)
    }

    /// The bytes as a string when they are not all upper case, nil when they are (as nearly
    /// every name is, so nothing is made for those).
    static func spelling(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        for k in range where b[k] >= 0x61 {
            if b[k] <= 0x7A || b[k] >= 0x80 { return String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self) }
        }
        return nil
    }

    /// The bytes as a string with ASCII letters upper-cased (anything else as `uppercased()` does).
    static func asciiUppercased(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var hasLower = false
        for k in range {
            let c = b[k]
            if c >= 0x80 { return String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self).uppercased() }
            if c >= 0x61 && c <= 0x7A { hasLower = true }
        }
        let slice = UnsafeBufferPointer(rebasing: b[range])
        guard hasLower else { return String(decoding: slice, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: slice.count) { out in
            for k in 0..<slice.count { out[k] = LogicalLines.upper(slice[k]) }
            return slice.count
        }
    }

    /// One parameter from the bytes between its ';' and the next: `NAME=v1,"v,2"`, or a bare value.
    static func parameter(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> VCardParameter {
        var eq = range.lowerBound
        while eq < range.upperBound, b[eq] != UInt8(ascii: "=") { eq += 1 }
        guard eq < range.upperBound else {
            return VCardParameter(
                uppercasedName: nil, [String(decoding: UnsafeBufferPointer(rebasing: b[trimmed(b, range)]), as: UTF8.self)])
        }
        let nameRange = trimmed(b, range.lowerBound..<eq)
        let name = asciiUppercased(b, nameRange)
        let spelling = spelling(b, nameRange)
        var values: [String] = []
        var current: [UInt8] = []
        var quoted = false
        var k = eq + 1
        while k < range.upperBound {
            let c = b[k]
            k += 1
            if c == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if c == UInt8(ascii: ",") && !quoted {
                values.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else if c == UInt8(ascii: "^") && k < range.upperBound {
                // RFC 6868: ^n newline, ^^ caret, ^' double quote.
                switch b[k] {
                case UInt8(ascii: "n"), UInt8(ascii: "N"): current.append(0x0A); k += 1
                case UInt8(ascii: "^"): current.append(UInt8(ascii: "^")); k += 1
                case UInt8(ascii: "'"): current.append(UInt8(ascii: "\"")); k += 1
                default: current.append(c)
                }
            } else {
                current.append(c)
            }
        }
        values.append(String(decoding: current, as: UTF8.self))
        return VCardParameter(uppercasedName: name, spelling: spelling, values)
    }

    /// Whether `s` is `upper` in any ASCII case.
    static func equalsIgnoringCase(_ s: String, _ upper: StaticString) -> Bool {
        let u = UnsafeBufferPointer(start: upper.utf8Start, count: upper.utf8CodeUnitCount)
        guard s.utf8.count == u.count else { return false }
        var k = 0
        for c in s.utf8 {
            guard LogicalLines.upper(c) == u[k] else { return false }
            k += 1
        }
        return true
    }

    var isQuotedPrintable: Bool {
        parameters.contains { p in
            (p.name == "ENCODING" || p.name == nil) && p.values.contains { Self.equalsIgnoringCase($0, "QUOTED-PRINTABLE") }
        }
    }

    var isBase64: Bool {
        parameters.contains { p in
            (p.name == "ENCODING" && p.values.contains { Self.equalsIgnoringCase($0, "B") || Self.equalsIgnoringCase($0, "BASE64") })
                || (p.name == nil && p.values.contains { Self.equalsIgnoringCase($0, "BASE64") })
        }
    }

    /// Properties whose value is not text: binary data or a URI, kept as written.
    static func isRawName(_ name: String) -> Bool {
        switch name {
        case "PHOTO", "LOGO", "SOUND", "KEY", "URL", "SOURCE", "MEMBER", "FBURL", "CALURI", "CALADRURI", "IMPP", "AGENT": true
        default: false
        }
    }

    /// Properties whose 2.1 values are comma lists too.
    static func isListName(_ name: String) -> Bool { name == "CATEGORIES" || name == "NICKNAME" }

    /// The property decoded; its value is taken, not copied: it is read once.
    mutating func decode(v21: Bool, v4: Bool) -> VCardProperty {
        var bytes = value
        value = []
        var kept = parameters
        var base64 = false
        var valueType: String?
        var charset: String?
        if !parameters.isEmpty {
            if isQuotedPrintable { bytes = ArraySlice(TextDecoding.quotedPrintable(Array(bytes))) }
            charset = parameters.first { $0.name == "CHARSET" }?.values.first
            base64 = isBase64
            // Parameters that only described the transfer encoding are dropped: the value is
            // now plain UTF-8 text.
            kept = parameters.filter { p in
                if p.name == "CHARSET" { return false }
                if p.name == "ENCODING" || p.name == nil {
                    return !p.values.contains { Self.equalsIgnoringCase($0, "QUOTED-PRINTABLE") || Self.equalsIgnoringCase($0, "8BIT") }
                }
                return true
            }
            valueType = parameters.first { $0.name == "VALUE" }?.values.first
        }
        let rawByType =
            isNestedCard || base64 || Self.isRawName(name)
            || valueType.map {
                Self.equalsIgnoringCase($0, "URI") || Self.equalsIgnoringCase($0, "URL") || Self.equalsIgnoringCase($0, "BINARY")
            } == true
        let splitLists = !v21 || Self.isListName(name)
        // Most values are text in UTF-8: split and unescaped from their bytes, with no string
        // of the whole value made first.
        if !rawByType, charset == nil, !bytes.starts(with: "data:".utf8),
            let parts = bytes.withUnsafeBufferPointer({ u in
                UTF8Check.isValid(u) ? TextEscaping.split(u, v21: v21, splitLists: splitLists) : nil
            })
        {
            return VCardProperty(uppercasedName: name, spelling: spelling, group: group, parameters: kept, value: .text(parts), line: line)
        }
        let text = TextDecoding.string(Array(bytes), charset: charset, legacy: v21)
        let dataURI = text.utf8.starts(with: "data:".utf8)
        let raw = rawByType || dataURI
        let decoded: VCardValue
        if raw {
            let trimmed = base64 ? TextDecoding.removingWhitespace(text) : text
            // Google escapes ':' and ',' in URLs; nothing else should be touched.
            decoded = .raw(base64 || dataURI ? trimmed : TextEscaping.unescapeURI(trimmed))
        } else {
            decoded = .text(TextEscaping.split(text, v21: v21, splitLists: splitLists))
        }
        return VCardProperty(uppercasedName: name, spelling: spelling, group: group, parameters: kept, value: decoded, line: line)
    }
}
