import CardDAV
import ContactsCore
import ContactsStore
import ContactsSync
import Foundation
import TestSupport
import XCTest

/// Syncs through a proxy that loses answers and says 503, in front of the real servers.
final class SyncFaultTests: XCTestCase {
    func eachServer(_ body: (DAVServer, FaultProxy, ContactStore, SyncEngine, AddressBookClient) throws -> Void) throws {
        for kind in DAVServer.Kind.real {
            let server = try DAVServer(kind)
            defer { server.stop() }
            let proxy = try FaultProxy(upstreamPort: server.port)
            defer { proxy.stop() }
            let dir = NSTemporaryDirectory() + "sync-fault-" + UUID().uuidString.prefix(8)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let store = try ContactStore(path: dir + "/contacts.sqlite3")
            defer { store.close() }
            let book = proxy.url(server.addressBook)
            try store.addAccount(SyncAccount(name: "dav", url: book.absoluteString, addressBookURL: book.absoluteString))
            let http = HTTPClient(
                credentials: .basic(user: server.user, password: server.password), for: proxy.url(server.root), timeout: 10)
            try body(server, proxy, store, SyncEngine(store: store), AddressBookClient(url: book, http: http))
        }
    }

    func testAnUploadWhoseAnswerWasLostIsNotSentTwice() throws {
        try eachServer { server, proxy, store, engine, book in
            let kate = try store.create(Contact(name: "Kate Bell"))
            _ = try store.addToAccount("dav", ids: [kate.id]) { book.hrefForNewCard(uid: $0.uid) }
            proxy.inject(.loseAnswer(method: "PUT"))
            XCTAssertThrowsError(try engine.sync(try store.account(named: "dav"), with: book), "\(server.kind): the answer never came") {
                e in
                XCTAssertTrue((e as? DAVError)?.isTransient ?? false, "\(e)")
            }
            XCTAssertEqual(try book.listing().count, 1, "\(server.kind): the card did land")
            XCTAssertEqual(try store.intents(account: "dav").count, 1, "and the journal knows it was sent")
            let r = try engine.sync(try store.account(named: "dav"), with: book)
            XCTAssertEqual(r.uploaded.created, 0, "\(server.kind): not sent again: \(r)")
            XCTAssertEqual(r.errors, [])
            XCTAssertEqual(try book.listing().count, 1, "\(server.kind): one card")
            XCTAssertEqual(try store.intents(account: "dav"), [])
            _ = try store.update(id: kate.id) { $0.title = "Producer" }
            XCTAssertEqual(try engine.sync(try store.account(named: "dav"), with: book).uploaded.updated, 1, "and it syncs on as any card")
        }
    }

    func testAnEditMadeElsewhereAfterAFailedUploadIsMergedNotOverwritten() throws {
        try eachServer { server, proxy, store, engine, book in
            let card = { (extra: String) in
                "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nN:Bell;Kate;;;\r\nTEL:555-1\r\n\(extra)END:VCARD\r\n"
            }
            try server.put("kate.vcf", card(""))
            _ = try engine.sync(try store.account(named: "dav"), with: book)
            let kate = try XCTUnwrap(try store.query(ContactQuery(text: "kate")).contacts.first)
            _ = try store.update(id: kate.id) { $0.title = "Producer" }
            proxy.inject(.unavailable(method: "PUT", retryAfter: "1"))
            XCTAssertThrowsError(try engine.sync(try store.account(named: "dav"), with: book), "\(server.kind): the PUT was refused")
            XCTAssertEqual(try store.intents(account: "dav").count, 1, "the journal keeps the write that was not seen through")
            // Another client changes the same card meanwhile, as it should: with If-Match.
            let etag = try server.request("GET", server.addressBook.appendingPathComponent("kate.vcf")).headers["etag"] ?? ""
            XCTAssertLessThan(try server.put("kate.vcf", card("NOTE:met in Lisbon\r\n"), headers: ["If-Match": etag]).status, 300)
            let r = try engine.sync(try store.account(named: "dav"), with: book)
            XCTAssertEqual(r.merged, 1, "\(server.kind): the other client's change is merged with ours: \(r)")
            XCTAssertEqual(r.errors, [])
            let here = try store.contact(id: kate.id)
            XCTAssertEqual(here.note, "met in Lisbon", "\(server.kind)")
            XCTAssertEqual(here.title, "Producer")
            let there = String(
                decoding: try server.request("GET", server.addressBook.appendingPathComponent("kate.vcf")).body, as: UTF8.self)
            XCTAssertTrue(there.contains("met in Lisbon") && there.contains("Producer"), "\(server.kind): both on the server: \(there)")
            XCTAssertEqual(try store.intents(account: "dav"), [])
            XCTAssertEqual(try store.pendingItems(account: "dav"), [], "nothing left to send")
        }
    }

