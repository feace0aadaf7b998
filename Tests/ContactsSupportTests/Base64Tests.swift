import ContactsSupport
import Foundation
import XCTest

final class Base64Tests: XCTestCase {
    func testDecodesWhatFoundationEncodesWithAndWithoutPaddingAndFolds() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Data(bytes).base64EncodedString()
            XCTAssertEqual(Base64.decode(text.utf8), bytes, "\(length)")
            XCTAssertEqual(Base64.decode(text.replacingOccurrences(of: "=", with: "").utf8), bytes, "unpadded \(length)")
            let folded = stride(from: 0, to: text.count, by: 7).map { i in String(text.dropFirst(i).prefix(7)) }.joined(separator: "\r\n ")
            XCTAssertEqual(Base64.decode(folded.utf8), bytes, "folded \(length)")
            XCTAssertEqual(Base64.encode(bytes), text, "encoded as Foundation encodes \(length)")
        }
    }

    func testStrictRefusesStrayCharactersLenientSkipsThem() {
        XCTAssertNil(Base64.decode("QUJD!RA==".utf8))
        XCTAssertEqual(Base64.decode("QUJD!RA==".utf8, lenient: true), Array("ABCD".utf8))
        XCTAssertNil(Base64.decode("QUJDR".utf8), "five letters end inside a byte")
        XCTAssertNil(Base64.decode("QQ==QQ==".utf8), "nothing after the padding")
        XCTAssertEqual(Base64.decode("".utf8), [])
    }
}
