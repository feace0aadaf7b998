import TestSupport
import XCTest

@testable import VCard

final class UTF8CheckTests: XCTestCase {
    private func check(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let expected = String(validating: bytes, as: UTF8.self)
        XCTAssertEqual(UTF8Check.string(bytes), expected, "\(bytes.map { String($0, radix: 16) })", file: file, line: line)
    }

    func testTheEdgesOfEachSequenceLength() {
        check([])
        check(Array("plain ASCII text, longer than eight bytes".utf8))
        check(Array("Zoë Müller 佐々木 🙂".utf8))
        // The first and last scalar of each length, and the surrogates' neighbours.
        for scalar: UInt32 in [0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF] {
            check(Array(String(UnicodeScalar(scalar)!).utf8) + Array("abcdefgh".utf8))
        }
        // Overlong forms, surrogates, past U+10FFFF, lone and missing continuation bytes.
        for bad: [UInt8] in [
            [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xBF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x99],
            [0xE2, 0x28, 0xA1], [0xF0, 0x9F, 0x28, 0x82],
        ] {
            XCTAssertNil(UTF8Check.string(bad), "\(bad)")
            check(bad)
            check(Array("12345678".utf8) + bad + Array("abc".utf8))
        }
    }

    func testAgreesWithTheStandardLibraryOnRandomBytes() {
        var random = SplitMix(seed: 0x5EED_0F_7E87)
        // Mostly ASCII with a few high bytes, as real text is, so that valid and invalid both occur.
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("é".utf8), Array("語".utf8), Array("🙂".utf8), [0x80], [0xC3], [0xE8, 0xAA], [0xED, 0xA0, 0x80],
            [0xF4, 0x90],
        ]
        var valid = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 24) {
                let roll = random.next() % 40
                bytes += roll < Int(pieces.count) ? pieces[Int(roll)] : [UInt8(0x20 + roll)]
            }
            if String(validating: bytes, as: UTF8.self) != nil { valid += 1 }
            check(bytes)
        }
        XCTAssertGreaterThan(valid, 1000)
        XCTAssertLessThan(valid, 19_000)
    }
}
