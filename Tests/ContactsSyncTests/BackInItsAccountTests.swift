import ContactsCore
import ContactsStore
import Foundation
import StoredDuplicates
import XCTest

@testable import ContactsSync

/// A synced contact brought back (undelete, undo of a deletion or of a merge, undo of a
/// deletion a sync brought) goes back to its account, and the next sync puts its card back,
/// with the same UID, on a real vdir.
final class BackInItsAccountTests: XCTestCase {
    var dir = ""
    var vdir: String { dir + "/book" }
    var store: ContactStore!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "back-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        store = try ContactStore(path: dir + "/contacts.sqlite3")
        try store.addAccount(
            SyncAccount(name: "khard", url: vdir, addressBookURL: URL(fileURLWithPath: vdir, isDirectory: true).absoluteString))
        for (uid, name, tel) in [
            ("kate", "Kate Bell", "555-0101"), ("khard", "Khard Person", "555-0102"), ("anna", "Anna Haro", "555-0103"),
        ] {
            try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nTEL:\(tel)\r\nEND:VCARD\r\n".utf8)
                .write(to: URL(fileURLWithPath: "\(vdir)/\(uid).vcf"))
        }
        _ = try sync()
    }

    override func tearDown() {
        store?.close()
        try? FileManager.default.removeItem(atPath: dir)
    }

    @discardableResult
    func sync() throws -> SyncReport {
        try SyncEngine(store: store).sync(try store.account(named: "khard"), with: VdirBackend(directory: vdir))
    }

    func contact(_ text: String) throws -> Contact {
        try XCTUnwrap(try store.query(ContactQuery(text: text)).contacts.first, text)
    }

    /// The UIDs of the cards in the vdir.
    func uidsInVdir() throws -> Set<String> {
        var out = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: vdir) where name.hasSuffix(".vcf") {
            let text = try String(contentsOfFile: vdir + "/" + name, encoding: .utf8)
            for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("UID:") { out.insert(String(line.dropFirst(4))) }
        }
        return out
    }

    func testAnUndeletedContactGoesBackToItsAccountAfterItsCardWasDeleted() throws {
        let khard = try contact("khard person")
        _ = try store.delete(ids: [khard.id])
        XCTAssertEqual(try sync().uploaded.deleted, 1)
        XCTAssertEqual(try uidsInVdir(), ["kate", "anna"])
        _ = try store.undelete(ids: [khard.id])
        XCTAssertEqual(try store.contact(id: khard.id).account, "khard", "back in its account, not this machine only")
        XCTAssertEqual(try store.trash().contacts.count, 0)
        try sync()
        XCTAssertEqual(try uidsInVdir(), ["kate", "anna", "khard"], "the next sync puts its card back, same UID")
        XCTAssertEqual(try sync().uploaded, SyncReport.Counts(), "and then it is in step")
    }

    func testUndoOfADeletionPutsTheCardBackEvenWhenTheSyncRanBetween() throws {
        let khard = try contact("khard person")
        _ = try store.delete(ids: [khard.id])
        try sync()
        _ = try store.undo()  // the sync wrote no contact: the deletion is the latest operation
        XCTAssertEqual(try store.contact(id: khard.id).account, "khard")
        try sync()
        XCTAssertEqual(try uidsInVdir(), ["kate", "anna", "khard"])
    }

    func testAnUndeleteBeforeTheSyncKeepsTheCardWhereItIs() throws {
        let khard = try contact("khard person")
        let before = try FileManager.default.contentsOfDirectory(atPath: vdir).sorted()
        _ = try store.delete(ids: [khard.id])
        _ = try store.undelete(ids: [khard.id])
        try sync()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: vdir).sorted(), before, "the same file, no second card")
        XCTAssertEqual(try store.contact(id: khard.id).account, "khard")
    }

    func testUndoOfADeletionASyncBroughtPutsTheCardBack() throws {
        let anna = try contact("anna")
        try FileManager.default.removeItem(atPath: vdir + "/anna.vcf")
        XCTAssertEqual(try sync().downloaded.deleted, 1)
        let op = try XCTUnwrap(try store.operations().first { $0.origin == "sync:khard" })
        _ = try store.undo(operation: op.id)
        XCTAssertEqual(try store.contact(id: anna.id).account, "khard")
        try sync()
        XCTAssertEqual(try uidsInVdir(), ["kate", "anna", "khard"])
    }

    func testUndoOfAMergeOfSyncedContactsPutsBothCardsBack() throws {
        let kate = try contact("kate"), anna = try contact("anna")
        _ = try store.merge(ids: [kate.id, anna.id], into: kate.id)
        try sync()
        XCTAssertEqual(try uidsInVdir(), ["kate", "khard"])
        _ = try store.undo()
        XCTAssertEqual(try store.contact(id: anna.id).account, "khard")
        XCTAssertEqual(try store.contact(id: kate.id).account, "khard")
        try sync()
        XCTAssertEqual(try uidsInVdir(), ["kate", "anna", "khard"])
        let card = try String(contentsOfFile: vdir + "/kate.vcf", encoding: .utf8)
        XCTAssertTrue(card.contains("555-0101"), card)
        XCTAssertFalse(card.contains("555-0103"), "kate's card is hers again, without anna's number:\n\(card)")
    }

    func testARevertedContactStaysInItsAccountAndItsCardFollows() throws {
        let kate = try contact("kate")
        _ = try store.update(id: kate.id) { $0.title = "Producer" }
        try sync()
        let reverted = try store.revert(id: kate.id, to: kate.revision)
        XCTAssertEqual(reverted.account, "khard")
        XCTAssertEqual(try sync().uploaded.updated, 1)
        XCTAssertFalse(try String(contentsOfFile: vdir + "/kate.vcf", encoding: .utf8).contains("Producer"))
    }

    func testAContactWhoseAccountWasRemovedComesBackToThisMachine() throws {
        let khard = try contact("khard person")
        _ = try store.delete(ids: [khard.id])
        try sync()
        _ = try store.removeAccount(name: "khard")
        _ = try store.undelete(ids: [khard.id])
        XCTAssertNil(try store.contact(id: khard.id).account)
    }
}

/// Two accounts of one book would adopt each other's contacts: the second is refused.
final class OneBookOneAccountTests: XCTestCase {
    func testAnAddressBookIsOneAccountsHoweverItsURLIsWritten() throws {
        let dir = NSTemporaryDirectory() + "book-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try ContactStore(path: dir + "/contacts.sqlite3")
        defer { store.close() }
        try store.addAccount(SyncAccount(name: "work", url: "https://dav.example/", addressBookURL: "https://dav.example/books/kate/"))
        for same in ["https://DAV.example:443/books/kate", "https://dav.example/books/kate//"] {
            XCTAssertThrowsError(try store.addAccount(SyncAccount(name: "again", url: same, addressBookURL: same))) { error in
                XCTAssertTrue("\(error)".contains("is already the account 'work'"), "\(error)")
            }
        }
        try store.addAccount(
            SyncAccount(name: "home", url: "https://dav.example/", addressBookURL: "https://dav.example/books/kate-home/"))
        XCTAssertEqual(try store.accounts().map(\.name), ["home", "work"])
    }
}
