import JSONRPC
import XCTest

final class LineFramerTests: XCTestCase {
    func lines(_ input: String, pieceSize: Int, limit: Int = 100) -> [String] {
        var framer = LineFramer(maxLineBytes: limit)
        var out: [String] = []
        let bytes = Array(input.utf8)
        var i = 0
        while i < bytes.count {
            framer.append(Array(bytes[i..<min(i + pieceSize, bytes.count)]))
            i += pieceSize
            loop: while true {
                switch framer.next() {
                case .line(let l): out.append(String(decoding: l, as: UTF8.self))
                case .needMore: break loop
                case .tooLong:
                    out.append("<too long>")
                    return out
                }
            }
        }
        return out
    }

    func testFramer_givesTheSameLinesWhateverThePieces() {
        let input = "{\"a\":1}\n{\"b\":\"ü张\"}\r\n\n  \n[1,2]\n"
        for size in [1, 2, 3, 7, 100] {
            XCTAssertEqual(lines(input, pieceSize: size), ["{\"a\":1}", "{\"b\":\"ü张\"}", "[1,2]"], "piece size \(size)")
        }
    }

    func testFramer_keepsAnUnterminatedTailForLater() {
        XCTAssertEqual(lines("abc\ndef", pieceSize: 2), ["abc"])
    }

    func testFramer_reportsALineOverTheLimitBeforeItEnds() {
        XCTAssertEqual(
            lines(String(repeating: "x", count: 50) + "\n" + String(repeating: "y", count: 200), pieceSize: 16, limit: 64),
            [String(repeating: "x", count: 50), "<too long>"])
    }

    func testFramer_acceptsALineOfExactlyTheLimit() {
        XCTAssertEqual(lines(String(repeating: "x", count: 64) + "\n", pieceSize: 5, limit: 64), [String(repeating: "x", count: 64)])
    }
}
