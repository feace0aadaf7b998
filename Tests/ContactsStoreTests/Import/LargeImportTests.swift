import ContactsCore
import Foundation
import ScanKernel
import XCTest

@testable import ContactsStore

/// Large imports, and the name order that the search index alone keeps.
final class LargeImportTests: StoreTestCase {
    /// As many contacts as an import of a real address book of some size.
    static let large = 20_000

    func indexes() throws -> [String] {
        let db = try Database(path: databasePath, readOnly: true)
        let s = try db.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'contacts' AND sql IS NOT NULL ORDER BY name")
        var names: [String] = []
        while try s.step() { names.append(s.text(0)) }
        return names
    }

    /// Named so that the table's order (the import's) is the reverse of the name order.
    func items(_ n: Int, from start: Int = 0) -> [ImportItem] {
        (start..<(start + n)).map { i in
            var c = Contact(name: "Person \(String(format: "%06d", n + start - 1 - i))")
            c.uid = "uid-\(i)"
            return ImportItem(contact: c, carriesGroups: false, carriesFavorite: false)
        }
    }

    func testListsAndExportsComeInNameOrderWithNoSQLIndexByName() throws {
        XCTAssertEqual(
            try indexes(),
            [
                "contacts_by_created", "contacts_by_favorite", "contacts_by_photo", "contacts_by_state", "contacts_by_updated",
                "contacts_collected",
            ])
        var asked = 0
        XCTAssertThrowsError(
            try store.importContacts(
                items(Self.large),
                isCancelled: {
                    asked += 1; return asked > 3
                }))
        XCTAssertEqual(try store.counts().contacts, 0)
        _ = try store.importContacts(items(Self.large))
        // A store opened afresh loads its search index from the table, which holds the
        // contacts in the reverse of their name order.
        store.close()
        store = try ContactStore(path: databasePath)
        func names(_ sort: [ContactQuery.Sort] = [.init(.name)], limit: Int, offset: Int = 0) throws -> [String] {
            var q = ContactQuery(limit: limit, offset: offset)
            q.sort = sort
            return try store.query(q).contacts.map(\.name)
        }
        XCTAssertEqual(try names(limit: 3), ["Person 000000", "Person 000001", "Person 000002"])
        XCTAssertEqual(try names([.init(.name, ascending: false)], limit: 2), ["Person 019999", "Person 019998"])
        XCTAssertEqual(try names(limit: 2, offset: 10_000), ["Person 010000", "Person 010001"])
        // A second sort key goes to SQL, which sorts by name without an index.
        XCTAssertEqual(try names([.init(.name), .init(.createdAt)], limit: 2), ["Person 000000", "Person 000001"])
        let exported = try store.exportContacts(ids: nil).map(\.name)
        XCTAssertEqual(exported.count, Self.large)
        XCTAssertEqual(exported, exported.sorted())
        var streamed: [String] = []
        XCTAssertEqual(try store.exportEach({ $0.map(\.name) }, consume: { streamed += $0 }), Self.large)
        XCTAssertEqual(streamed, exported)
    }

    /// A file that holds the same card twice creates the contact, then updates it, in one
    /// write: searches find it once, as the later card has it, whether the index takes the
    /// write in place or is rebuilt for it.
    func testACardTwiceInOneImportIsFoundOnce() throws {
        _ = try store.query(ContactQuery(limit: 1))  // the index is loaded
        for n in [3, 400] {
            var cards = items(n, from: n * 10)
            var again = cards[0].contact
            let first = again.name
            again.name = "Twice \(n)"
            cards.append(ImportItem(contact: again, carriesGroups: false, carriesFavorite: false))
            let outcomes = try store.importContacts(cards)
            XCTAssertEqual(outcomes.filter { if case .updated = $0 { true } else { false } }.count, 1)
            let page = try store.query(ContactQuery(text: "twice \(n)", limit: 5))
            XCTAssertEqual(page.total, 1, "n = \(n)")
            XCTAssertEqual(page.contacts.map(\.name), ["Twice \(n)"])
            XCTAssertEqual(try store.query(ContactQuery(text: first, limit: 5)).total, 0, "the first card's name is gone")
            XCTAssertEqual(try store.query(ContactQuery(limit: 0)).total, try store.counts().contacts, "n = \(n)")
        }
    }

