import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation
import XCTest

/// Every change of a contact keeps the state it replaced: the history lists the changes,
/// an earlier revision can be read, and a revert brings it back as a new revision.
final class HistoryTests: StoreTestCase {
    func testEveryChangeIsListedWithItsFieldsOriginAndOperation() throws {
        let kate = try add("Kate Bell", phones: ["555-1"], groups: ["Work"])
        _ = try store.update(id: kate.id) { $0.title = "Producer" }
        _ = try store.update(id: kate.id) {
            $0.phones = [LabeledValue(value: "555-2")]; $0.note = "new number"
        }
        _ = try store.addMembers(try store.createGroup(name: "Band").id, contactIDs: [kate.id])
        let h = try store.history(id: kate.id)
        XCTAssertEqual(h.map(\.revision), [4, 3, 2, 1])
        XCTAssertEqual(h.map(\.change), ["updated", "updated", "updated", "created"])
        XCTAssertEqual(h[0].fields, ["groups"])
        XCTAssertEqual(h[1].fields, ["phones", "note"])
        XCTAssertEqual(h[2].fields, ["title"])
        XCTAssertEqual(Set(h[3].fields), ["name", "phones", "groups"])
        XCTAssertTrue(h.allSatisfy { $0.origin == "rpc" && $0.operation != nil })
        XCTAssertEqual(Set(h.compactMap(\.operation)).count, 4, "each write is an operation of its own")
        XCTAssertEqual(try store.history(id: kate.id, limit: 2).count, 2)
        XCTAssertThrowsError(try store.history(id: "nobody"))
    }

    func testAnEarlierRevisionReadsAsItWasAndARevertMakesItNew() throws {
        let kate = try add("Kate Bell", phones: ["555-1"], groups: ["Work"])
        _ = try store.update(id: kate.id) {
            $0.name = "Kate Bell-Jones"; $0.groups = ["Band"]; $0.favorite = true
        }
        let r1 = try store.contact(id: kate.id, revision: 1)
        XCTAssertEqual(r1.name, "Kate Bell")
        XCTAssertEqual(r1.groups, ["Work"])
        XCTAssertEqual(r1.phones.map(\.value), ["555-1"])
        XCTAssertFalse(r1.favorite)
        XCTAssertThrowsError(try store.contact(id: kate.id, revision: 7))
        XCTAssertThrowsError(try store.revert(id: kate.id, to: 1, ifRevision: 1)) { e in
            guard case .conflict = e as? StoreError else { return XCTFail("\(e)") }
        }
        let back = try store.revert(id: kate.id, to: 1, ifRevision: 2)
        XCTAssertGreaterThan(back.revision, 2, "a new revision")
        XCTAssertEqual(back.name, "Kate Bell")
        XCTAssertEqual(back.groups, ["Work"])
        XCTAssertFalse(back.favorite)
        XCTAssertEqual(try search("jones"), [])
        XCTAssertEqual(try store.history(id: kate.id).first?.fields, ["name", "favorite", "groups"])
        XCTAssertEqual(try store.contact(id: kate.id, revision: 2).name, "Kate Bell-Jones", "the reverted state stays in the history")
    }

    func testAChangeASyncMadeIsListedWithItsAccountAndReverted() throws {
        let kate = try add("Kate Bell", phones: ["555-1"])
        _ = try store.update(id: kate.id, origin: "sync:phone") {
            $0.phones = [LabeledValue(value: "555-9")]; $0.title = "Producer"
        }
        let h = try store.history(id: kate.id)
        XCTAssertEqual(h.first?.origin, "sync:phone")
        XCTAssertEqual(h.first?.fields, ["phones", "title"])
        let back = try store.revert(id: kate.id, to: 1)
        XCTAssertEqual(back.phones.map(\.value), ["555-1"])
        XCTAssertNil(back.title)
        XCTAssertEqual(try store.history(id: kate.id).first?.origin, "rpc", "a revert is a local change, for the next sync to send")
    }

