import ContactsSupport
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

    final class Running: @unchecked Sendable {
        let lock = NSLock()
        var now = 0
        var most = 0
        func begin() {
            lock.withLock {
                now += 1; most = max(most, now)
            }
        }
        func end() { lock.withLock { now -= 1 } }
    }

    func testOverlappedWorkComesBackInOrderWithAtMostSoManyUnfinished() {
        let running = Running()
        let work = Overlapped<[Int]>(ahead: 3)
        for i in 0..<100 {
            work.run {
                running.begin()
                usleep(UInt32.random(in: 0...500))  // finishing out of order
                running.end()
                return [i, -i]
            }
        }
        XCTAssertEqual(work.results(), (0..<100).map { [$0, -$0] })
        XCTAssertLessThanOrEqual(running.most, 3)
        XCTAssertEqual(Overlapped<Int>(ahead: 1).results(), [])
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

    /// Which thread made each item and which freed what was given back for it.
    final class Threads: @unchecked Sendable {
        let lock = NSLock()
        var maker: [Int: pthread_t] = [:]
        var freer: [Int: pthread_t] = [:]
        func record(_ i: Int, made: Bool) {
            lock.lock()
            if made { maker[i] = pthread_self() } else { freer[i] = pthread_self() }
            lock.unlock()
        }
    }

    final class Token: @unchecked Sendable {
        let i: Int
        let threads: Threads
        init(_ i: Int, _ threads: Threads) { (self.i, self.threads) = (i, threads) }
        deinit { threads.record(i, made: false) }
    }

    func testWhatIsGivenBackIsFreedByTheWorkerThatMadeIt() {
        let threads = Threads()
        let count = 300, window = 2
        let pipeline = OrderedPipeline(count: count, window: window, workers: 2) { i -> Token in
            threads.record(i, made: true)
            usleep(UInt32.random(in: 0...200))
            return Token(i, threads)
        }
        var i = 0
        while let token = pipeline.next() {
            pipeline.giveBack(consume token)
            i += 1
        }
        XCTAssertEqual(i, count)
        // Everything is freed in the end, the last ones perhaps elsewhere.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            threads.lock.lock()
            let freed = threads.freer.count
            threads.lock.unlock()
            if freed == count { break }
            usleep(1000)
        }
        threads.lock.lock()
        defer { threads.lock.unlock() }
        XCTAssertEqual(threads.freer.count, count)
        XCTAssertEqual(Set(threads.maker.values).count, 2, "both workers made items")
        // While items remain to be started, every worker is still running: what comes back
        // before then is freed by its maker, never by the consumer.
        for k in 0..<(count - window - 1) {
            XCTAssertEqual(threads.freer[k], threads.maker[k], "item \(k)")
            XCTAssertNotEqual(threads.freer[k], pthread_self(), "item \(k)")
        }
    }

    /// What `Parallel.free` lets go of leaves the pool thread's allocator cache too: the cache
    /// is handed back on that thread once the value is gone.
    func testWhatIsFreedInTheBackgroundIsHandedBackFromThatThreadsCache() {
        final class Freed: @unchecked Sendable {
            let lock = NSLock()
            var events: [(String, pthread_t)] = []
            func note(_ what: String) { lock.withLock { events.append((what, pthread_self())) } }
        }
        final class Value: Sendable {
            let freed: Freed
            init(_ freed: Freed) { self.freed = freed }
            deinit { freed.note("freed") }
        }
        let freed = Freed()
        ThreadCache.use { freed.note("flushed") }
        defer { ThreadCache.use {} }
        Parallel.free(Value(freed))
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && freed.lock.withLock({ freed.events.count }) < 2 { usleep(1_000) }
        let events = freed.lock.withLock { freed.events }
        XCTAssertEqual(events.map(\.0), ["freed", "flushed"])
        if events.count == 2 { XCTAssertTrue(pthread_equal(events[0].1, events[1].1) != 0, "flushed on the thread that freed it") }
    }
}
