import ContactsCore
import Foundation
import XCTest

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
