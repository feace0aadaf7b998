import ContactsCore
import ContactsStore
import Foundation
import XCTest

/// Deleted contacts go to the trash whole, come back as they were, and a purge removes them
/// from the files for real.
final class TrashTests: StoreTestCase {
    func testADeletedContactComesBackAsItWasWithItsGroups() throws {
        var draft = Contact(name: "Kate Bell")
        draft.phones = [LabeledValue(value: "(555) 564-8583", label: "mobile")]
        draft.groups = ["Work", "Band"]
        draft.favorite = true
        draft.note = "met at the gig"
        let kate = try store.create(draft)
        let last = try store.contact(id: kate.id)

        XCTAssertEqual(try store.delete(ids: [kate.id]).deleted, [kate.id])
        XCTAssertThrowsError(try store.contact(id: kate.id))
        XCTAssertEqual(try search("kate"), [])
        try store.deleteGroup("Band")
        let trash = try store.trash()
        XCTAssertEqual(trash.total, 1)
        XCTAssertEqual(trash.contacts.first?.contact.name, "Kate Bell")
        XCTAssertEqual(trash.contacts.first?.contact.groups, ["Band", "Work"])
        XCTAssertEqual(trash.contacts.first?.origin, "rpc")

        let r = try store.undelete(ids: [kate.id, "missing"])
        XCTAssertEqual(r.restored, [kate.id])
        XCTAssertEqual(r.notFound, ["missing"])
        var back = try store.contact(id: kate.id)
        XCTAssertEqual(back.revision, last.revision + 2, "the revision after its deletion's")
        let revisions = try store.history(id: kate.id).map(\.revision)
        XCTAssertEqual(revisions, revisions.sorted(by: >), "\(revisions)")
        XCTAssertEqual(Set(revisions).count, revisions.count, "no revision twice: \(revisions)")
        XCTAssertEqual(try store.operations().first?.summary, "1 contact restored, 1 group changed", "its group made again")
        XCTAssertGreaterThanOrEqual(back.updatedAt, last.updatedAt)
        back.revision = last.revision
        back.updatedAt = last.updatedAt
        XCTAssertEqual(back, last, "id, uid, fields, favorite and groups as they were")
        XCTAssertEqual(try store.groups().map(\.name), ["Band", "Work"], "the group deleted meanwhile is made again")
        XCTAssertEqual(try search("kate"), ["Kate Bell"])
        XCTAssertEqual(try store.trash().total, 0)
    }

    func testTheTrashIsSearchedAsContactsAre() throws {
        for name in ["Zoë Ångström", "Kate Bell"] { _ = try add(name) }
        _ = try add("Anna Haro", phones: ["+1 (555) 522-8243"])
        let ids = try store.query(ContactQuery()).contacts.map(\.id)
        _ = try store.delete(ids: ids)
        XCTAssertEqual(try store.trash().total, 3)
        XCTAssertEqual(try store.trash(text: "angstrom").contacts.map(\.contact.name), ["Zoë Ångström"])
        XCTAssertEqual(try store.trash(text: "555-522").contacts.map(\.contact.name), ["Anna Haro"])
        XCTAssertEqual(try store.trash(limit: 2).contacts.count, 2)
        XCTAssertEqual(try store.trash(limit: 2, offset: 2).contacts.count, 1)
    }

    func testAContactWhoseUIDWasTakenMeanwhileDoesNotComeBack() throws {
        var c = Contact(name: "Kate")
        c.uid = "urn:uuid:kate"
        let kate = try store.create(c)
        _ = try store.delete(ids: [kate.id])
        var again = Contact(name: "Kate again")
        again.uid = "urn:uuid:kate"
        _ = try store.create(again)
        XCTAssertThrowsError(try store.undelete(ids: [kate.id])) { e in
            guard case .conflict = e as? StoreError else { return XCTFail("\(e)") }
        }
        XCTAssertEqual(try store.trash().total, 1, "it stays in the trash")
    }

    func testAContactTrashedBeforeTheTrashKeptAccountsStillGoesBackToItsAccount() throws {
        try store.addAccount(SyncAccount(name: "book", url: "https://dav.example/", addressBookURL: "https://dav.example/book/"))
        let kate = try add("Kate Bell")
        _ = try store.addToAccount("book", ids: [kate.id]) { _ in "kate.vcf" }
        try store.recordUpload(
            account: "book", SyncItem(href: "kate.vcf", contactID: kate.id, etag: "\"1\"", card: "x", syncedRevision: 1))
        _ = try store.delete(ids: [kate.id])
        store.close()
        // As schema 20 kept it: a trash without the account; the card not yet deleted there.
        try runPython(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            \(Self.downgradeTo(20))
            """)
        store = try ContactStore(path: databasePath)
        // The sync deletes the card there and forgets it; the trash still knows the account.
        try store.forgetItem(account: "book", href: "kate.vcf")
        XCTAssertEqual(try store.trash().contacts.first?.contact.account, "book")
        _ = try store.undelete(ids: [kate.id])
        XCTAssertEqual(try store.contact(id: kate.id).account, "book")
        XCTAssertEqual(try store.pendingItems(account: "book").map(\.href), ["kate.vcf"], "to be sent again as a new card")
    }

    func testAPurgedNameIsInNeitherTheDatabaseNorItsLog() throws {
        let secret = "Xavier Quintessential-Hollowmere"
        var c = Contact(name: secret)
        c.note = String(repeating: "a long note that goes to an overflow page ", count: 200) + secret
        let x = try store.create(c)
        _ = try add("Kate Bell")
        _ = try store.update(id: x.id) { $0.title = "Spy" }
        _ = try store.delete(ids: [x.id])
        XCTAssertTrue(try filesContain(secret), "in the trash it is still there")
        XCTAssertEqual(try store.purge(ids: nil), 1)
        XCTAssertFalse(try filesContain(secret))
        XCTAssertFalse(try filesContain("Quintessential"))
        XCTAssertEqual(try store.trash().total, 0)
        XCTAssertEqual(try search("kate"), ["Kate Bell"], "the rest is untouched")
    }

    func filesContain(_ text: String) throws -> Bool {
        let needle = Data(text.utf8)
        for path in [databasePath, databasePath + "-wal"] where FileManager.default.fileExists(atPath: path) {
            if try Data(contentsOf: URL(fileURLWithPath: path)).range(of: needle) != nil { return true }
        }
        return false
    }
}
