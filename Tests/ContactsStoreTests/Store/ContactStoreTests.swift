import ContactsCore
import Foundation
import XCTest

@testable import ContactsStore

final class ContactStoreTests: StoreTestCase {
    func testCreate_assignsIdUidRevisionAndTimestamps() throws {
        let c = try add("John Appleseed", phones: ["555-123-4567"], groups: ["Family"])
        XCTAssertEqual(c.id.count, 36)
        XCTAssertTrue(c.uid.hasPrefix("urn:uuid:"))
        XCTAssertEqual(c.revision, 1)
        XCTAssertGreaterThan(c.createdAt, 0)
        XCTAssertEqual(try store.contact(id: c.id), c)
    }

    func testCreate_refusesABlankNameAndStoresNothing() throws {
        XCTAssertThrowsError(try store.create(Contact(name: "  ")))
        XCTAssertEqual(try store.counts().contacts, 0)
    }

    func testCreate_refusesADuplicateUid() throws {
        var c = Contact(name: "A")
        c.uid = "uid-1"
        _ = try store.create(c)
        XCTAssertThrowsError(try store.create(c)) { e in
            guard case .conflict = e as? StoreError else { return XCTFail("\(e)") }
        }
    }

    func testUpdate_increasesTheRevisionOnEveryChangeOnly() throws {
        let c = try add("Kate Bell")
        let u1 = try store.update(id: c.id) { $0.title = "Producer" }
        XCTAssertEqual(u1.revision, 2)
        let same = try store.update(id: c.id) { $0.title = "Producer" }
        XCTAssertEqual(same.revision, 2, "no change, no new revision")
        let fav = try store.setFavorite(id: c.id, true)
        XCTAssertEqual(fav.revision, 3)
        XCTAssertTrue(try store.contact(id: c.id).favorite)
    }

    func testUpdate_withAStaleRevisionIsAConflictAndChangesNothing() throws {
        let c = try add("Kate Bell")
        _ = try store.update(id: c.id, ifRevision: 1) { $0.title = "Producer" }
        XCTAssertThrowsError(try store.update(id: c.id, ifRevision: 1) { $0.title = "CEO" }) { e in
            guard case .conflict(_, let id, let revision) = e as? StoreError else { return XCTFail("\(e)") }
            XCTAssertEqual(id, c.id)
            XCTAssertEqual(revision, 2)
        }
        XCTAssertEqual(try store.contact(id: c.id).title, "Producer")
    }

    func testUpdate_ofAMissingContactIsNotFound() throws {
        XCTAssertThrowsError(try store.update(id: "nope") { $0.title = "x" }) { e in
            guard case .notFound = e as? StoreError else { return XCTFail("\(e)") }
        }
    }

    func testUpdate_keepsSearchInStepWithTheNewValues() throws {
        let c = try add("Kate Bell", emails: ["kate@mac.com"])
        _ = try store.update(id: c.id) {
            $0.name = "Katherine Bellweather"; $0.emails = [LabeledValue(value: "kb@example.org")]
        }
        XCTAssertEqual(try search("kate@mac"), [])
        XCTAssertEqual(try search("bellweather"), ["Katherine Bellweather"])
        XCTAssertEqual(try search("kb@ex"), ["Katherine Bellweather"])
    }

    func testDelete_removesContactsAndReportsUnknownIds() throws {
        let a = try add("Anna Haro", groups: ["Friends"])
        let b = try add("Kate Bell")
        let r = try store.delete(ids: [a.id, "missing"])
        XCTAssertEqual(r.deleted, [a.id])
        XCTAssertEqual(r.notFound, ["missing"])
        XCTAssertEqual(try search("haro"), [])
        XCTAssertEqual(try store.groups().first?.memberCount, 0)
        XCTAssertEqual(try store.contact(id: b.id).name, "Kate Bell")
    }

    func testChanges_areReportedAfterCommitInOrder() throws {
        final class Box: @unchecked Sendable {
            var events: [String] = []
        }
        let box = Box()
        store.setChangeHandler { contacts, groups, _ in
            box.events += contacts.map { "\($0.kind.rawValue) \($0.revision)" } + groups.map { "group \($0.kind.rawValue) \($0.name)" }
        }
        let c = try add("A", groups: ["Work"])
        _ = try store.update(id: c.id) { $0.note = "n" }
        _ = try store.delete(ids: [c.id])
        XCTAssertEqual(box.events, ["created 1", "group created Work", "updated 2", "deleted 3"])
        _ = try? store.update(id: "missing") { $0.note = "n" }
        XCTAssertEqual(box.events.count, 4, "a failed write reports nothing")
    }

