import CardDAV
import Foundation
import TestSupport
import XCTest

/// The CardDAV client against Radicale and Xandikos, each started for the test: every test
/// runs against both, since they differ where clients go wrong (SYNC.md has the table).
final class AddressBookClientTests: XCTestCase {
    func card(_ uid: String, _ name: String, note: String? = nil) -> Data {
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(name);;;;\r\n"
        if let note { text += "NOTE:\(note)\r\n" }
        return Data((text + "END:VCARD\r\n").utf8)
    }

    func eachServer(_ body: (DAVServer, AddressBookClient) throws -> Void) throws {
        for kind in DAVServer.Kind.real {
            let server = try DAVServer(kind)
            defer { server.stop() }
            let http = HTTPClient(credentials: .basic(user: server.user, password: server.password), for: server.root, timeout: 10)
            try body(server, AddressBookClient(url: server.addressBook, http: http))
        }
    }

    func testTheBookSaysWhatItIsAndItsToken() throws {
        try eachServer { server, book in
            let p = try book.properties()
            XCTAssertTrue(p.isAddressBook, "\(server.kind)")
            XCTAssertTrue(p.supportsSyncCollection, "\(server.kind)")
            XCTAssertNotNil(p.syncToken, "\(server.kind)")
        }
    }

    func testWritesCarryTheirPreconditions() throws {
        try eachServer { server, book in
            let href = book.hrefForNewCard(uid: "urn:uuid:kate-1")
            XCTAssertTrue(href.hasSuffix("/kate-1.vcf"), href)
            guard case .written(let at, let etag) = try book.put(href, card("urn:uuid:kate-1", "Kate Bell"), etag: nil) else {
                return XCTFail("\(server.kind): not written")
            }
            XCTAssertEqual(at, href)
            // A second "new" card at the same place is refused: someone made it first.
            XCTAssertEqual(try book.put(href, card("urn:uuid:kate-1", "Kate Other"), etag: nil), .preconditionFailed, "\(server.kind)")
            let current = try XCTUnwrap(try book.get(href))
            XCTAssertTrue(String(decoding: current.data, as: UTF8.self).contains("Kate Bell"), "\(server.kind)")
            let tag = try XCTUnwrap(etag ?? current.etag)
            XCTAssertEqual(try book.put(href, card("urn:uuid:kate-1", "Kate Bell", note: "x"), etag: "\"stale\""), .preconditionFailed)
            guard case .written(_, let newTag) = try book.put(href, card("urn:uuid:kate-1", "Kate Bell", note: "x"), etag: tag) else {
                return XCTFail("\(server.kind): the edit with the right tag was refused")
            }
            XCTAssertEqual(try book.delete(href, etag: "\"stale\""), .preconditionFailed, "\(server.kind)")
            _ = try book.delete(href, etag: newTag ?? book.get(href)?.etag)
            XCTAssertNil(try book.get(href), "\(server.kind)")
        }
    }

    func testChangesSinceATokenAreTheChangesAndAnUnknownTokenIsSaidSo() throws {
        try eachServer { server, book in
            for i in 1...3 { _ = try book.put(book.hrefForNewCard(uid: "p\(i)"), card("p\(i)", "Person \(i)"), etag: nil) }
            let all = try book.changes(since: nil)
            XCTAssertEqual(Set(all.changed.map(\.href)), Set((1...3).map { book.hrefForNewCard(uid: "p\($0)") }), "\(server.kind)")
            XCTAssertTrue(all.changed.allSatisfy { $0.etag != nil })
            let token = try XCTUnwrap(all.token)
            XCTAssertTrue(try book.changes(since: token).changed.isEmpty, "\(server.kind): nothing since")
            // Another device edits one and deletes another.
            let edited = book.hrefForNewCard(uid: "p1")
            let tag = try book.get(edited)?.etag
            _ = try book.put(edited, card("p1", "Person 1", note: "edited"), etag: tag)
            _ = try book.delete(book.hrefForNewCard(uid: "p2"), etag: nil)
            let since = try book.changes(since: token)
            XCTAssertEqual(since.changed.map(\.href), [edited], "\(server.kind)")
            XCTAssertEqual(since.removed, [book.hrefForNewCard(uid: "p2")], "\(server.kind)")
            XCTAssertNotEqual(since.token, token)
            // Radicale says 403, Xandikos 412: both are an unknown token.
            XCTAssertThrowsError(try book.changes(since: "http://example.com/bogus/token-1")) { e in
                XCTAssertTrue(AddressBookClient.isInvalidToken(try! XCTUnwrap(e as? DAVError)), "\(server.kind): \(e)")
            }
        }
    }

