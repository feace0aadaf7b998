import ContactsCore
import XCTest

final class ParallelTests: XCTestCase {
    func testChunksCoverEveryItemOnceInOrder() {
        for count in [0, 1, 7, 1999, 2000, 2001, 100_003] {
            let ranges = Parallel.chunks(count, minimum: 2000) { $0 }
            XCTAssertEqual(ranges.first?.lowerBound, 0, "\(count)")
            XCTAssertEqual(ranges.last?.upperBound, count, "\(count)")
            for (a, b) in zip(ranges, ranges.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound, "\(count)") }
            XCTAssertEqual(ranges.count, count < 2000 ? 1 : Parallel.parts(for: count, minimum: 2000), "\(count)")
            XCTAssertEqual(Parallel.chunks(count, minimum: 2000) { Array($0) }.flatMap { $0 }, Array(0..<count))
        }
    }
}