    func testTheIndexLoadsInTheOrderOfKeysWhateverTheirFirstBytes() {
        // Keys that share their first eight bytes, keys shorter than eight, and keys that
        // differ only in length: ordered by their bytes, equal keys by rowid. Enough of them
        // to be sorted in two halves at once and merged.
        var generator = SystemRandomNumberGenerator()
        var keys: [[UInt8]] = ["", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgh\u{0}", "\u{7F}", "é"].map { Array($0.utf8) }
        for _ in 0..<60_000 {
            let n = Int.random(in: 0...12, using: &generator)
            keys.append((0..<n).map { _ in [0, 0x61, 0x62, 0xC3, 0xFF].randomElement(using: &generator)! })
        }
        var buffer: [UInt8] = []
        var slots: [ScanSlot] = []
        // Rowids against the order the keys came in, so that a tie is not settled by chance.
        let rowids = keys.indices.map { Int64(keys.count - $0) }
        // Half the keys are the start of their text, half stand apart, as in an index.
        var texts: [UInt8] = []
        for (n, (k, rowid)) in zip(keys, rowids).enumerated() {
            var slot = ScanSlot(rowid: rowid, favorite: false, collected: false)
            let text = n % 2 == 0 ? k + Array(" more".utf8) : Array("other".utf8)
            text.withUnsafeBytes { t in k.withUnsafeBytes { slot.place(text: t, key: $0, &texts, &buffer) } }
            XCTAssertEqual(slot.keyInText, n % 2 == 0 || k.isEmpty || Array("other".utf8).starts(with: k))
            slots.append(slot)
        }
        let order = texts.withUnsafeBytes { t in buffer.withUnsafeBytes { SearchIndex.nameOrder(slots, texts: t, keys: $0) } }
        let expected = keys.indices.sorted { a, b in
            keys[a].lexicographicallyPrecedes(keys[b]) || (keys[a] == keys[b] && rowids[a] < rowids[b])
        }
        XCTAssertEqual(order, expected)
    }

    /// A large import's commit leaves the copy of its log into the database to a moment
    /// later: the database file, which held none of the import's pages, then holds them all.
    func testALargeImportsLogIsCopiedIntoTheDatabaseSoonAfter() throws {
        func size(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
        let before = size(databasePath)
        _ = try store.importContacts(items(Self.large))
        let log = size(databasePath + "-wal")
        XCTAssertGreaterThan(log, 1 << 20, "the import's pages went to the log")
        var copied = false
        for _ in 0..<100 where !copied {
            copied = size(databasePath) > before + log / 2
            if !copied { usleep(50_000) }
        }
        XCTAssertTrue(copied, "the database file grew from \(before) bytes to \(size(databasePath)); the log holds \(log)")
        XCTAssertEqual(try store.counts().contacts, Self.large)
        XCTAssertEqual(try store.query(ContactQuery(text: "person 000007", limit: 5)).contacts.map(\.name), ["Person 000007"])
    }

    /// An export of everyone made in blocks on all cores while rows are read gives the
    /// contacts of a plain read, in the same order.
    func testExportInBlocksKeepsTheOrderOfAPlainRead() throws {
        _ = try store.importContacts(items(2_500))
        var blocks: [[String]] = []
        let count = try store.exportEach({ contacts in contacts.map { "\($0.id) \($0.name) \($0.vcardProperties?.count ?? -1)" } }) {
            blocks.append($0)
        }
        XCTAssertEqual(count, 2_500)
        XCTAssertEqual(blocks.map(\.count), [1000, 1000, 500])
        let plain = try store.exportContacts(ids: nil).map { "\($0.id) \($0.name) \($0.vcardProperties?.count ?? -1)" }
        XCTAssertEqual(blocks.flatMap { $0 }, plain)
        XCTAssertEqual(plain.first?.split(separator: " ").dropFirst().first, "Person")
    }

    /// A consumer that fails (a full disk) ends the export there, with the work under way
    /// finished and nothing more made.
    func testAFailingConsumerEndsTheExport() throws {
        _ = try store.importContacts(items(5_000))
        struct Full: Error {}
        var taken = 0
        XCTAssertThrowsError(
            try store.exportEach(blockSize: 100, { $0.count }) { _ in
                taken += 1
                if taken == 3 { throw Full() }
            }
        ) { XCTAssertTrue($0 is Full) }
        XCTAssertEqual(taken, 3)
        // The store still reads and writes.
        XCTAssertEqual(try store.counts().contacts, 5_000)
        _ = try store.importContacts(items(5_001))
        XCTAssertEqual(try store.counts().contacts, 5_001)
    }

    /// Two readings of one snapshot see the same contacts, though a write lands between them.
    func testASnapshotReadTwiceSeesTheSameContacts() throws {
        _ = try store.importContacts(items(1_500))
        let (first, second) = try store.exportSnapshot { snapshot -> (Int, Int) in
            let first = try snapshot.each({ $0.count }, consume: { _ in })
            _ = try store.importContacts(items(1_600))
            return (first, try snapshot.each({ $0.count }, consume: { _ in }))
        }
        XCTAssertEqual([first, second], [1_500, 1_500])
        XCTAssertEqual(try store.counts().contacts, 1_600)
    }
}