    func testALargeImportWithAUIDTwiceStoresTheLaterCardAndReportsOneChangeEach() throws {
        final class Box: @unchecked Sendable {
            var changes: [ContactChange] = []
        }
        let box = Box()
        store.setChangeHandler { contacts, _, _ in box.changes += contacts }
        // Enough items for the row text to be made ahead in blocks, with the repeat in a later block.
        var items = (0..<5000).map { i in
            var c = Contact(name: "Person \(i)")
            c.uid = "uid-\(i)"
            c.emails = [LabeledValue(value: "p\(i)@example.com", label: "home")]
            return ImportItem(contact: c, carriesGroups: false, carriesFavorite: false)
        }
        var again = Contact(name: "Renamed Seventeen")
        again.uid = "uid-17"
        items.append(ImportItem(contact: again, carriesGroups: false, carriesFavorite: false))
        let outcomes = try store.importContacts(items)
        XCTAssertEqual(outcomes.count, 5001)
        guard case .created(let id17) = outcomes[17], case .updated(let updatedID) = outcomes[5000] else {
            return XCTFail("\(outcomes[17]), \(outcomes[5000])")
        }
        XCTAssertEqual(updatedID, id17)
        XCTAssertEqual(try store.contact(id: id17).name, "Renamed Seventeen")
        XCTAssertEqual(try store.contact(id: id17).revision, 2)
        XCTAssertEqual(box.changes.count, 5000, "one change a contact")
        XCTAssertEqual(box.changes.filter { $0.id == id17 }.map(\.kind), [.created])
        XCTAssertEqual(box.changes.filter { $0.id == id17 }.map(\.revision), [2])
        XCTAssertEqual(try search("renamed seventeen"), ["Renamed Seventeen"])
        XCTAssertEqual(try search("p4999@example"), ["Person 4999"])
        XCTAssertEqual(try store.counts().contacts, 5000)
    }

    func testImport_withAnExpectedRevisionWritesOnlyWhenItHolds() throws {
        var kate = Contact(name: "Kate Bell")
        kate.uid = "kate"
        let id = try store.create(kate).id
        _ = try store.update(id: id) { $0.title = "Producer" }
        func item(_ name: String, at revision: Int) -> ImportItem {
            var c = Contact(name: name)
            c.uid = "kate"
            var i = ImportItem(contact: c, carriesGroups: false, carriesFavorite: false)
            i.ifRevision = revision
            return i
        }
        // A client's If-Match of revision 1, after someone else made revision 2: refused, nothing written.
        XCTAssertThrowsError(try store.importContacts([item("Kate Stale", at: 1)])) { e in
            guard case StoreError.conflict(_, _, let current) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(current, 2)
        }
        XCTAssertEqual(try store.contact(id: id).name, "Kate Bell")
        XCTAssertThrowsError(try store.importContacts([item("Kate Again", at: 0)]), "0: only when there is none")
        XCTAssertEqual(try store.importContacts([item("Kate Current", at: 2)]), [.updated(id: id)])
        XCTAssertEqual(try store.contact(id: id).name, "Kate Current")
    }

    func testReopening_keepsEverything() throws {
        let c = try add("Zoë Ångström", phones: ["+47 22 33 44 55"], groups: ["Family"], favorite: true)
        store.close()
        store = try ContactStore(path: databasePath)
        XCTAssertEqual(try store.contact(id: c.id), c)
        XCTAssertEqual(try search("zoe"), ["Zoë Ångström"])
    }

    func testOpening_aFileThatIsNotADatabaseIsRefusedAndLeftAlone() throws {
        let path = dir + "/junk.sqlite3"
        let junk = Data(repeating: 0x41, count: 8192)
        try junk.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ContactStore(path: path)) { e in
            XCTAssertTrue("\(e)".contains("not a contacts database"), "\(e)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), junk)
    }

    func testOpening_aDatabaseFromANewerVersionIsRefused() throws {
        store.close()
        let raw = try ContactStore(path: dir + "/newer.sqlite3")
        raw.close()
        // Pretend a later version wrote it.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "python3", "-c",
            "import sqlite3; c = sqlite3.connect('\(dir)/newer.sqlite3'); c.execute('PRAGMA user_version = 999'); c.commit()",
        ]
        try p.run()
        p.waitUntilExit()
        XCTAssertThrowsError(try ContactStore(path: dir + "/newer.sqlite3")) { e in
            XCTAssertTrue("\(e)".contains("newer"), "\(e)")
        }
    }
}