    func testADeletedContactsHistoryEndsInItsDeletionAndAnImportSaysWhereItCameFrom() throws {
        var c = Contact(name: "Anna Haro")
        c.uid = "urn:uuid:anna"
        _ = try store.importContacts([ImportItem(contact: c, carriesGroups: false, carriesFavorite: false)], origin: "import:people.vcf")
        let anna = try XCTUnwrap(try store.query(ContactQuery()).contacts.first)
        _ = try store.delete(ids: [anna.id])
        let h = try store.history(id: anna.id)
        XCTAssertEqual(h.map(\.change), ["deleted", "created"])
        XCTAssertEqual(h.map(\.origin), ["rpc", "import:people.vcf"])
        XCTAssertEqual(try store.contact(id: anna.id, revision: 1).name, "Anna Haro", "readable from the trash")
        _ = try store.undelete(ids: [anna.id])
        XCTAssertEqual(try store.history(id: anna.id).first?.change, "restored")
    }

    func testAStoreThatKeepsNoHistoryRecordsNothing() throws {
        store.keepsHistory = false
        let kate = try add("Kate Bell")
        _ = try store.update(id: kate.id) { $0.title = "Producer" }
        XCTAssertEqual(try store.history(id: kate.id), [])
        XCTAssertThrowsError(try store.contact(id: kate.id, revision: 1))
    }
}

/// History retention, with a clock the test controls.
final class HistoryRetentionTests: StoreTestCase {
    let day: Int64 = 86_400_000

    func testChangesOlderThanTheRetentionGoAndTheMakingStays() throws {
        let kate = try add("Kate Bell")
        for t in ["A", "B", "C"] { _ = try store.update(id: kate.id) { $0.title = t } }
        XCTAssertEqual(try store.history(id: kate.id).count, 4)
        XCTAssertEqual(try store.pruneHistory(HistoryRetention(days: 30), now: Timestamp.now() + 29 * day), 0, "not old enough yet")
        XCTAssertEqual(try store.pruneHistory(HistoryRetention(days: 30), now: Timestamp.now() + 31 * day), 3)
        XCTAssertEqual(try store.history(id: kate.id).map(\.change), ["created"], "its making is its row's")
        XCTAssertThrowsError(try store.contact(id: kate.id, revision: 2))
        XCTAssertEqual(try store.contact(id: kate.id).title, "C", "the contact itself is untouched")
    }

    func testTheOldestGoFirstWhenTheHistoryIsOverItsSize() throws {
        let kate = try add("Kate Bell")
        let note = String(repeating: "x", count: 300 << 10)
        for i in 0..<5 { _ = try store.update(id: kate.id) { $0.note = note + "\(i)" } }
        let gone = try store.pruneHistory(HistoryRetention(days: 30, maxBytes: 1 << 20))
        XCTAssertGreaterThan(gone, 0)
        let kept = try store.history(id: kate.id).filter { $0.change == "updated" }.map(\.revision)
        XCTAssertEqual(kept.first, 6, "the latest is kept")
        XCTAssertTrue((2...3).contains(kept.count), "as many as fit in 1 MiB: \(kept)")
        XCTAssertEqual(kept, kept.sorted(by: >))
    }

    func testAPhotoOnlyTheHistoryRefersToStaysUntilItIsPruned() throws {
        let kate = try add("Kate Bell")
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 500)
        let photo = PhotoData(bytes: bytes, mimeType: "image/jpeg")
        _ = try store.setPhoto(id: kate.id, photo)
        _ = try store.removePhoto(id: kate.id)
        XCTAssertNotNil(store.photoBytes(photo.hash), "revision 2 had it")
        XCTAssertEqual(try store.revert(id: kate.id, to: 2).photo?.hash, photo.hash)
        _ = try store.removePhoto(id: kate.id)
        try store.pruneHistory(HistoryRetention(days: 1), now: Timestamp.now() + 2 * day)
        XCTAssertNil(store.photoBytes(photo.hash), "nobody refers to it any more")
    }
}

/// Whole operations undone: an import, a delete, a group's removal; an undo of an undo.
final class UndoTests: StoreTestCase {
    func people(_ names: [String]) -> [ImportItem] {
        names.map { n in
            var c = Contact(name: n)
            c.uid = "urn:uuid:" + n.lowercased().replacingOccurrences(of: " ", with: "-")
            return ImportItem(contact: c, carriesGroups: false, carriesFavorite: false)
        }
    }

