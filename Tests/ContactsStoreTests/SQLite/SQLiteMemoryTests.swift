import Foundation
import XCTest

@testable import ContactsStore

/// SQLite's heap counted by the store's own allocator: it grows with a page cache that fills
/// and comes back down when the connection closes.
final class SQLiteMemoryTests: XCTestCase {
    func testTheCountFollowsAConnectionsPageCache() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var db: Database? = try Database(path: dir.path + "/count.sqlite3")
        XCTAssertTrue(Database.countsMemory, "the counting allocator is set up before the first connection")
        let opened = Database.memoryUsed
        XCTAssertGreaterThan(opened, 0)
        try db?.execute("PRAGMA cache_size=-65536; CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
        try db?.transaction {
            let insert = try db?.prepare("INSERT INTO t (v) VALUES (?)")
            for k in 0..<20_000 { try insert?.run([.text(String(repeating: "value \(k) ", count: 40))]) }
        }
        let filled = Database.memoryUsed
        // 20,000 rows of ~400 bytes: some 8 MB of pages, all in the cache.
        XCTAssertGreaterThan(filled - opened, 6 << 20)
        db = nil
        XCTAssertLessThan(Database.memoryUsed, filled - (6 << 20), "a closed connection's pages are counted no more")
    }
}
