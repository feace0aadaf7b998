import ContactsCore
import Foundation
import XCTest

@testable import ContactsStore

/// A large import drops the ordering indexes and makes them again within its transaction.
final class LargeImportTests: StoreTestCase {
    func orderIndexes() throws -> [String] {
        let db = try Database(path: databasePath, readOnly: true)
        let s = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('contacts_by_sort_key', 'contacts_by_created', 'contacts_by_updated') ORDER BY name")
        var names: [String] = []
        while try s.step() { names.append(s.text(0)) }
        return names
    }

    func items(_ n: Int, from start: Int = 0) -> [ImportItem] {
        (start..<(start + n)).map { i in
            var c = Contact(name: "Person \(String(format: "%06d", n + start - 1 - i))")
            c.uid = "uid-\(i)"
            return ImportItem(contact: c, carriesGroups: false, carriesFavorite: false)
        }
    }

    func testTheOrderingIndexesAreThereAfterALargeImportAndAfterOneRolledBack() throws {
        let all = ["contacts_by_created", "contacts_by_sort_key", "contacts_by_updated"]
        XCTAssertEqual(try orderIndexes(), all)
        var asked = 0
        XCTAssertThrowsError(try store.importContacts(items(ContactStore.indexRebuildMinimum), isCancelled: { asked += 1; return asked > 3 }))
        XCTAssertEqual(try orderIndexes(), all, "a rolled-back import leaves the indexes as they were")
        XCTAssertEqual(try store.counts().contacts, 0)
        _ = try store.importContacts(items(ContactStore.indexRebuildMinimum))
        XCTAssertEqual(try orderIndexes(), all)
        // Lists in name order come from the sort-key index while the search index is not loaded.
        let first = try store.query(ContactQuery(limit: 3)).contacts.map(\.name)
        XCTAssertEqual(first, ["Person 000000", "Person 000001", "Person 000002"])
        // The planner uses the index (no temporary sort) for that list.
        let db = try Database(path: databasePath, readOnly: true)
        let plan = try db.prepare("EXPLAIN QUERY PLAN SELECT id FROM contacts ORDER BY sort_key, name, id LIMIT 3")
        var steps: [String] = []
        while try plan.step() { steps.append(plan.text(3)) }
        XCTAssertTrue(steps.contains { $0.contains("contacts_by_sort_key") }, "\(steps)")
    }

    /// A large import's commit leaves the copy of its log into the database to a moment
    /// later: the database file, which held none of the import's pages, then holds them all.
    func testALargeImportsLogIsCopiedIntoTheDatabaseSoonAfter() throws {
        func size(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
        let before = size(databasePath)
        _ = try store.importContacts(items(ContactStore.indexRebuildMinimum))
        let log = size(databasePath + "-wal")
        XCTAssertGreaterThan(log, 1 << 20, "the import's pages went to the log")
        var copied = false
        for _ in 0..<100 where !copied {
            copied = size(databasePath) > before + log / 2
            if !copied { usleep(50_000) }
        }
        XCTAssertTrue(copied, "the database file grew from \(before) bytes to \(size(databasePath)); the log holds \(log)")
        XCTAssertEqual(try store.counts().contacts, ContactStore.indexRebuildMinimum)
        XCTAssertEqual(try store.query(ContactQuery(text: "person 000007", limit: 5)).contacts.map(\.name), ["Person 000007"])
    }

    /// An export of everyone made in blocks on all cores while rows are read gives the
    /// contacts of a plain read, in the same order.
    func testExportInBlocksKeepsTheOrderOfAPlainRead() throws {
        _ = try store.importContacts(items(2_500))
        let blocks = try store.exportEach { contacts in contacts.map { "\($0.id) \($0.name) \($0.vcardProperties?.count ?? -1)" } }
        XCTAssertEqual(blocks.count, 3)
        let plain = try store.exportContacts(ids: nil).map { "\($0.id) \($0.name) \($0.vcardProperties?.count ?? -1)" }
        XCTAssertEqual(blocks.flatMap { $0 }, plain)
        XCTAssertEqual(plain.first?.split(separator: " ").dropFirst().first, "Person")
    }
}
