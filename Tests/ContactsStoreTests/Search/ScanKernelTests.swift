import ScanKernel
import XCTest

final class ScanMarkTests: XCTestCase {
    /// Texts laid end to end, as the search index keeps them, each slot with its features.
    struct Layout {
        var text: [UInt8] = []
        var slots: [ScanSlot] = []
        var features: [ScanFeatures] = []
        var gaps = false

        init(_ texts: [[UInt8]], gaps: Bool = false) {
            self.gaps = gaps
            for (i, t) in texts.enumerated() {
                slots.append(
                    ScanSlot(
                        rowid: Int64(i), textStart: UInt32(text.count), textCount: UInt32(t.count), keyStart: 0, keyCount: 0,
                        keyInText: true, marks: 0))
                var f = ScanFeatures()
                t.withUnsafeBufferPointer { scan_features($0.baseAddress, t.count, &f) }
                features.append(f)
                text += t
                // Bytes no slot owns, as an index holds after edits.
                if gaps { text += Array("abcd".utf8) }
            }
        }
    }

    func mark(_ layout: Layout, _ needle: [UInt8], pair: Int) -> [Bool] {
        // Both ways of searching: contact by contact, and (texts laid end to end) in one pass.
        let each = mark(layout, needle, pair: pair, contiguous: false)
        if !layout.gaps {
            XCTAssertEqual(mark(layout, needle, pair: pair, contiguous: true), each, "in one pass, needle \(needle)")
        }
        return each
    }

    func mark(_ layout: Layout, _ needle: [UInt8], pair: Int, contiguous: Bool) -> [Bool] {
        var marks = [UInt8](repeating: 0, count: layout.slots.count)
        layout.text.withUnsafeBufferPointer { t in
            layout.slots.withUnsafeBufferPointer { s in
                layout.features.withUnsafeBufferPointer { f in
                    needle.withUnsafeBufferPointer { n in
                        marks.withUnsafeMutableBufferPointer { m in
                            scan_mark(
                                t.baseAddress, t.count, s.baseAddress, f.baseAddress, s.count, n.baseAddress, n.count, pair, contiguous,
                                m.baseAddress)
                        }
                    }
                }
            }
        }
        return marks.map { $0 != 0 }
    }

    func contains(_ h: [UInt8], _ n: [UInt8]) -> Bool {
        guard h.count >= n.count else { return false }
        return (0...(h.count - n.count)).contains { Array(h[$0..<($0 + n.count)]) == n }
    }

    func testEveryTextThatHoldsTheNeedleIsMarkedAndNoOther() {
        // Thirty-two positions a step where the processor has AVX2, then sixteen.
        defer { scan_allow_avx2(true) }
        for wide in [true, false] {
            scan_allow_avx2(wide)
            if !wide { XCTAssertFalse(scan_uses_avx2()) }
            everyTextThatHoldsTheNeedleIsMarkedAndNoOther()
        }
    }

