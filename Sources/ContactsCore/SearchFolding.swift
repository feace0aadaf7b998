import ContactsSupport
import Foundation
import PhoneNumbers

/// Text normalisation for search and sorting.
///
/// Folding is case-, accent- and script-insensitive: "Zoë Ångström" becomes "zoe angstrom",
/// "Łukasz" "lukasz", "张三丰" "zhang san feng". It runs when a contact is written, never per
/// comparison. It reads as the transliterator "Any-Latin; Latin-ASCII; Lower" reads, but Latin,
/// Cyrillic, Han and Hangul, which are most names, are read from tables made with it
/// (`FoldTables`): the transliterator is slow (~20 µs a string) and, once loaded, keeps some
/// 7 MiB of the process resident. Other scripts go through it a word at a time, remembered.
public enum SearchFolding {
    private static let transform = StringTransform("Any-Latin; Latin-ASCII; Lower")
    private static let cache = FoldCache()

    /// How many words the transliterator has read and the memo keeps.
    static var transliteratedWords: Int { cache.count }

    /// The folded form: transliterated to ASCII where possible, lower case, runs of white
    /// space as one space, trimmed.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return collapseASCII(text) }
        if let latin = foldLatin(text) { return latin }
        // Other scripts a word at a time: a word of one table's script reads from it, and the
        // transliterator's readings of the rest are remembered (words repeat far more than
        // whole names do).
        var words: [String] = []
        for word in text.unicodeScalars.split(whereSeparator: { $0.value < 0x80 ? $0.value <= 0x20 : $0.properties.isWhitespace }) {
            let w = String(word)
            if let folded = foldLatin(w) ?? foldTabled(w) ?? cache.get(w) {
                words.append(folded)
            } else {
                let transliterated = w.applyingTransform(transform, reverse: false) ?? w.lowercased()
                let folded = collapse(transliterated.lowercased())
                cache.put(w, folded)
                words.append(folded)
            }
        }
        return collapse(words.joined(separator: " "))
    }

    /// Latin letters fold one scalar at a time; nil when the text has anything beyond Latin
    /// Extended-B but Latin Extended Additional and combining accents.
    private static func foldLatin(_ text: String) -> String? {
        let table = latinTable
        let additional = latinExtendedAdditionalTable
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for u in text.unicodeScalars {
            let v = Int(u.value)
            let space =
                v < 0x80
                ? (v <= 0x20 || v == 0x7F)
                : v < table.count ? table[v].isSpace : (u.properties.isWhitespace || u.properties.generalCategory == .control)
            if space {
                pendingSpace = !out.isEmpty
                continue
            }
            if (0x300...0x36F).contains(v) { continue }  // combining accents
            guard v < table.count || (0x1E00..<0x1F00).contains(v) else { return nil }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            if v < 0x80 {
                out.append(UInt8(v >= 0x41 && v <= 0x5A ? v + 32 : v))
            } else if v < table.count {
                out.append(contentsOf: table[v].folded)
            } else {
                out.append(contentsOf: additional[v - 0x1E00])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// For each scalar below U+0250: its folded form as UTF-8, and whether it is white space
    /// or a control character.
    private static let latinTable: [(folded: [UInt8], isSpace: Bool)] = (0..<0x250).map { v in
        guard v >= 0x80, let u = Unicode.Scalar(v) else { return ([], false) }
        return (Array(FoldTables.latin[v - 0x80].utf8), u.properties.isWhitespace || u.properties.generalCategory == .control)
    }

    /// The folded forms of U+1E00 to U+1EFF (none is white space), as UTF-8.
    private static let latinExtendedAdditionalTable: [[UInt8]] = FoldTables.latinExtendedAdditional.map { Array($0.utf8) }

    /// Lower case with white space collapsed, without transliteration: what CJK queries match.
    public static func lowercaseCollapsed(_ text: String) -> String { collapse(text.lowercased()) }

    /// The digits of a phone number, formatting dropped ("+86 138-0013" → "861380013").
    public static func phoneDigits(_ text: String) -> String { PhoneDigits.of(text) }

    /// True for text a person would type as a phone number: digits and `+ - ( ) . /` and spaces.
    public static func looksLikePhone(_ text: String) -> Bool {
        var digits = 0
        for u in text.unicodeScalars {
            if u.properties.numericType == .decimal {
                digits += 1
            } else if !" +-().\u{A0}/".unicodeScalars.contains(u) {
                return false
            }
        }
        return digits > 0
    }

    /// True when the text has Han, kana or Hangul, which are matched untransliterated.
    public static func containsCJK(_ text: String) -> Bool {
        text.unicodeScalars.contains { u in
            switch u.value {
            case 0x3040...0x30FF, 0x3100...0x312F, 0x31A0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF,
                0x1100...0x11FF, 0x3130...0x318F, 0xF900...0xFAFF, 0x20000...0x2FA1F:
                true
            default: false
            }
        }
    }

    /// The key that orders names naturally: folded, leading punctuation dropped, and each run
    /// of digits prefixed by its length so that "Item 2" sorts before "Item 10".
    public static func sortKey(_ name: String) -> String { sortKey(folded: fold(name)) }

    /// The sort key of text already folded with `fold`.
    public static func sortKey(folded: String) -> String {
        if folded.utf8.allSatisfy({ $0 < 0x80 }) { return asciiSortKey(folded) }
        var scalars = Array(folded.unicodeScalars)
        if let firstAlnum = scalars.firstIndex(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
            scalars.removeFirst(firstAlnum)
        }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let u = scalars[i]
            if u.value >= 0x30 && u.value <= 0x39 {
                var j = i
                while j < scalars.count, scalars[j].value >= 0x30 && scalars[j].value <= 0x39 { j += 1 }
                var run = scalars[i..<j].drop { $0 == "0" }
                if run.isEmpty { run = scalars[(j - 1)..<j] }
                let length = min(run.count, 99)
                out.append(contentsOf: (length < 10 ? "0\(length)" : "\(length)").unicodeScalars)
                out.append(contentsOf: run.prefix(99))
                i = j
            } else {
                out.append(u)
                i += 1
            }
        }
        return String(out)
    }

    /// `sortKey(folded:)` of ASCII text, over its bytes: there the letters are what is
    /// alphabetic and the digits what is numeric.
    private static func asciiSortKey(_ folded: String) -> String {
        var text = folded
        return text.withUTF8 { b in
            func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
            func isAlphanumeric(_ c: UInt8) -> Bool { isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A) }
            var out: [UInt8] = []
            out.reserveCapacity(b.count + 8)
            var i = b.firstIndex(where: isAlphanumeric) ?? 0
            while i < b.count {
                guard isDigit(b[i]) else {
                    out.append(b[i])
                    i += 1
                    continue
                }
                var end = i
                while end < b.count, isDigit(b[end]) { end += 1 }
                var start = i
                while start < end - 1, b[start] == 0x30 { start += 1 }  // leading zeros, one kept
                let length = min(end - start, 99)
                out.append(0x30 + UInt8(length / 10))
                out.append(0x30 + UInt8(length % 10))
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<min(end, start + 99)]))
                i = end
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    private static func collapseASCII(_ text: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for b in text.utf8 {
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(b >= 0x41 && b <= 0x5A ? b + 32 : b)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func collapse(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for u in text.unicodeScalars {
            // ASCII without the Unicode tables: a space or a control.
            let space =
                u.value < 0x80
                ? (u.value <= 0x20 || u.value == 0x7F) : (u.properties.isWhitespace || u.properties.generalCategory == .control)
            if space {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            out.append(u)
        }
        return String(out)
    }
}

/// A bounded, thread-safe memo of folded strings. Names repeat a lot across an address book.
final class FoldCache: Sendable {
    private let table = Locked<[String: String]>([:])
    private let capacity = 50_000

    func get(_ key: String) -> String? { table.withLock { $0[key] } }

    var count: Int { table.withLock { $0.count } }

    func put(_ key: String, _ value: String) {
        table.withLock { t in
            if t.count >= capacity { t.removeAll(keepingCapacity: true) }
            t[key] = value
        }
    }
}

/// What a contact offers to substring search, and how a query is matched against it.
public enum SearchDocument {
    /// Lines of searchable text for a contact: folded name, nickname, organisation and
    /// emails; the untransliterated text of CJK fields; phone numbers as bare digits and, when
    /// they parse, in E.164 (`phoneKeys`, one per phone, when the caller has them already).
    public static func text(for contact: Contact, phoneKeys: [PhoneKeys]? = nil) -> String {
        var out = ""
        out.reserveCapacity(160)
        var first = true
        func line(_ s: String) {
            if !first { out.append("\n") }
            first = false
            out.append(s)
        }
        func add(_ s: String?, folded: String? = nil) {
            guard let s, !s.isEmpty else { return }
            line(folded ?? SearchFolding.fold(s))
            if !s.utf8.allSatisfy({ $0 < 0x80 }), SearchFolding.containsCJK(s) { line(SearchFolding.lowercaseCollapsed(s)) }
        }
        // The name is folded once: its line, and the test of the structured name against it.
        let foldedName = SearchFolding.fold(contact.name)
        add(contact.name, folded: foldedName)
        add(contact.nickname)
        add(contact.organization)
        if let n = contact.structuredName {
            let joined = [n.given, n.additional, n.family].filter { !$0.isEmpty }.joined(separator: " ")
            if joined != contact.name {
                let foldedJoined = SearchFolding.fold(joined)
                if foldedJoined != foldedName { add(joined, folded: foldedJoined) }
            }
        }
        for e in contact.emails { add(e.value) }
        for f in DeclaredField.all where f.searched {
            for t in f.searchTexts(contact) { add(t) }
        }
        let keys = phoneKeys ?? contact.phoneKeys()
        for (p, k) in zip(contact.phones, keys) {
            let d = SearchFolding.phoneDigits(p.value)
            if !d.isEmpty { line(d) }
            if needsNumberLine(digits: d, k), let e164 = k.e164 { line(e164) }
        }
        return out
    }

    /// Whether a phone's search text needs its E.164 form as a line of its own: only when its
    /// digits do not hold its national number (an Argentine mobile written with its 15, a
    /// number with a carrier code). Otherwise a query for the number in any form finds it by
    /// the national number a whole number's query looks for too (`patterns`).
    static func needsNumberLine(digits: String, _ k: PhoneKeys) -> Bool {
        guard let national = k.national, k.e164 != nil else { return false }
        return !digits.contains(national)
    }

    /// Whether keys read since (`keys`, one for each of `phones`) change the search text made
    /// with digits only.
    public static func numbersChangeText(of phones: [LabeledValue], _ keys: [PhoneKeys]) -> Bool {
        zip(phones, keys).contains { p, k in needsNumberLine(digits: SearchFolding.phoneDigits(p.value), k) }
    }

    /// The substrings that a query looks for; a contact matches when any one occurs in its text.
    public static func patterns(for query: String) -> [String] {
        var out: [String] = []
        let trimmed = query.trimmingWhitespace()
        guard !trimmed.isEmpty else { return [] }
        if SearchFolding.containsCJK(trimmed) {
            out.append(SearchFolding.lowercaseCollapsed(trimmed))
        } else {
            out.append(SearchFolding.fold(trimmed))
        }
        if SearchFolding.looksLikePhone(trimmed) {
            let d = SearchFolding.phoneDigits(trimmed)
            if !d.isEmpty && !out.contains(d) { out.append(d) }
            // A whole number finds the same number written another way: by its E.164 form,
            // and by its national number (in the digits of one written without country code).
            if let n = PhoneNumber.parse(trimmed, region: PhoneRegion.current) {
                for p in [n.e164, n.national] where !out.contains(p) { out.append(p) }
            }
        }
        return out.filter { !$0.isEmpty }
    }
}
