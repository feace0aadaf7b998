import ContactsSupport
import Foundation
import VCard

/// Labels of phones, emails, URLs and addresses: read from TYPE parameters and Apple's
/// `X-ABLabel`, written back the same two ways.
extension VCardMapping {

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
        let innerBytes = s.utf8.dropFirst(4).dropLast(4)
        // Apple's own are ASCII, split where a capital follows a small letter, byte by byte.
        if innerBytes.allSatisfy({ $0 < 0x80 }) {
            var out: [UInt8] = []
            out.reserveCapacity(innerBytes.count + 2)
            var previous: UInt8 = 0
            for b in innerBytes {
                let upper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
                if upper && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(previous) { out.append(UInt8(ascii: " ")) }
                out.append(upper ? b + 32 : b)
                previous = b
            }
            return String(decoding: out, as: UTF8.self)
        }
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

    static func typeLabel(_ types: [String], kind: ValueKind) -> String? {
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

    static func labeledProperty(_ name: String, value: VCardValue, label: String?, kind: ValueKind, nextItem: inout Int) -> [VCardProperty]
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
    static func typesForLabel(_ label: String, kind: ValueKind) -> [String]? {
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
