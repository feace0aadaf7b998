// Writes Sources/ContactsCore/FoldTables.swift: what the transliterator "Any-Latin;
// Latin-ASCII; Lower" makes of Latin letters, Cyrillic, Han characters and Hangul syllables,
// so that folding these needs no transliterator. Every table is checked here against the
// transliterator reading whole words, and the program stops when a rule it relies on does
// not hold. Run it with scripts/make-fold-tables.sh.
import Foundation

let transform = StringTransform("Any-Latin; Latin-ASCII; Lower")

func transliterated(_ text: String) -> String {
    let latin = (text.applyingTransform(transform, reverse: false) ?? text).lowercased()
    // Runs of white space and control characters as one space, trimmed, as folding does.
    let words = latin.unicodeScalars.split { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    return words.map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
}

func scalar(_ v: Int) -> String { String(Unicode.Scalar(UInt32(v)).map(Character.init) ?? " ") }

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard condition else {
        FileHandle.standardError.write(Data("fold-tables: \(message())\n".utf8))
        exit(1)
    }
}

/// A Swift string literal of `text`, with the escapes it needs.
func literal(_ text: String) -> String {
    var out = "\""
    for u in text.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        default:
            if u.value < 0x20 || u.value == 0x7F || u.properties.generalCategory == .nonspacingMark
                || u.properties.generalCategory == .format
            {
                out += "\\u{\(String(u.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}

/// `[String]` of the entries, a few to a line.
func stringArray(_ name: String, _ doc: String, _ entries: [String]) -> String {
    var lines: [String] = []
    var line = ""
    for e in entries.map(literal) {
        if line.count + e.count + 2 > 124 {
            lines.append(line)
            line = ""
        }
        line += (line.isEmpty ? "" : " ") + e + ","
    }
    if !line.isEmpty { lines.append(line) }
    return "    /// \(doc)\n    static let \(name): [String] = [\n" + lines.map { "        " + $0 }.joined(separator: "\n") + "\n    ]\n"
}

/// A StaticString of ASCII text written over lines whose breaks are escaped.
func staticText(_ name: String, _ doc: String, _ text: String) -> String {
    let bytes = Array(text.utf8)
    var lines: [String] = []
    var i = 0
    while i < bytes.count {
        let end = min(i + 120, bytes.count)
        lines.append("        " + String(decoding: bytes[i..<end], as: UTF8.self) + (end < bytes.count ? "\\" : ""))
        i = end
    }
    return "    /// \(doc)\n    static let \(name): StaticString = \"\"\"\n" + lines.joined(separator: "\n") + "\n        \"\"\"\n"
}

// Latin: each scalar from U+0080 to U+024F and from U+1E00 to U+1EFF alone, as the
// transliterator gives it (white space it puts around one is kept: "¼" reads " 1/4").
func latinReading(_ v: Int) -> String { (scalar(v).applyingTransform(transform, reverse: false) ?? scalar(v)).lowercased() }
let latin = (0x80..<0x250).map(latinReading)
let latinExtendedAdditional = (0x1E00..<0x1F00).map(latinReading)

// Cyrillic, U+0400 to U+04FF, but for the combining marks U+0483 to U+0489 (dropped when
// folding): a word of these reads as its letters read alone.
let cyrillicRange = 0x400..<0x500
let cyrillic = cyrillicRange.map { v in (0x483...0x489).contains(v) ? "" : transliterated(scalar(v)) }
for a in cyrillicRange where !(0x483...0x489).contains(a) {
    for b in cyrillicRange where !(0x483...0x489).contains(b) {
        let whole = transliterated(scalar(a) + scalar(b))
        require(whole == cyrillic[a - 0x400] + cyrillic[b - 0x400], "Cyrillic U+\(String(a, radix: 16)) U+\(String(b, radix: 16))")
    }
}

// Han, U+4E00 to U+9FFF: a syllable a character, the syllables of a word apart by a space.
let hanRange = 0x4E00..<0xA000
let hanReadings = hanRange.map { v in transliterated(scalar(v)) }
for r in hanReadings { require(!r.isEmpty && !r.contains(" "), "a Han reading with a space: \(r)") }
var syllables: [String] = []
var syllableIndex: [String: Int] = [:]
for r in Set(hanReadings).sorted() {
    syllableIndex[r] = syllables.count
    syllables.append(r)
}
let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/")
require(syllables.count <= digits.count * digits.count, "\(syllables.count) Han syllables")
let hanIndex = String(
    hanReadings.flatMap { r -> [Character] in
        let k = syllableIndex[r] ?? 0
        return [digits[k / digits.count], digits[k % digits.count]]
    })
var generator = SystemRandomNumberGenerator()
for _ in 0..<20_000 {
    let word = (0..<Int.random(in: 2...4, using: &generator)).map { _ in Int.random(in: hanRange, using: &generator) }
    let joined = word.map { hanReadings[$0 - 0x4E00] }.joined(separator: " ")
    require(transliterated(word.map(scalar).joined()) == joined, "Han word \(word)")
}

// Hangul syllables, U+AC00 to U+D7A3: each the reading of its initial, vowel and final; a
// hyphen between two where the reading would be ambiguous, by the first one's final and the
// second one's initial, and where the first has no final and the second starts with a vowel
// (initial ieung), by the two vowels.
func hangul(_ initial: Int, _ vowel: Int, _ final: Int) -> String { scalar(0xAC00 + (initial * 21 + vowel) * 28 + final) }
let initials = (0..<19).map { i in String(transliterated(hangul(i, 0, 0)).dropLast(transliterated(hangul(11, 0, 0)).count)) }
let vowels = (0..<21).map { v in transliterated(hangul(11, v, 0)) }
let finals = (0..<28).map { f in String(transliterated(hangul(11, 0, f)).dropFirst(vowels[0].count)) }
for i in 0..<19 {
    for v in 0..<21 {
        for f in 0..<28 {
            let reading = transliterated(hangul(i, v, f))
            require(reading == initials[i] + vowels[v] + finals[f], "Hangul \(i) \(v) \(f): \(reading)")
        }
    }
}
func reading(_ s: Int) -> String { initials[s / 588] + vowels[(s / 28) % 21] + finals[s % 28] }
func hyphenated(_ a: Int, _ b: Int) -> Bool {
    let whole = transliterated(scalar(0xAC00 + a) + scalar(0xAC00 + b))
    if whole == reading(a) + reading(b) { return false }
    require(whole == reading(a) + "-" + reading(b), "Hangul pair \(a) \(b): \(whole)")
    return true
}
var byConsonants = ""
for f in 0..<28 {
    for i in 0..<19 {
        let h = hyphenated(11 * 588 + f, i * 588)
        if f == 0 && i == 11 {
            byConsonants += "0"
            continue
        }
        for v in 0..<21 { require(hyphenated(11 * 588 + v * 28 + f, i * 588 + v * 28) == h, "Hangul final \(f) initial \(i)") }
        byConsonants += h ? "1" : "0"
    }
}
var byVowels = ""
for a in 0..<21 {
    for b in 0..<21 {
        let h = hyphenated(11 * 588 + a * 28, 11 * 588 + b * 28)
        for i in [0, 18] { require(hyphenated(i * 588 + a * 28, 11 * 588 + b * 28) == h, "Hangul vowels \(a) \(b)") }
        byVowels += h ? "1" : "0"
    }
}
let consonantRule = Array(byConsonants.utf8), vowelRule = Array(byVowels.utf8)
for _ in 0..<20_000 {
    let word = (0..<Int.random(in: 2...5, using: &generator)).map { _ in Int.random(in: 0..<11172, using: &generator) }
    var expected = reading(word[0])
    for (a, b) in zip(word, word.dropFirst()) {
        let (f, i) = (a % 28, b / 588)
        let rule = f == 0 && i == 11 ? vowelRule[(a / 28 % 21) * 21 + b / 28 % 21] : consonantRule[f * 19 + i]
        if rule == UInt8(ascii: "1") { expected += "-" }
        expected += reading(b)
    }
    require(transliterated(word.map { scalar(0xAC00 + $0) }.joined()) == expected, "Hangul word \(word)")
}

var out = """
    // Made by scripts/make-fold-tables.sh from the transliterator "Any-Latin; Latin-ASCII; Lower"
    // and checked there against it; do not edit. SearchFoldingTests compares them with the
    // transliterator again.

    /// What the transliterator makes of the scripts most names are written in, so that folding
    /// them loads no transliterator. Every entry is in lower case; in all but Latin's, white
    /// space is collapsed.
    enum FoldTables {

    """
out += stringArray("latin", "U+0080 to U+024F, one entry a scalar.", latin) + "\n"
out += stringArray("latinExtendedAdditional", "U+1E00 to U+1EFF (Vietnamese, Welsh, ...), one entry a scalar.", latinExtendedAdditional) + "\n"
out += stringArray("cyrillic", "U+0400 to U+04FF, one entry a scalar (the combining marks U+0483 to U+0489 empty).", cyrillic) + "\n"
out += stringArray("hanSyllables", "The readings of Han characters, in the order `hanReading` numbers them.", syllables) + "\n"
out += staticText(
    "hanReading",
    "For each character from U+4E00 to U+9FFF, two digits of base 64 (0-9, A-Z, a-z, +, /): its reading in `hanSyllables`.",
    hanIndex) + "\n"
out += stringArray("hangulInitials", "The reading of each of the 19 initial consonants of a Hangul syllable.", initials) + "\n"
out += stringArray("hangulVowels", "The reading of each of the 21 vowels of a Hangul syllable.", vowels) + "\n"
out += stringArray("hangulFinals", "The reading of each of the 27 final consonants of a Hangul syllable, and of none first.", finals) + "\n"
out += staticText(
    "hangulHyphenByConsonants",
    "\"1\" where a hyphen goes between two syllables, by the first one's final (28 rows) and the second one's initial (19 columns).",
    byConsonants) + "\n"
out += staticText(
    "hangulHyphenByVowels",
    "\"1\" where a hyphen goes between a syllable with no final and one that starts with a vowel, by their vowels (21 × 21).",
    byVowels)
out += "}\n"
FileHandle.standardOutput.write(Data(out.utf8))
