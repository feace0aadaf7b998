import XCTest

@testable import VCard

final class VCardParserTests: XCTestCase {
    func parse(_ s: String) -> VCardParser.Result { VCardParser.parse(s) }

    func testFoldedLinesUnfoldWhateverTheLineEnds() {
        for eol in ["\r\n", "\n", "\r", "\r\r\n"] {
            let text = ["BEGIN:VCARD", "VERSION:3.0", "FN:Anna", " Haro", "NOTE:one\\, two\\nthree", "END:VCARD", ""].joined(separator: eol)
            let r = parse(text)
            XCTAssertEqual(r.cards.count, 1, eol.debugDescription)
            XCTAssertEqual(r.cards.first?.first("FN")?.text, "AnnaHaro")
            XCTAssertEqual(r.cards.first?.first("NOTE")?.text, "one, two\nthree")
        }
    }

    func testQuotedPrintableWithSoftBreaksInsideAUTF8Sequence() {
        let text =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=E5=BC=A0=E4=B8=\r\n=89=E4=B8=B0;\r\nFN;QUOTED-PRINTABLE:J=FCrgen\r\nEND:VCARD\r\n"
        let card = parse(text).cards[0]
        XCTAssertEqual(card.first("N")?.value.component(0), "张三丰")
        XCTAssertEqual(card.first("FN")?.text, "Jürgen", "QP without a charset in Windows-1252, as Outlook writes")
    }

    func testBareParametersGroupsAndRFC6868() {
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            item1.TEL;TYPE="cell,voice";X-NOTE=a^nb^'c^^:+1 555
            item1.X-ABLabel:_$!<Mobile>!$_
            END:VCARD
            """
        let tel = parse(text).cards[0].first("TEL")
        XCTAssertEqual(tel?.group, "item1")
        XCTAssertEqual(tel?.parameterValues("TYPE"), ["CELL", "VOICE"])
        XCTAssertEqual(tel?.parameter("X-NOTE"), "a\nb\"c^")
        let v21 = parse("BEGIN:VCARD\nVERSION:2.1\nTEL;CELL;VOICE:555\nEND:VCARD\n").cards[0].first("TEL")
        XCTAssertEqual(v21?.parameterValues("TYPE"), ["CELL", "VOICE"])
    }

    func testABrokenCardDoesNotStopTheOthers() {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            FN:First
            this line is junk
            BEGIN:VCARD
            VERSION:3.0
            FN:Second
            END:VCARD
            """
        let r = parse(text)
        XCTAssertEqual(r.cards.map { $0.first("FN")?.text }, ["First", "Second"])
        XCTAssertTrue(
            r.issues.contains { $0.line == 5 && $0.message.contains("without END") && $0.kind == .cardEndedByNextCard }, "\(r.issues)")
        XCTAssertTrue(r.issues.contains { $0.line == 4 && $0.kind == .skippedLine }, "\(r.issues)")
    }

    func testEachKindOfBrokenStructureIsNamed() {
        let r = parse("END:VCARD\nBEGIN:VCARD\nFN:Open to the end\n")
        XCTAssertEqual(r.issues.map(\.kind), [.strayEnd, .lastCardUnterminated])
        XCTAssertEqual(r.issues.map(\.line), [1, 2])
    }

    func testBase64PhotoBlocksEndingAtABlankLine() {
        let text = "BEGIN:VCARD\nVERSION:2.1\nN:X\nPHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQ\nSkZJRgAB\n\nEND:VCARD\n"
        let photo = parse(text).cards[0].first("PHOTO")
        XCTAssertEqual(photo?.value, .raw("/9j/4AAQSkZJRgAB"))
    }

    func testUTF16AndBOMFiles() {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Zoë\r\nEND:VCARD\r\n"
        let le: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let beNoBOM: [UInt8] = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        for bytes in [le, beNoBOM, bom] {
            XCTAssertEqual(VCardParser.parse(bytes).cards.first?.first("FN")?.text, "Zoë")
        }
    }

    func testInvalidUTF8IsRepairedNotDropped() {
        var bytes = Array("BEGIN:VCARD\nVERSION:3.0\nFN:A".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("B\nEND:VCARD\n".utf8)
        XCTAssertEqual(VCardParser.parse(bytes).cards.count, 1)
    }

    func testLineNumbersPointAtTheSource() {
        let r = parse("\n\nBEGIN:VCARD\nVERSION:3.0\nFN:A\nEMAIL:a@b\n c\nEND:VCARD\n")
        XCTAssertEqual(r.cards[0].line, 3)
        XCTAssertEqual(r.cards[0].first("EMAIL")?.line, 6)
    }
}

/// A large file is parsed in pieces on all cores: the result must be the one-piece result.
final class ParallelParseTests: XCTestCase {
    func cards(_ count: Int, quirks: Bool) -> [UInt8] {
        var text = "junk before\r\n"
        for i in 0..<count {
            switch i % 4 {
            case 0: text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nNOTE:folded\r\n  line \(i)\r\nEND:VCARD\r\n"
            case 1: text += "begin:vcard\nversion:2.1\nN:Last;First\nTEL;CELL:555\nnot a property \(i)\nend:vcard\n"
            case 2: text += "BEGIN:VCARD\r\r\nVERSION:4.0\r\r\nFN:CRCRLF \(i)\r\r\nEND:VCARD\r\r\nEND:VCARD\r\n"
            default:
                text +=
                    quirks
                    ? "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Agent \(i)\r\nAGENT:\r\nBEGIN:VCARD\r\nFN:Inner\r\nEND:VCARD\r\nEND:VCARD\r\nBEGIN:VCARD\nFN:No end \(i)\n"
                    : "\r\nBEGIN:VCARD\nVERSION:3.0\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ\nEND:VCARD\n"
            }
        }
        text += "BEGIN:VCARD\r\nFN:Last one\r\nEND:VCARD\r\ntrailing junk\r\n"
        return Array(text.utf8)
    }

