import CardDAV
import ContactsCore
import ContactsStore
import ContactsSync
import Foundation
import TestSupport
import XCTest

/// A card the server moves to another name with the same UID (deleted at one, put at the
/// other: a webmail, or vdirsyncer restoring a card under a name of its own) stays the same
/// contact here, with its id, its history and its local edits, and syncs on.
final class CardMoveTests: ScratchDirectoryTestCase {
    override var scratchPrefix: String { "card-move" }

    func card(_ extra: String = "") -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1\r\nFN:Kate Bell\r\nN:Bell;Kate;;;\r\nTEL:555-1\r\n\(extra)END:VCARD\r\n"
    }

    func eachServer(_ body: (DAVServer, ContactStore, () throws -> SyncReport) throws -> Void) throws {
        for kind in DAVServer.Kind.real {
            let server = try DAVServer(kind)
            defer { server.stop() }
            let store = try ContactStore(path: "\(dir)/\(kind.rawValue).sqlite3")
            defer { store.close() }
            try store.addAccount(
                SyncAccount(name: "dav", url: server.root.absoluteString, addressBookURL: server.addressBook.absoluteString))
            let http = HTTPClient(credentials: .basic(user: server.user, password: server.password), for: server.root, timeout: 10)
            let book = AddressBookClient(url: server.addressBook, http: http)
            let engine = SyncEngine(store: store)
            try body(server, store) { try engine.sync(try store.account(named: "dav"), with: book) }
        }
    }

    /// Deletes the card at `from` and puts it, as `card`, at `to`, as another client would.
    func move(_ server: DAVServer, from: String, to: String, _ card: String) throws {
        XCTAssertLessThan(try server.request("DELETE", server.addressBook.appendingPathComponent(from)).status, 300)
        XCTAssertLessThan(try server.put(to, card).status, 300, "\(server.kind)")
    }

    func testACardMovedToAnotherNameIsTheSameContact() throws {
        try eachServer { server, store, sync in
            try server.put("kate.vcf", card())
            _ = try sync()
            let kate = try XCTUnwrap(try store.query(ContactQuery(text: "kate")).contacts.first)
            try move(server, from: "kate.vcf", to: "4fbe8971.vcf", card("NOTE:restored\r\n"))
            let r = try sync()
            XCTAssertEqual(r.errors, [], "\(server.kind): \(r)")
            XCTAssertEqual(r.downloaded.deleted, 0, "\(server.kind): a move is no deletion: \(r)")
            XCTAssertEqual(try store.query(ContactQuery()).total, 1)
            XCTAssertFalse(try store.isTrashed(id: kate.id), "\(server.kind)")
            XCTAssertEqual(try store.contact(id: kate.id).note, "restored", "\(server.kind): the same id, the card's new content")
            XCTAssertGreaterThan(try store.history(id: kate.id).count, 1, "its history goes on")
            XCTAssertEqual(try store.syncItems(account: "dav").map { $0.href.hasSuffix("/4fbe8971.vcf") }, [true])
            // And it syncs on as any card.
            _ = try store.update(id: kate.id) { $0.title = "Producer" }
            XCTAssertEqual(try sync().uploaded.updated, 1, "\(server.kind)")
            let there = String(
                decoding: try server.request("GET", server.addressBook.appendingPathComponent("4fbe8971.vcf")).body, as: UTF8.self)
            XCTAssertTrue(there.contains("Producer") && there.contains("restored"), "\(server.kind): \(there)")
        }
    }

    func testAMovedCardWithAnEditPendingHereIsMergedAndSentToItsNewName() throws {
        try eachServer { server, store, sync in
            try server.put("kate.vcf", card())
            _ = try sync()
            let kate = try XCTUnwrap(try store.query(ContactQuery(text: "kate")).contacts.first)
            _ = try store.update(id: kate.id) { $0.title = "Producer" }
            try move(server, from: "kate.vcf", to: "4fbe8971.vcf", card("NOTE:restored\r\n"))
            let r = try sync()
            XCTAssertEqual(r.errors, [], "\(server.kind): \(r)")
            XCTAssertEqual(r.merged, 1, "\(server.kind): \(r)")
            let here = try store.contact(id: kate.id)
            XCTAssertEqual([here.title, here.note], ["Producer", "restored"], "\(server.kind)")
            let there = String(
                decoding: try server.request("GET", server.addressBook.appendingPathComponent("4fbe8971.vcf")).body, as: UTF8.self)
            XCTAssertTrue(there.contains("Producer") && there.contains("restored"), "\(server.kind): \(there)")
            XCTAssertEqual(try store.pendingItems(account: "dav"), [], "\(server.kind): nothing stays pending")
            let again = try sync()
            XCTAssertEqual([again.uploaded, again.downloaded], [SyncReport.Counts(), SyncReport.Counts()], "\(server.kind): \(again)")
            XCTAssertEqual(try server.request("GET", server.addressBook.appendingPathComponent("kate.vcf")).status, 404)
        }
    }
}