    func testAnImportIsUndoneInOneCallAndTheOthersAreUntouched() throws {
        let kate = try add("Kate Bell")
        _ = try store.importContacts(people(["Anna Haro", "John Appleseed"]), origin: "import:people.vcf")
        let ops = try store.operations()
        XCTAssertEqual(ops.first?.origin, "import:people.vcf")
        XCTAssertEqual(ops.first?.summary, "2 contacts created")
        let r = try store.undo()
        XCTAssertEqual(r.undone.id, ops.first?.id)
        XCTAssertEqual(r.by?.origin, "undo")
        XCTAssertEqual(try store.query(ContactQuery()).contacts.map(\.name), ["Kate Bell"])
        XCTAssertEqual(Set(try store.trash().contacts.map(\.contact.name)), ["Anna Haro", "John Appleseed"])
        XCTAssertEqual(try store.contact(id: kate.id).revision, 1)
        // The undo is an operation too: redo undoes it, which brings them back.
        _ = try store.redo()
        XCTAssertEqual(try store.query(ContactQuery()).total, 3)
        XCTAssertEqual(try store.trash().total, 0)
    }

    func testAnEditAndADeleteAreUndone() throws {
        let kate = try add("Kate Bell", groups: ["Work"])
        _ = try store.update(id: kate.id) {
            $0.title = "Producer"; $0.groups = ["Band"]
        }
        _ = try store.undo()
        let back = try store.contact(id: kate.id)
        XCTAssertNil(back.title)
        XCTAssertEqual(back.groups, ["Work"])
        XCTAssertGreaterThan(back.revision, 2, "a new revision")
        _ = try store.delete(ids: [kate.id])
        _ = try store.undo()
        XCTAssertEqual(try store.contact(id: kate.id).name, "Kate Bell")
    }

    func testAGroupDeleteIsUndoneWithItsMemberships() throws {
        let kate = try add("Kate Bell", groups: ["Work"])
        let work = try store.group("Work")
        try store.deleteGroup("Work")
        XCTAssertEqual(try store.contact(id: kate.id).groups, [])
        _ = try store.undo()
        XCTAssertEqual(try store.group("Work").id, work.id, "the same group, under its id")
        XCTAssertEqual(try store.contact(id: kate.id).groups, ["Work"])
    }

    func testAnUndoIsRefusedAfterALaterChangeUnlessForced() throws {
        _ = try store.importContacts(people(["Anna Haro"]))
        let importOp = try XCTUnwrap(try store.operations().first?.id)
        let anna = try XCTUnwrap(try store.query(ContactQuery()).contacts.first)
        _ = try store.update(id: anna.id) { $0.note = "later" }
        XCTAssertThrowsError(try store.undo(operation: importOp)) { e in
            guard case .changedSince(_, let ids) = e as? StoreError else { return XCTFail("\(e)") }
            XCTAssertEqual(ids, [anna.id])
        }
        XCTAssertEqual(try store.query(ContactQuery()).total, 1, "nothing was done")
        _ = try store.undo(operation: importOp, force: true)
        XCTAssertEqual(try store.query(ContactQuery()).total, 0)
        XCTAssertThrowsError(try store.undo(operation: 999_999))
    }

    func testUndoAgainStepsBackAndRedoGoesForward() throws {
        let kate = try add("Kate Bell")
        _ = try store.update(id: kate.id) { $0.title = "Producer" }
        _ = try store.update(id: kate.id) { $0.note = "Met in 2019" }
        let (made, titled, noted) = try { () throws -> (Int64, Int64, Int64) in
            let ops = try store.operations().map(\.id)
            return (ops[2], ops[1], ops[0])
        }()
        XCTAssertEqual(try store.undo().undone.id, noted)
        XCTAssertEqual(try store.undo().undone.id, titled, "a second undo steps back, it does not redo the first")
        var now = try store.contact(id: kate.id)
        XCTAssertNil(now.title)
        XCTAssertNil(now.note)
        XCTAssertEqual(try store.redo().redone.id, titled)
        XCTAssertEqual(try store.contact(id: kate.id).title, "Producer")
        XCTAssertEqual(try store.redo().redone.id, noted)
        now = try store.contact(id: kate.id)
        XCTAssertEqual(now.note, "Met in 2019")
        XCTAssertEqual(now.title, "Producer")
        XCTAssertThrowsError(try store.redo()) { XCTAssertTrue("\($0)".contains("nothing to redo"), "\($0)") }
        // Undo after a redo takes the redone operation back again.
        XCTAssertEqual(try store.undo().undone.id, noted)
        XCTAssertNil(try store.contact(id: kate.id).note)
        XCTAssertEqual(try store.undo().undone.id, titled)
        XCTAssertEqual(try store.undo().undone.id, made)
        XCTAssertEqual(try store.query(ContactQuery()).total, 0)
        XCTAssertThrowsError(try store.undo()) { XCTAssertTrue("\($0)".contains("nothing to undo"), "\($0)") }
    }

