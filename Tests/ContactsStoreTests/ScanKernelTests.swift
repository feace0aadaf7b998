import ScanKernel
import XCTest

final class ScanKernelTests: XCTestCase {
    /// What a plain loop finds.
    func reference(_ text: [UInt8], _ a: UInt8, _ b: UInt8) -> Int {
        guard text.count >= 2 else { return -1 }
        for i in 0..<(text.count - 1) where text[i] == a && text[i + 1] == b { return i }
        return -1
    }

    func find(_ text: [UInt8], _ a: UInt8, _ b: UInt8) -> Int {
        text.withUnsafeBufferPointer { scan_find_pair($0.baseAddress, $0.count, a, b) }
    }

    func testAPairIsFoundWhereverItSitsAndNeverPastTheEnd() {
        for length in 0..<70 {
            for position in 0..<max(1, length - 1) {
                var text = [UInt8](repeating: 0x61, count: length)
                if length >= 2 {
                    text[position] = 0xE5
                    text[position + 1] = 0xBC
                }
                XCTAssertEqual(find(text, 0xE5, 0xBC), reference(text, 0xE5, 0xBC), "length \(length), at \(position)")
            }
            // The first byte alone at the very end is no match.
            var lonely = [UInt8](repeating: 0x61, count: length)
            if length > 0 { lonely[length - 1] = 0x35 }
            XCTAssertEqual(find(lonely, 0x35, 0x35), -1, "length \(length)")
        }
    }

    func testTheFirstOfSeveralIsFoundAndOverlapsCount() {
        let text = Array("xx5555x55".utf8)
        XCTAssertEqual(find(text, 0x35, 0x35), 2)
        let random = (0..<4096).map { _ in UInt8.random(in: 0x30...0x33) }
        for a in UInt8(0x30)...0x33 {
            for b in UInt8(0x30)...0x33 { XCTAssertEqual(find(random, a, b), reference(random, a, b)) }
        }
    }
}
