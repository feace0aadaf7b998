import ContactsCore
import Foundation
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

    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var started = 0
        var maxAhead = 0
        var taken = 0
        func start() -> Void {
            lock.lock()
            started += 1
            maxAhead = max(maxAhead, started - taken)
            lock.unlock()
        }
        func take() {
            lock.lock()
            taken += 1
            lock.unlock()
        }
    }

    func testAPipelineHandsOutEveryResultInOrderAndWorksAtMostAWindowAhead() {
        for workers in [0, 1, 2, 4] {
            let tally = Tally()
            let pipeline = OrderedPipeline(count: 200, window: 3, workers: workers) { i -> Int in
                tally.start()
                usleep(UInt32.random(in: 0...300))  // finishing out of order
                return i * i
            }
            var got: [Int] = []
            while let v = pipeline.next() {
                got.append(v)
                tally.take()
            }
            XCTAssertEqual(got, (0..<200).map { $0 * $0 }, "\(workers) workers")
            XCTAssertLessThanOrEqual(tally.maxAhead, workers == 0 ? 1 : 3 + 1, "\(workers) workers")
            XCTAssertNil(pipeline.next(), "nothing after the last")
        }
    }

    func testACancelledPipelineStartsNothingMore() {
        let tally = Tally()
        let pipeline = OrderedPipeline(count: 10_000, window: 2, workers: 2) { i -> Int in
            tally.start()
            return i
        }
        XCTAssertEqual(pipeline.next(), 0)
        pipeline.cancel()
        usleep(50_000)
        tally.lock.lock()
        let started = tally.started
        tally.lock.unlock()
        XCTAssertLessThanOrEqual(started, 4)
    }
}