    func testTheChangesCanBringTheCardsThemselvesInOneRequest() throws {
        try eachServer { server, book in
            for i in 1...3 { _ = try book.put(book.hrefForNewCard(uid: "p\(i)"), card("p\(i)", "Person \(i)"), etag: nil) }
            let before = book.http.requests
            var cards: [RemoteCard] = []
            let all = try book.changes(since: nil) {
                cards.append($0); return true
            }
            XCTAssertEqual(book.http.requests - before, 1, "\(server.kind)")
            XCTAssertEqual(all.changed.count, 3, "\(server.kind)")
            XCTAssertNotNil(all.token)
            guard server.kind == .radicale else {
                // Xandikos answers address-data here with a 404 propstat: the cards are for a multiget.
                XCTAssertEqual(cards.count, 0, "\(server.kind)")
                return
            }
            XCTAssertEqual(Set(cards.map(\.href)), Set(all.changed.map(\.href)), "\(server.kind): every card came with its data")
            for c in cards {
                XCTAssertTrue(String(decoding: c.data, as: UTF8.self).contains("BEGIN:VCARD"), "\(server.kind)")
                XCTAssertEqual(c.etag, all.changed.first { $0.href == c.href }?.etag)
            }
            // Since the token: the edit with its card, the deletion as a tombstone.
            let edited = book.hrefForNewCard(uid: "p1")
            _ = try book.put(edited, card("p1", "Person 1", note: "edited"), etag: try book.get(edited)?.etag)
            _ = try book.delete(book.hrefForNewCard(uid: "p2"), etag: nil)
            cards = []
            let since = try book.changes(since: all.token) {
                cards.append($0); return true
            }
            XCTAssertEqual(cards.map(\.href), [edited], "\(server.kind)")
            XCTAssertTrue(cards.first.map { String(decoding: $0.data, as: UTF8.self).contains("edited") } ?? false)
            XCTAssertEqual(since.removed, [book.hrefForNewCard(uid: "p2")], "\(server.kind)")
            // Stopping early stops reading.
            var taken = 0
            _ = try book.changes(since: nil) { _ in
                taken += 1; return false
            }
            XCTAssertEqual(taken, 1)
            XCTAssertThrowsError(try book.changes(since: "http://example.com/bogus/token-1") { _ in true }) { e in
                XCTAssertTrue(AddressBookClient.isInvalidToken(try! XCTUnwrap(e as? DAVError)), "\(server.kind): \(e)")
            }
        }
    }

    func testAMultigetBringsCardsAndTheirTagsAndLeavesOutWhatIsNotThere() throws {
        try eachServer { server, book in
            var hrefs: [String] = []
            for i in 1...5 {
                let href = book.hrefForNewCard(uid: "m\(i)")
                _ = try book.put(href, card("m\(i)", "Person \(i) & Co <x>"), etag: nil)
                hrefs.append(href)
            }
            let cards = try book.multiget(hrefs + [book.hrefForNewCard(uid: "nobody")])
            XCTAssertEqual(Set(cards.map(\.href)), Set(hrefs), "\(server.kind)")
            XCTAssertTrue(
                cards.allSatisfy { $0.etag != nil && String(decoding: $0.data, as: UTF8.self).contains("& Co <x>") }, "\(server.kind)")
            XCTAssertEqual(try book.listing().count, 5, "\(server.kind)")
        }
    }

    func testDiscoveryFindsTheBookFromTheServerRoot() throws {
        try eachServer { server, book in
            let books = try Discovery.addressBooks(from: server.root, http: book.http)
            XCTAssertEqual(Discovery.pick(books, wanted: nil)?.url.path, server.addressBook.path, "\(server.kind): \(books)")
            let direct = try Discovery.addressBooks(from: server.addressBook, http: book.http)
            XCTAssertEqual(direct.map(\.url.path), [server.addressBook.path], "\(server.kind)")
        }
    }

    func testWrongCredentialsArePlainAndCarryNoSecret() throws {
        let server = try DAVServer(.radicale)
        defer { server.stop() }
        let http = HTTPClient(credentials: .basic(user: "kate", password: "wrong-password"), for: server.root, timeout: 10)
        XCTAssertThrowsError(try AddressBookClient(url: server.addressBook, http: http).properties()) { e in
            let e = e as? DAVError
            XCTAssertEqual(e?.status, 401, "\(String(describing: e))")
            XCTAssertFalse("\(String(describing: e))".contains("wrong-password"))
        }
    }

    func testPlainHTTPAwayFromThisMachineIsRefusedBeforeAnythingIsSent() {
        XCTAssertThrowsError(try URLPolicy.check(URL(string: "http://dav.example.com/")!))
        XCTAssertNoThrow(try URLPolicy.check(URL(string: "http://127.0.0.1:5232/")!))
        XCTAssertNoThrow(try URLPolicy.check(URL(string: "https://dav.example.com/")!))
        XCTAssertEqual(try Discovery.startURL("kate@example.com").absoluteString, "https://example.com/")
        XCTAssertEqual(URLPolicy.redacted(URL(string: "https://kate:secret@example.com/dav/")!), "https://example.com/dav/")
        let http = HTTPClient(credentials: .basic(user: "kate", password: "secret"), for: URL(string: "http://dav.example.com/")!)
        XCTAssertThrowsError(try http.send(HTTPRequest("GET", URL(string: "http://dav.example.com/")!))) { e in
            guard case .refusedURL? = e as? DAVError else { return XCTFail("\(e)") }
        }
    }
}
