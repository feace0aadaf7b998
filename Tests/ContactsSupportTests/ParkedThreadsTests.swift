import ContactsSupport
import Foundation
import XCTest

final class ParkedThreadsTests: XCTestCase {
    /// The id of the thread a job ran on, once it has run.
    func runAndWait(_ pool: ParkedThreads, _ name: String) -> pthread_t {
        let done = DispatchSemaphore(value: 0)
        let ran = Locked<pthread_t?>(nil)
        pool.run(name) {
            ran.withLock { $0 = pthread_self() }
            done.signal()
        }
        done.wait()
        return ran.withLock { $0 } ?? pthread_self()
    }

    func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(5_000)
        }
        return condition()
    }

    func testAThreadWaitsForTheNextJobThenEndsAfterItsLinger() {
        let pool = ParkedThreads(stackSize: 1 << 20, linger: 0.3, maxParked: 2)
        let first = runAndWait(pool, "one")
        XCTAssertTrue(waitUntil(2) { pool.parkedCount == 1 }, "the thread waits for more work")
        let second = runAndWait(pool, "two")
        XCTAssertNotEqual(pthread_equal(first, second), 0, "the parked thread took the next job")
        XCTAssertTrue(waitUntil(2) { pool.parkedCount == 1 })
        XCTAssertTrue(waitUntil(3) { pool.parkedCount == 0 }, "no job came: it ended")
        _ = runAndWait(pool, "three")
    }

    func testNoMoreThanMaxParkedWaitAndJobsAtOnceEachHaveAThread() {
        let pool = ParkedThreads(stackSize: 1 << 20, linger: 5, maxParked: 2)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for i in 0..<4 {
            pool.run("busy-\(i)") {
                started.signal()
                release.wait()
            }
        }
        // All four run at once: each has a thread, none waits for another to finish.
        for _ in 0..<4 { XCTAssertEqual(started.wait(timeout: .now() + 5), .success) }
        for _ in 0..<4 { release.signal() }
        XCTAssertTrue(waitUntil(2) { pool.parkedCount == 2 })
        usleep(100_000)
        XCTAssertEqual(pool.parkedCount, 2, "two park, the others end")
    }
}