    private func everyTextThatHoldsTheNeedleIsMarkedAndNoOther() {
        var rng = SystemRandomNumberGenerator()
        // A small alphabet with bytes that share feature bits (0xE5, 0xBC): matches
        // everywhere, across borders and in the gaps between texts too.
        // Then letters that make the pairs with bits of their own ("an", "er", "th"...), whose
        // two-letter needles are answered by the features alone.
        for (alphabet, rounds) in [([0x61, 0x62, 0x63, 0x64, 0xE5, 0xBC] as [UInt8], 400), (Array("anerth ".utf8) + [0xE5], 400)] {
            for round in 0..<rounds {
                let texts = (0..<Int.random(in: 1...60, using: &rng)).map { _ in
                    (0..<Int.random(in: 0...80, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
                }
                let layout = Layout(texts, gaps: round % 2 == 1)
                let needle = (0..<Int.random(in: 1...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
                for pair in 0..<max(1, needle.count - 1) {
                    XCTAssertEqual(
                        mark(layout, needle, pair: pair), texts.map { contains($0, needle) },
                        "round \(round), needle \(needle), pair \(pair)")
                }
            }
        }
    }

    func testTheMostFrequentLetterPairsHaveBitsOfTheirOwn() {
        func features(_ b: [UInt8]) -> [UInt64] {
            var f = ScanFeatures()
            b.withUnsafeBufferPointer { scan_features($0.baseAddress, b.count, &f) }
            return [f.bits.0, f.bits.1, f.bits.2, f.bits.3, f.bits.4]
        }
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        let pairs = letters.flatMap { a in letters.map { b in [a, b] } }
        let exact = pairs.filter { p in p.withUnsafeBufferPointer { scan_needle_is_exact($0.baseAddress!, 2) } }
        XCTAssertEqual(exact.count, 64)
        for p in ["an", "th", "ch", "er", "ll"] { XCTAssertTrue(exact.contains(Array(p.utf8)), p) }
        for p in ["zo", "qx", "a1"] {
            XCTAssertFalse(Array(p.utf8).withUnsafeBufferPointer { scan_needle_is_exact($0.baseAddress!, 2) }, p)
        }
        XCTAssertFalse(Array("ann".utf8).withUnsafeBufferPointer { scan_needle_is_exact($0.baseAddress!, 3) })
        // Each has one pair bit, shared with no other pair of letters.
        var seen = Set<[UInt64]>()
        for p in exact {
            var bits = features(p)
            let bytes = zip(features([p[0]]), features([p[1]])).map { $0 | $1 }
            bits = zip(bits, bytes).map { $0 & ~$1 }
            XCTAssertEqual(bits.map(\.nonzeroBitCount).reduce(0, +), 1, String(decoding: p, as: UTF8.self))
            XCTAssertTrue(seen.insert(bits).inserted, String(decoding: p, as: UTF8.self))
        }
        for p in pairs where !exact.contains(p) {
            let bytes = zip(features([p[0]]), features([p[1]])).map { $0 | $1 }
            XCTAssertFalse(seen.contains(zip(features(p), bytes).map { $0 & ~$1 }), String(decoding: p, as: UTF8.self))
        }
    }

    func testAMatchAcrossTwoTextsIsNone() {
        let layout = Layout([Array("xxab".utf8), Array("cdyy".utf8), Array("abcd".utf8)])
        XCTAssertEqual(mark(layout, Array("abcd".utf8), pair: 1), [false, false, true])
        XCTAssertEqual(mark(layout, Array("bc".utf8), pair: 0), [false, false, true])
    }

    func testLongTextsAreSearchedToTheirEnd() {
        // Past the many-positions-a-step part of the scan, and at the very end of the buffer.
        for length in [31, 32, 33, 47, 64, 100, 257] {
            var t = [UInt8](repeating: 0x61, count: length)
            t[length - 3] = 0x35
            t[length - 2] = 0x35
            t[length - 1] = 0x37
            let layout = Layout([t, Array("557".utf8), t])
            XCTAssertEqual(mark(layout, Array("557".utf8), pair: 0), [true, true, true], "length \(length)")
            XCTAssertEqual(mark(layout, Array("a557".utf8), pair: 0), [true, false, true], "length \(length)")
            XCTAssertEqual(mark(layout, Array("5575".utf8), pair: 1), [false, false, false], "length \(length)")
        }
    }

    func testEmptyTextsAndAnInvalidPairAreHarmless() {
        let layout = Layout([[], Array("a".utf8), [], Array("aa".utf8), []])
        XCTAssertEqual(mark(layout, Array("a".utf8), pair: 0), [false, true, false, true, false])
        XCTAssertEqual(
            mark(layout, Array("aa".utf8), pair: 1), [false, false, false, false, false], "a pair past the needle's end marks nothing")
        XCTAssertEqual(mark(layout, [], pair: 0), [false, false, false, false, false])
    }

    func testFeaturesHoldEveryByteAndPair() {
        func features(_ s: String) -> [UInt64] {
            var f = ScanFeatures()
            let b = Array(s.utf8)
            b.withUnsafeBufferPointer { scan_features($0.baseAddress, b.count, &f) }
            return [f.bits.0, f.bits.1, f.bits.2, f.bits.3, f.bits.4]
        }
        let text = features("müller\nanna@example.org\n5551234")
        for needle in ["m", "ü", "ll", "a@e", "org", "555", "1234", "r\na"] {
            let n = features(needle)
            XCTAssertTrue(zip(n, text).allSatisfy { $0 & $1 == $0 }, needle)
        }
        XCTAssertNotEqual(features("a"), features("b"), "lower-case letters have bits of their own")
        XCTAssertFalse(zip(features("q"), text).allSatisfy { $0 & $1 == $0 }, "a letter the text lacks")
    }
}
