import XCTest

@testable import VCard

final class VCardWriterTests: XCTestCase {
    func testWritesCRLFAndFoldsAt75OctetsWithoutSplittingCharacters() {
        let long = String(repeating: "ä", count: 100)
        let text = VCardWriter.write([VCard(properties: [VCardProperty(name: "FN", text: long)])], version: .v4)
        for line in text.components(separatedBy: "\r\n") {
            XCTAssertLessThanOrEqual(line.utf8.count, 75)
        }
        XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        XCTAssertEqual(VCardParser.parse(text).cards.first?.first("FN")?.text, long)
    }

    func testEscapesTextAndRoundTrips() {
        let props = [
            VCardProperty(name: "FN", text: "Doe, John; Jr.\\"),
            VCardProperty(name: "N", value: .text([["Doe"], ["John"], [""], [""], ["Jr."]])),
            VCardProperty(name: "CATEGORIES", value: .text([["Family", "Work, old"]])),
            VCardProperty(group: "item1", name: "EMAIL", parameters: [VCardParameter("TYPE", ["work"])], value: .text([["a@b.c"]])),
            VCardProperty(name: "X-CUSTOM", parameters: [VCardParameter("X-P", ["a:b"])], value: .text([["multi\nline"]])),
        ]
        for v in [VCardWriter.Version.v3, .v4] {
            let text = VCardWriter.write([VCard(properties: props)], version: v)
            let back = VCardParser.parse(text).cards[0].properties.filter { $0.name != "VERSION" }
            XCTAssertEqual(back.map(\.name), props.map(\.name))
            XCTAssertEqual(back.map(\.value), props.map(\.value), v.rawValue)
            XCTAssertEqual(back.map(\.group), props.map(\.group))
            XCTAssertEqual(back[4].parameter("X-P"), "a:b")
        }
    }

    func testBinaryPhotosBecomeDataURIsIn4AndBase64In3() {
        let photo = VCardProperty(
            name: "PHOTO", parameters: [VCardParameter("ENCODING", ["BASE64"]), VCardParameter(nil, ["JPEG"])], value: .raw("/9j/AAAA"))
        let v4 = VCardWriter.write([VCard(properties: [photo])], version: .v4)
        XCTAssertTrue(v4.contains("PHOTO:data:image/jpeg;base64,/9j/AAAA"), v4)
        let back = VCardParser.parse(v4).cards[0].first("PHOTO")
        let v3 = VCardWriter.write([VCard(properties: [back!])], version: .v3)
        XCTAssertTrue(v3.contains("PHOTO;ENCODING=b;TYPE=JPEG:/9j/AAAA"), v3)
    }

    func testNamesAreWrittenBackAsTheyArrivedAndGeneratedOnesInUpperCase() {
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Kate\r\nitem1.TEL;type=CELL;X-ServiceType=phone:555\r\nitem1.X-ABLabel:_$!<Mobile>!$_\r\nx-custom:v\r\nEND:VCARD\r\n"
        let card = VCardParser.parse(text).cards[0]
        XCTAssertEqual(card.first("X-ABLABEL")?.spelling, "X-ABLabel", "found by its canonical name, spelled as it came")
        XCTAssertNil(card.first("FN")?.spelling, "an upper-case name carries nothing extra")
        XCTAssertEqual(card.first("tel")?.parameterValues("type"), ["CELL"])
        let out = VCardWriter.write([card], version: .v3)
        XCTAssertTrue(out.contains("item1.X-ABLabel:"), out)
        XCTAssertTrue(out.contains("item1.TEL;type=CELL;X-ServiceType=phone:555"), out)
        XCTAssertTrue(out.contains("\r\nx-custom:v\r\n"), out)
        XCTAssertTrue(out.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n"), out)
        let generated = VCardWriter.write([VCard(properties: [VCardProperty(name: "NOTE", text: "x")])], version: .v4)
        XCTAssertTrue(generated.contains("\r\nNOTE:x\r\n"), generated)
        XCTAssertEqual(VCardParser.parse(out).cards[0].withoutLines, card.withoutLines, "a second trip changes nothing")
    }
}

extension VCard {
    /// The card with no source lines, which a written copy cannot have the same.
    fileprivate var withoutLines: VCard {
        var c = self
        c.line = 0
        for i in c.properties.indices { c.properties[i].line = 0 }
        return c
    }
}