    func testAnEarlierOperationIsUndoneAfterALaterOnesUndoWithoutForce() throws {
        let kate = try add("Kate Bell")
        _ = try store.update(id: kate.id) { $0.title = "Producer" }
        _ = try store.update(id: kate.id) { $0.title = "Director" }
        let ops = try store.operations().map(\.id)
        _ = try store.undo(operation: ops[0])
        XCTAssertEqual(try store.contact(id: kate.id).title, "Producer")
        _ = try store.undo(operation: ops[1])
        XCTAssertNil(try store.contact(id: kate.id).title, "no force: the later change was undone")
        XCTAssertThrowsError(try store.undo(operation: ops[1])) { e in
            XCTAssertTrue("\(e)".contains("is undone already"), "\(e)")
        }
        // A later change that stands still refuses it, and says how to force it.
        _ = try store.redo()
        _ = try store.update(id: kate.id) { $0.note = "later" }
        XCTAssertThrowsError(try store.undo(operation: ops[2])) { e in
            XCTAssertTrue("\(e)".contains("force (--force) undoes it all the same"), "\(e)")
        }
    }
}

/// A backup holds the history and the trash; a restore brings both back.
final class HistoryBackupTests: StoreTestCase {
    func testBackupAndRestoreCarryHistoryAndTrash() throws {
        let kate = try add("Kate Bell")
        _ = try store.update(id: kate.id) { $0.title = "Producer" }
        let anna = try add("Anna Haro")
        _ = try store.delete(ids: [anna.id])
        let file = dir + "/backup.sqlite3"
        XCTAssertEqual(try store.backup(to: file), 1)
        _ = try store.undo()  // Anna back
        _ = try store.update(id: kate.id) { $0.title = "Director" }
        XCTAssertEqual(try store.restore(from: file), 1)
        XCTAssertEqual(try store.contact(id: kate.id).title, "Producer")
        XCTAssertEqual(try store.history(id: kate.id).map(\.revision), [2, 1])
        XCTAssertNil(try store.contact(id: kate.id, revision: 1).title)
        XCTAssertEqual(try store.trash().contacts.map(\.contact.name), ["Anna Haro"])
        XCTAssertEqual(try store.undelete(ids: [anna.id]).restored, [anna.id])
    }

    func testARestoreIsListedAndUndoPutsTheReplacedStoreBack() throws {
        let anna = try add("Anna Haro")
        let file = dir + "/backup.sqlite3"
        try store.backup(to: file)
        let kate = try add("Kate Bell")
        _ = try store.update(id: anna.id) { $0.note = "after the backup" }
        XCTAssertEqual(try store.restore(from: file), 1)
        let restore = try XCTUnwrap(try store.operations().first)
        XCTAssertEqual(restore.origin, "restore", "listed in the changes")
        XCTAssertEqual(restore.summary, "the store replaced with the backup backup.sqlite3")
        // Undo, right after: the store as it was before the restore, not the backup's last edit undone.
        let undone = try store.undo()
        XCTAssertEqual(undone.undone.id, restore.id)
        XCTAssertEqual(Set(try names(ContactQuery())), ["Anna Haro", "Kate Bell"])
        XCTAssertEqual(try store.contact(id: anna.id).note, "after the backup")
        XCTAssertEqual(try store.contact(id: kate.id).name, "Kate Bell")
        // Redo restores the backup again, and undo takes that back in turn.
        XCTAssertEqual(try store.redo().redone.id, restore.id)
        XCTAssertEqual(try names(ContactQuery()), ["Anna Haro"])
        XCTAssertEqual(try store.undo().undone.id, restore.id)
        XCTAssertEqual(Set(try names(ContactQuery())), ["Anna Haro", "Kate Bell"])
        // Only the latest replaced stores are kept.
        for _ in 0..<ContactStore.keptStores + 2 { try store.restore(from: file) }
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir + "/restores")
        XCTAssertEqual(kept.count, ContactStore.keptStores, "\(kept)")
    }
}
