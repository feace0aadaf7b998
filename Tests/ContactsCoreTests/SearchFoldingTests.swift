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
