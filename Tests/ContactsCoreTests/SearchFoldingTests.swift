import Foundation
import XCTest

@testable import ContactsCore

final class SearchFoldingTests: XCTestCase {
    func testFold_ignoresCaseAccentsAndScript() {
        XCTAssertEqual(SearchFolding.fold("Zoë Ångström"), "zoe angstrom")
        XCTAssertEqual(SearchFolding.fold("Łukasz"), "lukasz")
        XCTAssertEqual(SearchFolding.fold("Øystein"), "oystein")
        XCTAssertEqual(SearchFolding.fold("Straße"), "strasse")
        XCTAssertEqual(SearchFolding.fold("  JOHN\t\tAppleseed \n"), "john appleseed")
        XCTAssertEqual(SearchFolding.fold("Иван"), "ivan")
    }

    func testPhoneDigits_dropsFormatting() {
        XCTAssertEqual(SearchFolding.phoneDigits("+86 138-0013 (8000)"), "8613800138000")
        XCTAssertEqual(SearchFolding.phoneDigits("٠١٢"), "012", "Arabic-Indic digits count as digits")
        XCTAssertTrue(SearchFolding.looksLikePhone("555-234"))
        XCTAssertTrue(SearchFolding.looksLikePhone("+1 (555) 234"))
        XCTAssertFalse(SearchFolding.looksLikePhone("kate 5"))
        XCTAssertFalse(SearchFolding.looksLikePhone("--"))
    }

    func testSortKey_ordersNaturallyIgnoringCaseAndAccents() {
        let names = ["Item 10", "Ítem 3", "item 1", "Item 2", "apple", "Äpfel", "Zebra", "\"Bob\""]
        let sorted = names.sorted { SearchFolding.sortKey($0) < SearchFolding.sortKey($1) }
        XCTAssertEqual(sorted, ["Äpfel", "apple", "\"Bob\"", "item 1", "Item 2", "Ítem 3", "Item 10", "Zebra"])
        XCTAssertLessThan(SearchFolding.sortKey("File 007"), SearchFolding.sortKey("File 10"))
    }

    /// The folding of Latin text and the sort keys of ASCII text run over bytes; they must
    /// give what the scalar-by-scalar definitions give.
    func testByteLevelFoldingAndSortKeysMatchTheirDefinitions() {
        let transform = StringTransform("Any-Latin; Latin-ASCII; Lower")
        func isSpace(_ u: Unicode.Scalar) -> Bool { u.properties.isWhitespace || u.properties.generalCategory == .control }
        func referenceFold(_ text: String) -> String {
            var out = String.UnicodeScalarView()
            var pendingSpace = false
            for u in text.unicodeScalars {
                if isSpace(u) {
                    pendingSpace = !out.isEmpty
                    continue
                }
                if (0x300...0x36F).contains(u.value) { continue }
                if pendingSpace {
                    out.append(" ")
                    pendingSpace = false
                }
                let s = String(Character(u))
                out.append(
                    contentsOf: (u.value < 0x80 ? s.lowercased() : (s.applyingTransform(transform, reverse: false) ?? s).lowercased())
                        .unicodeScalars)
            }
            return String(out)
        }
        func referenceSortKey(_ folded: String) -> String {
            var scalars = Array(folded.unicodeScalars)
            if let first = scalars.firstIndex(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
                scalars.removeFirst(first)
            }
            var out = ""
            var i = 0
            while i < scalars.count {
                guard ("0"..."9").contains(scalars[i]) else {
                    out.unicodeScalars.append(scalars[i])
                    i += 1
                    continue
                }
                var j = i
                while j < scalars.count, ("0"..."9").contains(scalars[j]) { j += 1 }
                var run = scalars[i..<j].drop { $0 == "0" }
                if run.isEmpty { run = scalars[(j - 1)..<j] }
                out += String(format: "%02d", min(run.count, 99))
                out.unicodeScalars.append(contentsOf: run.prefix(99))
                i = j
            }
            return out
        }
        for v in 0x80..<0x250 {
            let s = "a" + String(Unicode.Scalar(v)!) + "b"
            XCTAssertEqual(SearchFolding.fold(s), referenceFold(s), "U+\(String(v, radix: 16))")
        }
        let pieces = [
            "a", "Z", "é", "Ø", "ß", "ǅ", "\u{301}", " ", "\t", "\u{A0}", "\u{85}", "\u{3000}", "\n", "0", "007", "12", "-", "'", "ĳ", "Ł",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            XCTAssertEqual(SearchFolding.fold(text), referenceFold(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            let ascii = String(text.unicodeScalars.filter { $0.isASCII }.map(Character.init))
            XCTAssertEqual(SearchFolding.sortKey(folded: ascii), referenceSortKey(ascii), ascii.debugDescription)
        }
        XCTAssertEqual(SearchFolding.sortKey(folded: String(repeating: "9", count: 120)), "99" + String(repeating: "9", count: 99))
        XCTAssertEqual(SearchFolding.sortKey(folded: "-- 000 a"), "010 a")
    }

    func testHanWordsFoldAsTheTransliteratorReadsThemWhole() {
        let transform = StringTransform("Any-Latin; Latin-ASCII; Lower")
        XCTAssertEqual(SearchFolding.fold("张三丰"), "zhang san feng")
        XCTAssertEqual(SearchFolding.fold("東京 山田太郎"), "dong jing shan tian tai lang")
        // Words read a character at a time must read as the transliterator reads them whole,
        // or contacts stored before would not be found by the same query.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let scalars = (0..<Int.random(in: 2...4, using: &generator)).map { _ in
                Unicode.Scalar(UInt32.random(in: 0x4E00...0x9FFF, using: &generator))!
            }
            let word = String(String.UnicodeScalarView(scalars))
            let whole = (word.applyingTransform(transform, reverse: false) ?? word).lowercased()
            XCTAssertEqual(SearchFolding.fold(word), whole, "\(word)")
        }
        // Mixed words keep the transliterator's own spacing.
        XCTAssertEqual(SearchFolding.fold("张三丰42"), "zhang san feng42")
        XCTAssertEqual(SearchFolding.fold("ab张"), "ab zhang")
    }