/// `contact(id:)` answers from memory after the first read: never with something older than
/// the store.
final class ContactCacheTests: StoreTestCase {
    func cached(_ id: String) -> Contact {
        var c = Contact(name: "Person " + id)
        c.id = id
        return c
    }

    func testAContactIsFoundByIdAndRowidUntilAWriteOrTheRingDropsIt() {
        let cache = ContactCache(capacity: 3)
        let g = cache.currentGeneration
        for (rowid, id) in [(1, "a"), (2, "b"), (3, "c")] { cache.put(cached(id), rowid: Int64(rowid), readAt: g) }
        XCTAssertEqual(cache.get("b")?.name, "Person b")
        XCTAssertEqual(cache.get(rowid: 2)?.id, "b")
        // The ring is full: the oldest goes, by id and by rowid.
        cache.put(cached("d"), rowid: 4, readAt: g)
        XCTAssertNil(cache.get("a"))
        XCTAssertNil(cache.get(rowid: 1))
        XCTAssertEqual(cache.get(rowid: 4)?.id, "d")
        // A write drops what it touched, and what was read before it is not kept.
        cache.invalidate(["c"])
        XCTAssertNil(cache.get(rowid: 3))
        cache.put(cached("c"), rowid: 3, readAt: g)
        XCTAssertNil(cache.get("c"), "read before the write")
        // A rowid used again (the last contact deleted, a new one inserted) finds the new one.
        let now = cache.currentGeneration
        cache.invalidate(["d"])
        cache.put(cached("e"), rowid: 4, readAt: cache.currentGeneration)
        XCTAssertEqual(cache.get(rowid: 4)?.id, "e")
        XCTAssertNil(cache.get("d"))
        XCTAssertNotEqual(now, cache.currentGeneration)
        cache.empty()
        XCTAssertEqual(cache.count, 0)
        XCTAssertNil(cache.get(rowid: 2))
    }

    func testARereadContactIsNeverStale() throws {
        let c = try add("Kate Bell", groups: ["Work"])
        XCTAssertEqual(try store.contact(id: c.id).groups, ["Work"])
        _ = try store.update(id: c.id) { $0.title = "Producer" }
        XCTAssertEqual(try store.contact(id: c.id).title, "Producer")
        _ = try store.renameGroup("Work", to: "Office")
        XCTAssertEqual(try store.contact(id: c.id).groups, ["Office"])
        _ = try store.removeMembers("Office", contactIDs: [c.id])
        XCTAssertEqual(try store.contact(id: c.id).groups, [])
        _ = try store.createGroup(name: "Family")
        _ = try store.addMembers("Family", contactIDs: [c.id])
        XCTAssertEqual(try store.contact(id: c.id).groups, ["Family"])
        try store.deleteGroup("Family")
        XCTAssertEqual(try store.contact(id: c.id).groups, [])
        _ = try store.setFavorite(id: c.id, true)
        XCTAssertTrue(try store.contact(id: c.id).favorite)
        let revision = try store.contact(id: c.id).revision
        _ = try store.importContacts([
            ImportItem(
                contact: {
                    var x = try! store.contact(id: c.id); x.note = "imported"; return x
                }(), carriesGroups: false, carriesFavorite: false)
        ])
        XCTAssertEqual(try store.contact(id: c.id).note, "imported")
        XCTAssertEqual(try store.contact(id: c.id).revision, revision + 1)
        let backup = dir + "/backup.sqlite3"
        try store.backup(to: backup)
        _ = try store.update(id: c.id) { $0.note = "after the backup" }
        XCTAssertEqual(try store.contact(id: c.id).note, "after the backup")
        try store.restore(from: backup)
        XCTAssertEqual(try store.contact(id: c.id).note, "imported", "a restore replaces what was read before it")
        _ = try store.delete(ids: [c.id])
        XCTAssertThrowsError(try store.contact(id: c.id))
    }
}
