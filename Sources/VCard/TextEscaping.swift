/// vCard text escaping: `\n`, `\,`, `\;`, `\\` (3.0 and 4.0); only `\;` in 2.1.
public enum TextEscaping {
    /// Splits a value into components (on unescaped `;`) and items (on unescaped `,`) and
    /// unescapes them. An unknown escape such as `\x` is kept as it was.
    static func split(_ s: String, v21: Bool, splitLists: Bool) -> [[String]] {
        var components: [[String]] = []
        var items: [String] = []
        var current = ""
        func handle(_ c: Unicode.Scalar) {
            if c == ";" {
                items.append(current)
                components.append(items)
                items = []
                current = ""
            } else if c == "," && splitLists {
                items.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(c)
            }
        }
        var it = s.unicodeScalars.makeIterator()
        while let c = it.next() {
            guard c == "\\" else {
                handle(c)
                continue
            }
            guard let n = it.next() else {
                current.unicodeScalars.append(c)
                break
            }
            if v21 {
                // 2.1 escapes only the semicolon; a backslash is otherwise itself.
                if n == ";" {
                    current.unicodeScalars.append(n)
                } else {
                    current.unicodeScalars.append(c)
                    handle(n)
                }
                continue
            }
            switch n {
            case "n", "N": current.append("\n")
            case "\\", ",", ";", ":", "\"": current.unicodeScalars.append(n)
            case "t": current.append("\t")
            default:
                current.unicodeScalars.append(c)
                current.unicodeScalars.append(n)
            }
        }
        items.append(current)
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