    /// Cyrillic, Han and Hangul read from tables made with the transliterator: every letter,
    /// character and syllable alone, and words of them, must read as it reads them whole.
    func testTabledScriptsFoldAsTheTransliteratorReadsThem() {
        let transform = StringTransform("Any-Latin; Latin-ASCII; Lower")
        func whole(_ word: String) -> String {
            let latin = (word.applyingTransform(transform, reverse: false) ?? word).lowercased()
            return latin.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        func word(_ range: ClosedRange<UInt32>, _ length: ClosedRange<Int>, _ generator: inout SystemRandomNumberGenerator) -> String {
            String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: length, using: &generator)).compactMap { _ in
                        Unicode.Scalar(UInt32.random(in: range, using: &generator))
                    }))
        }
        let cyrillic = (UInt32(0x400)...0x4FF).filter { !(0x483...0x489).contains($0) }
        let han = UInt32(0x4E00)...0x9FFF
        let hangul = UInt32(0xAC00)...0xD7A3
        for v in [cyrillic, Array(han), Array(hangul)].joined() {
            let s = String(Unicode.Scalar(v).map(Character.init) ?? " ")
            XCTAssertEqual(SearchFolding.fold(s), whole(s), "U+\(String(v, radix: 16))")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let letters = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 2...8, using: &generator)).compactMap { _ in
                        cyrillic.randomElement(using: &generator).flatMap(Unicode.Scalar.init)
                    }))
            XCTAssertEqual(SearchFolding.fold(letters), whole(letters), letters)
            let syllables = word(hangul, 2...5, &generator)
            XCTAssertEqual(SearchFolding.fold(syllables), whole(syllables), syllables)
        }
        // Latin Extended Additional (Vietnamese) folds a scalar at a time too; the
        // transliterator read its words whole before.
        let letters = Array("aeiouyNgnhtdAEIOU")
        for v in UInt32(0x1E00)..<0x1F00 {
            guard let u = Unicode.Scalar(v) else { continue }
            let word = "Nguy" + String(Character(u)) + "n"
            XCTAssertEqual(SearchFolding.fold(word), whole(word), "U+\(String(v, radix: 16))")
            let mixed = String((0..<5).map { _ in letters.randomElement(using: &generator) ?? "a" }) + String(Character(u))
            XCTAssertEqual(SearchFolding.fold(mixed), whole(mixed), mixed)
        }
        XCTAssertEqual(SearchFolding.fold("Nguyễn Thị Minh Khai"), "nguyen thi minh khai")
        // Runs of one tabled script and of digits, as the bench's "张三丰42".
        for range in [UInt32(0x400)...0x482, han, hangul] {
            for _ in 0..<500 {
                let runs = (0..<Int.random(in: 2...4, using: &generator)).map { k in
                    k % 2 == 0 ? word(range, 1...3, &generator) : String(Int.random(in: 0...999, using: &generator))
                }
                let text = Bool.random(using: &generator) ? runs.joined() : runs.reversed().joined()
                XCTAssertEqual(SearchFolding.fold(text), whole(text), text)
            }
        }
        XCTAssertEqual(SearchFolding.fold("张三丰42 김민준7"), "zhang san feng42 gimminjun7")
        XCTAssertEqual(SearchFolding.fold("김민준 이서연"), "gimminjun iseoyeon")
        XCTAssertEqual(SearchFolding.fold("Ольга Смирнова"), "ol'ga smirnova")
    }

    /// Names in the tabled scripts never reach the transliterator (which would stay loaded,
    /// some 7 MiB of the daemon); others do, a word at a time, remembered.
    func testTabledScriptsNeedNoTransliterator() {
        let before = SearchFolding.transliteratedWords
        for name in ["Zoë Ångström-Łukasz", "Дмитрий Иванов", "张三丰 山田太郎", "김민준", "Nguyễn Šimić", "Ðorđe ǅ", "王芳42", "Иван2"] {
            _ = SearchFolding.fold(name + " " + String(before))
        }
        XCTAssertEqual(SearchFolding.transliteratedWords, before)
        let greek = "Αλέξανδρος\(UInt32.random(in: 0...UInt32.max))"
        XCTAssertEqual(SearchFolding.fold("Mr " + greek), "mr alexandros" + greek.dropFirst(10))
        XCTAssertEqual(SearchFolding.transliteratedWords, before + 1, "a Greek word goes through the transliterator")
        XCTAssertEqual(SearchFolding.fold(greek), "alexandros" + greek.dropFirst(10))
        XCTAssertEqual(SearchFolding.transliteratedWords, before + 1, "and is remembered")
    }

    /// 々 repeats the character before it, as a reader of the name says it; the transliterator
    /// would read "佐々木" as "zuo⓶mu", which no query finds, and stay loaded for it.
    func testTheIterationMarkReadsAsTheCharacterItRepeats() {
        let before = SearchFolding.transliteratedWords
        XCTAssertEqual(SearchFolding.fold("佐々木 翔"), "zuo zuo mu xiang")
        XCTAssertEqual(SearchFolding.fold("佐々木"), SearchFolding.fold("佐佐木"))
        XCTAssertEqual(SearchFolding.fold("人々42"), "ren ren42")
        XCTAssertEqual(SearchFolding.fold("々木"), "mu", "nothing before it to repeat")
        XCTAssertEqual(SearchFolding.transliteratedWords, before)
    }

    func testPatterns_matchCJKUntransliteratedAndPhonesAsDigits() {
        XCTAssertEqual(SearchDocument.patterns(for: "三丰"), ["三丰"])
        XCTAssertEqual(SearchDocument.patterns(for: "Zoë"), ["zoe"])
        XCTAssertEqual(SearchDocument.patterns(for: "555-234"), ["555-234", "555234"])
        XCTAssertEqual(SearchDocument.patterns(for: "   "), [])
    }

    func testSearchDocument_holdsFoldedFieldsCJKAndPhoneDigits() {
        var c = Contact(name: "张三丰")
        c.emails = [LabeledValue(value: "Zhang@Example.com")]
        c.phones = [LabeledValue(value: "+86 138 0013 8000")]
        c.organization = "Wudang"
        let text = SearchDocument.text(for: c)
        XCTAssertTrue(text.contains("zhang san feng"))
        XCTAssertTrue(text.contains("张三丰"))
        XCTAssertTrue(text.contains("zhang@example.com"))
        XCTAssertTrue(text.contains("8613800138000"))
        XCTAssertTrue(text.contains("wudang"))
    }
}