    func testPiecesJoinIntoExactlyTheWholeFileResult() {
        let bytes = cards(300, quirks: false)
        let whole = VCardParser.parse(bytes, parts: 1, minimumBytes: 0)
        XCTAssertGreaterThan(whole.cards.count, 300)
        XCTAssertFalse(whole.issues.isEmpty, "stray END and junk lines are reported")
        for parts in [2, 3, 7] {
            XCTAssertEqual(VCardParser.cardBoundaries(bytes, parts: parts).cuts.count, parts - 1)
            let pieces = VCardParser.parse(bytes, parts: parts, minimumBytes: 0)
            XCTAssertEqual(pieces.cards, whole.cards, "\(parts) parts")
            XCTAssertEqual(pieces.issues, whole.issues, "\(parts) parts")
        }
    }

    func testPiecesReadInAnyOrderGiveFileLinesAndTheFileIsCounted() {
        let bytes = cards(300, quirks: false)
        let whole = VCardParser.parse(bytes, parts: 1, minimumBytes: 0)
        let file = VCardParser.Pieces(bytes, pieceBytes: 1000)
        XCTAssertGreaterThan(file.count, 5)
        let begins = String(decoding: bytes, as: UTF8.self).lowercased().components(separatedBy: "begin:vcard").count - 1
        XCTAssertEqual(file.estimatedCards, begins)
        var byPiece = [VCardParser.Result?](repeating: nil, count: file.count)
        for i in (0..<file.count).reversed() { byPiece[i] = file.parse(i) }
        XCTAssertEqual(byPiece.flatMap { $0!.cards }, whole.cards)
        XCTAssertEqual(byPiece.flatMap { $0!.issues.map(\.line) }, whole.issues.map(\.line))
        XCTAssertEqual(VCardParser.Pieces(bytes, pieceBytes: 1 << 30).count, 1)
    }

    func testNestedOrUnterminatedCardsAreNotCut() {
        let bytes = cards(300, quirks: true)
        XCTAssertEqual(VCardParser.cardBoundaries(bytes, parts: 4).cuts, [])
        XCTAssertEqual(
            VCardParser.parse(bytes, parts: 4, minimumBytes: 0).issues, VCardParser.parse(bytes, parts: 1, minimumBytes: 0).issues)
    }
}

final class WhitespaceRemovalTests: XCTestCase {
    func testBase64LosesItsFoldingWhitespaceAndNothingElse() {
        XCTAssertEqual(TextDecoding.removingWhitespace("QUJD\r\n  REVG\tR0g=\u{0B}\u{0C}"), "QUJDREVGR0g=")
        XCTAssertEqual(TextDecoding.removingWhitespace("QUJDREVG"), "QUJDREVG")
        XCTAssertEqual(TextDecoding.removingWhitespace(""), "")
        // Text that is not ASCII goes through the character filter (no-break space included).
        XCTAssertEqual(TextDecoding.removingWhitespace("é a\u{A0}b"), "éab")
    }

    func testAFoldedBase64PhotoParsesToItsDataAlone() {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ\r\n SkZJRg\r\n ==\r\nEND:VCARD\r\n"
        XCTAssertEqual(VCardParser.parse(text).cards.first?.first("PHOTO")?.value, .raw("/9j/4AAQSkZJRg=="))
    }
}

final class VCardParameterValueTests: XCTestCase {
    /// TYPE values are split on commas, trimmed and upper-cased; ASCII goes over bytes and
    /// must give what splitting the string gives.
    func testParameterValuesSplitTrimAndUpperCase() {
        let pieces = ["work", "HOME", ",", " ", "voice", "x-Custom", "", "pref", ",,", "Ünïcode"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let values = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            let p = VCardProperty(name: "TEL", parameters: [VCardParameter("TYPE", values), VCardParameter(nil, ["cell"])], text: "1")
            let expected =
                values.flatMap { v in
                    v.split(separator: ",").map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()).uppercased() }
                } + ["CELL"]
            XCTAssertEqual(p.parameterValues("type"), expected, "\(values)")
        }
    }
}
