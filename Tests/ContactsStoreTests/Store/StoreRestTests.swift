import ContactsCore
import Foundation
import XCTest

@testable import ContactsStore

/// A store at rest: once quiet, it lets go of its cached contacts, idle connections and page
/// caches, and reads as before afterwards.
final class StoreRestTests: StoreTestCase {
    final class Count: @unchecked Sendable {
        let lock = NSLock()
        var value = 0
        func add() { lock.withLock { value += 1 } }
        var now: Int { lock.withLock { value } }
    }

    func testAQuietStoreRestsOnceAndReadsAsBeforeAfterwards() throws {
        let ids = try (0..<200).map { try add("Person \($0)", emails: ["p\($0)@example.org"]).id }
        let rests = Count()
        store.restWhenQuiet(after: 100) { rests.add() }
        for id in ids { _ = try store.contact(id: id) }
        XCTAssertEqual(store.memory().cachedContacts, 200)
        XCTAssertGreaterThan(store.memory().sqliteBytes, 0)
        // Reads every 40 ms keep it awake.
        for _ in 0..<5 {
            usleep(40_000)
            _ = try store.contact(id: ids[0])
        }
        XCTAssertEqual(rests.now, 0, "reads kept coming")
        let deadline = Date().addingTimeInterval(5)
        while rests.now == 0 && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(rests.now, 1)
        XCTAssertEqual(store.memory().cachedContacts, 0)
        // Quiet goes on, and nothing more runs.
        usleep(300_000)
        XCTAssertEqual(rests.now, 1)
        XCTAssertEqual(try store.contact(id: ids[7]).name, "Person 7")
        XCTAssertEqual(try store.query(ContactQuery(text: "person 19")).total, 11)
        // A read started the wait again.
        while rests.now == 1 && Date() < deadline.addingTimeInterval(5) { usleep(20_000) }
        XCTAssertEqual(rests.now, 2)
        store.restWhenQuiet(after: nil)
    }

    /// A read longer than the wait for quiet (an export of everyone) rests after it ends: the
    /// connection it held, busy when the first rest came, is closed too.
    func testAReadLongerThanTheWaitRestsAfterItEnds() throws {
        _ = try add("Kate Bell", emails: ["kate@example.org"])
        let rests = Count()
        store.restWhenQuiet(after: 100) { rests.add() }
        defer { store.restWhenQuiet(after: nil) }
        try store.read { db in
            _ = db
            usleep(400_000)
        }
        XCTAssertEqual(store.pool.withLock { $0.idle.count }, 1, "the long read's connection is back in the pool")
        let deadline = Date().addingTimeInterval(5)
        while store.pool.withLock({ $0.idle.count }) > 0 && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(store.pool.withLock { $0.idle.count }, 0, "and closed by a rest after the read")
        XCTAssertGreaterThanOrEqual(rests.now, 2, "one rest during the read, one after it")
    }
}
