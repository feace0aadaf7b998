import ContactsSupport
import Foundation
import XCTest

/// The queue and the worker pool that stand in for Dispatch's: work in order, work due later
/// at its time and in its order, cancelled work never run, and every index of a fork-join run
/// once, also from inside a worker.
final class TaskQueueTests: XCTestCase {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ s: String) { lock.withLock { entries.append(s) } }
        var all: [String] { lock.withLock { entries } }
    }

    func testWorkRunsInOrderAndWorkDueLaterAtItsTime() {
        let q = TaskQueue(label: "test")
        let log = Log()
        let started = Date()
        let done = expectation(description: "all")
        q.after(seconds: 0.3) { log.add("late") }
        q.after(seconds: 0.1) { log.add("soon") }
        for i in 0..<3 { q.async { log.add("now \(i)") } }
        let cancelled = q.after(seconds: 0.2) { log.add("cancelled") }
        cancelled.cancel()
        q.after(seconds: 0.35) { done.fulfill() }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(log.all, ["now 0", "now 1", "now 2", "soon", "late"])
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.35)
    }

    func testSyncWaitsForTheWorkBeforeItAndReturnsItsResult() {
        let q = TaskQueue(label: "test-sync")
        let log = Log()
        q.async {
            usleep(50_000)
            log.add("first")
        }
        let n = q.sync { () -> Int in
            log.add("sync")
            return 42
        }
        XCTAssertEqual(n, 42)
        XCTAssertEqual(log.all, ["first", "sync"])
    }

    func testEveryIndexRunsOnceAlsoFromInsideAWorker() {
        final class Counts: @unchecked Sendable {
            let lock = NSLock()
            var seen: [Int: Int] = [:]
            func add(_ i: Int) { lock.withLock { seen[i, default: 0] += 1 } }
        }
        for iterations in [0, 1, 2, 7, 1000] {
            let counts = Counts()
            WorkerPool.shared.perform(iterations: iterations) { counts.add($0) }
            XCTAssertEqual(counts.seen.count, iterations)
            XCTAssertTrue(counts.seen.values.allSatisfy { $0 == 1 })
        }
        // Nested: every worker busy with an outer index that forks again; no one waits forever.
        let inner = Counts()
        WorkerPool.shared.perform(iterations: 16) { outer in
            WorkerPool.shared.perform(iterations: 16) { inner.add(outer * 16 + $0) }
        }
        XCTAssertEqual(inner.seen.count, 256)
        let finished = expectation(description: "async")
        WorkerPool.shared.async { finished.fulfill() }
        wait(for: [finished], timeout: 5)
    }
}