    func testANewContactWhoseAnswerWasLostDoesNotAdoptACardSomeoneElsePutThere() throws {
        try eachServer { server, proxy, store, engine, book in
            var new = Contact(name: "Kate Bell")
            new.title = "Producer"
            let kate = try store.create(new)
            _ = try store.addToAccount("dav", ids: [kate.id]) { book.hrefForNewCard(uid: $0.uid) }
            let href = try XCTUnwrap(try store.pendingItems(account: "dav").first?.href)
            proxy.inject(.loseAnswer(method: "PUT"))
            XCTAssertThrowsError(try engine.sync(try store.account(named: "dav"), with: book), "\(server.kind): the answer never came")
            // Someone else writes over it at that name (vdirsyncer restoring the card it had).
            let url = try XCTUnwrap(URL(string: href, relativeTo: server.addressBook)?.absoluteURL)
            let etag = try server.request("GET", url).headers["etag"] ?? ""
            let theirs = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(kate.uid)\r\nFN:Kate Bell\r\nN:Bell;Kate;;;\r\nNOTE:restored\r\nEND:VCARD\r\n"
            let put = try server.request(
                "PUT", url, headers: ["If-Match": etag, "Content-Type": "text/vcard; charset=utf-8"], body: Data(theirs.utf8))
            XCTAssertLessThan(put.status, 300, "\(server.kind)")
            let r = try engine.sync(try store.account(named: "dav"), with: book)
            XCTAssertEqual(r.errors, [], "\(server.kind): \(r)")
            let here = try store.contact(id: kate.id)
            XCTAssertEqual(here.note, "restored", "\(server.kind): their card is merged in")
            XCTAssertEqual(here.title, "Producer", "\(server.kind): ours is kept")
            let there = String(decoding: try server.request("GET", url).body, as: UTF8.self)
            XCTAssertTrue(there.contains("restored") && there.contains("Producer"), "\(server.kind): \(there)")
            XCTAssertEqual(try book.listing().count, 1)
        }
    }

    func testAServerThatFallsSilentIsGivenUpAndTheNextSyncGoesOn() throws {
        try eachServer { server, proxy, store, _, _ in
            try server.put("kate.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nEND:VCARD\r\n")
            let book = proxy.url(server.addressBook)
            let impatient = AddressBookClient(
                url: book, http: HTTPClient(credentials: .basic(user: server.user, password: server.password), for: book, timeout: 1))
            let engine = SyncEngine(store: store)
            proxy.inject(.slow(method: "REPORT", seconds: 4))
            let started = Date()
            XCTAssertThrowsError(try engine.sync(try store.account(named: "dav"), with: impatient), "\(server.kind)") { e in
                XCTAssertTrue((e as? DAVError)?.isTransient ?? false, "\(e)")
                XCTAssertTrue("\(e)".contains("no answer in time"), "\(e)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(started), 3.5, "given up after its timeout, not the server's silence")
            XCTAssertEqual(try store.query(ContactQuery()).total, 0)
            XCTAssertNil(try store.account(named: "dav").syncToken)
            XCTAssertEqual(try engine.sync(try store.account(named: "dav"), with: impatient).downloaded.created, 1, "\(server.kind)")
        }
    }

    func testA503SaysWhenToComeBackAndChangesNothing() throws {
        try eachServer { server, proxy, store, engine, book in
            try server.put("kate.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nEND:VCARD\r\n")
            proxy.inject(.unavailable(method: "REPORT", retryAfter: "120"))
            XCTAssertThrowsError(try engine.sync(try store.account(named: "dav"), with: book)) { e in
                guard case .status(503, _, _, let retryAfter)? = e as? DAVError else { return XCTFail("\(e)") }
                XCTAssertEqual(retryAfter, 120)
            }
            XCTAssertEqual(try store.query(ContactQuery()).total, 0)
            XCTAssertNotNil(try store.account(named: "dav").lastError)
            XCTAssertEqual(try engine.sync(try store.account(named: "dav"), with: book).downloaded.created, 1, "\(server.kind)")
            XCTAssertNil(try store.account(named: "dav").lastError)
        }
    }

    func testRetryAfterAsAnHTTPDate() {
        let later = Date().addingTimeInterval(300)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let r = HTTPResponse(status: 503, headers: ["retry-after": f.string(from: later)], body: Data(), url: URL(fileURLWithPath: "/"))
        XCTAssertEqual(r.retryAfter ?? 0, 300, accuracy: 2)
    }
}
