import ContactsSupport
import Foundation
import XCTest

final class IdentifierTests: XCTestCase {
    func testIdsAreUppercaseVersion7UUIDs() throws {
        let id = Identifier.make()
        XCTAssertEqual(id.count, 36)
        XCTAssertEqual(id, id.uppercased())
        let uuid = try XCTUnwrap(UUID(uuidString: id), "\(id) is a UUID")
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        XCTAssertEqual(bytes[6] >> 4, 7, "version 7")
        XCTAssertEqual(bytes[8] >> 6, 0b10, "RFC 9562 variant")
        // The first 48 bits are the time in milliseconds.
        let millis = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        XCTAssertLessThanOrEqual(millis, now + 1)
        XCTAssertGreaterThan(millis + 60_000, now)
    }

    func testIdsMadeOneAfterAnotherSortInThatOrderAndNeverRepeat() {
        // Far more than one millisecond's worth of sequence numbers.
        let ids = (0..<50_000).map { _ in Identifier.make() }
        XCTAssertEqual(Set(ids).count, ids.count)
        XCTAssertEqual(ids, ids.sorted(), "each id sorts after the one made before it")
    }

    func testIdsMadeOnManyThreadsAtOnceNeverRepeat() {
        final class Bag: @unchecked Sendable {
            let lock = NSLock()
            var all: [String] = []
        }
        let bag = Bag()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let mine = (0..<5000).map { _ in Identifier.make() }
            bag.lock.lock()
            bag.all += mine
            bag.lock.unlock()
        }
        XCTAssertEqual(Set(bag.all).count, 40_000)
    }
}
