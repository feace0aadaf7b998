/// vCard text escaping: `\n`, `\,`, `\;`, `\\` (3.0 and 4.0); only `\;` in 2.1.
public enum TextEscaping {
    /// Splits a value into components (on unescaped `;`) and items (on unescaped `,`) and
    /// unescapes them. An unknown escape such as `\x` is kept as it was.
    static func split(_ s: String, v21: Bool, splitLists: Bool) -> [[String]] {
        // Every character that matters is ASCII: the UTF-8 bytes are split, never inside a
        // character, and most values have nothing to split or unescape.
        var text = s
        return text.withUTF8 { u in
            guard needsSplit(u, splitLists: splitLists) else { return [[s]] }
            return split(u, v21: v21, splitLists: splitLists)
        }
    }

    /// Whether a value holds anything to split on or unescape.
    private static func needsSplit(_ u: UnsafeBufferPointer<UInt8>, splitLists: Bool) -> Bool {
        u.contains { $0 == 0x5C || $0 == 0x3B || ($0 == 0x2C && splitLists) }
    }

    static func split(_ u: UnsafeBufferPointer<UInt8>, v21: Bool, splitLists: Bool) -> [[String]] {
        guard needsSplit(u, splitLists: splitLists) else { return [[String(decoding: u, as: UTF8.self)]] }
        var components: [[String]] = []
        var items: [String] = []
        var current: [UInt8] = []
        current.reserveCapacity(u.count)
        func handle(_ c: UInt8) {
            if c == UInt8(ascii: ";") {
                items.append(String(decoding: current, as: UTF8.self))
                components.append(items)
                items = []
                current.removeAll(keepingCapacity: true)
            } else if c == UInt8(ascii: ",") && splitLists {
                items.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(c)
            }
        }
        var i = 0
        while i < u.count {
            let c = u[i]
            i += 1
            guard c == UInt8(ascii: "\\") else {
                handle(c)
                continue
            }
            guard i < u.count else {
                current.append(c)
                break
            }
            let n = u[i]
            i += 1
            if v21 {
                // 2.1 escapes only the semicolon; a backslash is otherwise itself.
                if n == UInt8(ascii: ";") {
                    current.append(n)
                } else {
                    current.append(c)
                    handle(n)
                }
                continue
            }
            switch n {
            case UInt8(ascii: "n"), UInt8(ascii: "N"): current.append(0x0A)
            case UInt8(ascii: "\\"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\""): current.append(n)
            case UInt8(ascii: "t"): current.append(0x09)
            default:
                current.append(c)
                current.append(n)
            }
        }
        items.append(String(decoding: current, as: UTF8.self))
        components.append(items)
        return components
    }

    /// Google writes `https\://`: drop backslashes before `:`, `,` and `;` in URIs.
    static func unescapeURI(_ s: String) -> String {
        guard s.utf8.contains(UInt8(ascii: "\\")) else { return s }
        var out = ""
        var it = s.makeIterator()
        while let c = it.next() {
            if c == "\\" {
                if let n = it.next() {
                    if n == ":" || n == "," || n == ";" { out.append(n) } else { out.append(c); out.append(n) }
                } else {
                    out.append(c)
                }
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// Escapes one item of a text value for 3.0 and 4.0.
    public static func escape(_ s: String) -> String {
        // A byte test first: most values hold nothing to escape.
        guard s.utf8.contains(where: { $0 == 0x5C || $0 == 0x2C || $0 == 0x3B || $0 == 0x0A || $0 == 0x0D }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n": out += "\\n"
            case "\r": continue
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
