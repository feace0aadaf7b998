import CardDAV
import ContactsCore
import ContactsStore
import ContactsSync
import Foundation
import TestSupport
import XCTest

/// Sync with the services that cannot run here, played by `Tests/fakes/carddav_fake.py` as
/// they are documented to behave: Google (bearer token, no empty sync token, preconditions
/// ignored, its own names and UIDs for new cards, no groups) and iCloud (Apple group cards,
/// the collection in its own delta, a size limit), and a book without sync-collection; and
/// what real books send that a sync must take in its stride: an answer in pages (507 on the
/// collection, RFC 6578 §3.6) and two cards with one UID (Xandikos takes them).
final class HostedServiceTests: ScratchDirectoryTestCase {
    override var scratchPrefix: String { "hosted-test" }

    func card(_ uid: String, _ name: String, _ extra: String = "") -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(name);;;;\r\n\(extra)END:VCARD\r\n"
    }

    /// A store with one account on `server`, signed in with `credentials`.
    func setUp(_ server: DAVServer, _ credentials: Credentials) throws -> (ContactStore, AddressBookClient, () throws -> SyncReport) {
        let store = try ContactStore(path: dir + "/\(server.kind.rawValue).sqlite3")
        try store.addAccount(SyncAccount(name: "dav", url: server.root.absoluteString, addressBookURL: server.addressBook.absoluteString))
        let book = AddressBookClient(url: server.addressBook, http: HTTPClient(credentials: credentials, for: server.root, timeout: 10))
        let engine = SyncEngine(store: store)
        return (store, book, { try engine.sync(try store.account(named: "dav"), with: book) })
    }

    func testGoogleRenamesNewCardsIgnoresPreconditionsAndKeepsNoGroups() throws {
        let server = try DAVServer(.google)
        defer { server.stop() }
        XCTAssertEqual(try server.put("a.vcf", card("a", "Anna Haro")).status, 201)
        let (store, book, sync) = try setUp(server, .bearer(server.token))
        defer { store.close() }
        // An empty token is refused: the book's own token and a listing instead.
        let first = try sync()
        XCTAssertEqual(first.downloaded.created, 1, "\(first)")
        XCTAssertEqual(first.requests, 4, "the refused request, the book's token, the listing, one multiget: \(first)")
        XCTAssertEqual(try sync().requests, 1, "from then on, sync-collection from that token")
        // A new contact, in a group: Google stores it under a name and UID of its own.
        var draft = Contact(name: "Kate Bell")
        draft.groups = ["Friends"]
        let kate = try store.create(draft)
        _ = try store.addToAccount("dav", ids: [kate.id]) { book.hrefForNewCard(uid: $0.uid) }
        let up = try sync()
        XCTAssertEqual(up.uploaded.created, 1, "\(up)")
        let item = try XCTUnwrap(try store.syncItems(account: "dav").first { $0.contactID == kate.id })
        XCTAssertFalse(item.href.hasSuffix(".vcf"), "the server's name is followed: \(item.href)")
        let there = try XCTUnwrap(try book.get(item.href))
        let theirUID = try XCTUnwrap(String(decoding: there.data, as: UTF8.self).split(separator: "\r\n").first { $0.hasPrefix("UID:") })
        XCTAssertEqual("UID:" + (try store.contact(id: kate.id).uid), String(theirUID), "the contact takes the server's UID")
        XCTAssertEqual(try store.account(named: "dav").groupsLocal, true, "the book drops groups: they stay here")
        XCTAssertEqual(try sync().uploaded, SyncReport.Counts(), "nothing to send again")
        // A group here is nothing the book keeps: nothing goes up for it.
        _ = try store.addMembers(try store.createGroup(name: "Family").id, contactIDs: [kate.id])
        let grouped = try sync()
        XCTAssertEqual(grouped.uploaded, SyncReport.Counts(), "\(grouped)")
        XCTAssertEqual(grouped.requests, 1)
        XCTAssertEqual(try store.contact(id: kate.id).groups.sorted(), ["Family", "Friends"])
        // Another device edits it there (no groups in what it sends): the groups stay here.
        let edited = String(decoding: there.data, as: UTF8.self).replacingOccurrences(
            of: "END:VCARD", with: "NOTE:from the phone\r\nEND:VCARD")
        _ = try server.request(
            "PUT", server.root.appendingPathComponent(item.href), headers: ["Content-Type": "text/vcard"], body: Data(edited.utf8))
        // An edit here of another field at the same time: both kept (Google ignores If-Match,
        // but the download comes first and merges).
        _ = try store.update(id: kate.id) { $0.title = "Producer" }
        let both = try sync()
        XCTAssertEqual(both.merged, 1, "\(both)")
        let merged = try store.contact(id: kate.id)
        XCTAssertEqual(merged.note, "from the phone")
        XCTAssertEqual(merged.title, "Producer")
        XCTAssertEqual(merged.groups.sorted(), ["Family", "Friends"])
        XCTAssertTrue(String(decoding: try XCTUnwrap(try book.get(item.href)).data, as: UTF8.self).contains("TITLE:Producer"))
        XCTAssertEqual(try store.query(ContactQuery()).total, 2, "no second copy of anyone")
        // A token that does not sign in is refused plainly.
        let refused = AddressBookClient(
            url: server.addressBook, http: HTTPClient(credentials: .bearer("stale"), for: server.root, timeout: 10))
        XCTAssertThrowsError(try SyncEngine(store: store).sync(try store.account(named: "dav"), with: refused)) { e in
            XCTAssertEqual((e as? DAVError)?.status, 401, "\(e)")
            XCTAssertFalse("\(e)".contains("stale"))
        }
    }

    func testICloudGroupCardsTheCollectionInItsDeltaAndACardTooLarge() throws {
        let server = try DAVServer(.icloud, fakeOptions: ["--max-card-bytes", "4096"])
        defer { server.stop() }
        try server.put("p1.vcf", card("p1", "Person One"))
        try server.put("band.vcf", card("band", "Band", "X-ADDRESSBOOKSERVER-KIND:group\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:p1\r\n"))
        let (store, book, sync) = try setUp(server, .basic(user: server.user, password: server.password))
        defer { store.close() }
        let first = try sync()
        XCTAssertEqual(first.downloaded.created, 1, "the person; the group card stays the book's: \(first)")
        try server.put("p2.vcf", card("p2", "Person Two"))
        let second = try sync()
        XCTAssertEqual(second.downloaded.created, 1, "the collection listed in its own delta is not a card: \(second)")
        XCTAssertEqual(second.errors, [])
        // One card over the server's limit is refused and reported; the others go up.
        var large = Contact(name: "Big Note")
        large.note = String(repeating: "x", count: 8000)
        let big = try store.create(large)
        let small = try store.create(Contact(name: "Small Note"))
        _ = try store.addToAccount("dav", ids: [big.id, small.id]) { book.hrefForNewCard(uid: $0.uid) }
        let up = try sync()
        XCTAssertEqual(up.uploaded.created, 1, "\(up)")
        XCTAssertEqual(up.errors.map(\.status), [413], "\(up)")
        XCTAssertEqual(try store.query(ContactQuery()).total, 4, "the refused contact stays here")
    }

    func testABookWithoutSyncCollectionIsFollowedByItsCtag() throws {
        let server = try DAVServer(.icloud, fakeOptions: ["--no-sync-collection"])
        defer { server.stop() }
        try server.put("p1.vcf", card("p1", "Person One"))
        let (store, _, sync) = try setUp(server, .basic(user: server.user, password: server.password))
        defer { store.close() }
        XCTAssertEqual(try sync().downloaded.created, 1)
        XCTAssertTrue(try store.account(named: "dav").syncToken?.hasPrefix("ctag:") ?? false)
        XCTAssertEqual(try sync().requests, 1, "nothing changed: the ctag alone")
        try server.put("p2.vcf", card("p2", "Person Two"))
        let r = try sync()
        XCTAssertEqual(r.downloaded.created, 1, "\(r)")
        XCTAssertEqual(r.requests, 3, "the ctag, the listing, one multiget")
        _ = try server.request("DELETE", server.addressBook.appendingPathComponent("p1.vcf"))
        XCTAssertEqual(try sync().downloaded.deleted, 1, "a card gone from the listing is gone")
    }

    func testICloudGroupCardsAreGroupsHereBothWays() throws {
        let server = try DAVServer(.icloud)
        defer { server.stop() }
        try server.put("p1.vcf", card("p1", "Person One"))
        try server.put("p2.vcf", card("p2", "Person Two"))
        let band = "X-ADDRESSBOOKSERVER-KIND:group\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:p1\r\nX-APPLE-EXTRA:kept\r\n"
        try server.put("band.vcf", card("band", "Band", band))
        // A group card whose name no group may have is reported; the rest syncs.
        try server.put("odd.vcf", card("odd", String(repeating: "x", count: 300), "X-ADDRESSBOOKSERVER-KIND:group\r\n"))
        let (store, book, sync) = try setUp(server, .basic(user: server.user, password: server.password))
        defer { store.close() }
        let first = try sync()
        XCTAssertEqual(first.downloaded.created, 2, "\(first)")
        XCTAssertEqual(first.errors.map(\.href), [book.hrefForNewCard(uid: "odd")], "\(first)")
        _ = try server.request("DELETE", server.addressBook.appendingPathComponent("odd.vcf"))
        XCTAssertEqual(first.uploaded, SyncReport.Counts(), "what came from the server does not go back: \(first)")
        XCTAssertEqual(try sync().errors, [], "the odd card, gone there, is gone from the report")
        func members(_ group: String) throws -> [String] {
            try store.query(ContactQuery(group: group)).contacts.map(\.name)
        }
        XCTAssertEqual(try members("Band"), ["Person One"])
        XCTAssertEqual(try sync().uploaded, SyncReport.Counts())
        // A member added here goes into the card, whose other properties stay.
        let two = try XCTUnwrap(try store.query(ContactQuery(text: "Person Two")).contacts.first)
        _ = try store.addMembers("Band", contactIDs: [two.id])
        XCTAssertEqual(try sync().errors, [])
        let there = String(decoding: try XCTUnwrap(try book.get(book.hrefForNewCard(uid: "band"))).data, as: UTF8.self)
        XCTAssertTrue(
            there.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:p2") && there.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:p1"), there)
        XCTAssertTrue(there.contains("X-APPLE-EXTRA:kept"), there)
        // Renamed and a member taken out on the phone: so here.
        let phone = card("band", "The Band", "X-ADDRESSBOOKSERVER-KIND:group\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:p2\r\n")
        try server.put("band.vcf", phone)
        _ = try sync()
        XCTAssertEqual(try members("The Band"), ["Person Two"])
        XCTAssertThrowsError(try store.group("Band"))
        // A group made here becomes a card of the same kind.
        _ = try store.addMembers(try store.createGroup(name: "Choir").id, contactIDs: [two.id])
        XCTAssertEqual(try sync().uploaded.created, 1)
        let listing = try book.listing()
        var choir = ""
        for item in listing {
            let text = String(decoding: try XCTUnwrap(try book.get(item.href)).data, as: UTF8.self)
            if text.contains("FN:Choir") { choir = text }
        }
        XCTAssertTrue(choir.contains("X-ADDRESSBOOKSERVER-KIND:group") && choir.contains("urn:uuid:p2"), choir)
        // Deleted here: deleted there. Deleted there: deleted here; the people stay.
        try store.deleteGroup("Choir")
        XCTAssertEqual(try sync().uploaded.deleted, 1)
        XCTAssertEqual(try book.listing().count, 3)
        _ = try server.request("DELETE", server.addressBook.appendingPathComponent("band.vcf"))
        _ = try sync()
        XCTAssertThrowsError(try store.group("The Band"))
        XCTAssertEqual(try store.query(ContactQuery()).total, 2)
    }

    func testAnAnswerInPagesIsFollowedToItsLastPage() throws {
        let server = try DAVServer(.icloud, fakeOptions: ["--page", "4"])
        defer { server.stop() }
        for i in 1...10 { try server.put("p\(i).vcf", card("p\(i)", "Person \(i)")) }
        let (store, _, sync) = try setUp(server, .basic(user: server.user, password: server.password))
        defer { store.close() }
        let first = try sync()
        XCTAssertEqual(first.downloaded.created, 10, "\(first)")
        XCTAssertEqual(first.errors, [])
        XCTAssertEqual(try store.query(ContactQuery()).total, 10)
        // Pages of four: three sync-collections, then the cards of each (multigets of at most 100).
        XCTAssertEqual(first.requests, 4, "three pages and one multiget: \(first)")
        XCTAssertEqual(try sync().requests, 1, "nothing changed: one request, no page left behind")
        // Changes and a deletion after the token, again more than a page.
        for i in 11...15 { try server.put("p\(i).vcf", card("p\(i)", "Person \(i)")) }
        _ = try server.request("DELETE", server.addressBook.appendingPathComponent("p1.vcf"))
        let next = try sync()
        XCTAssertEqual(next.downloaded.created, 5, "\(next)")
        XCTAssertEqual(next.downloaded.deleted, 1, "\(next)")
        XCTAssertEqual(try store.query(ContactQuery()).total, 14)
    }

    func testTwoCardsWithOneUIDAreReportedAndTheRestSyncs() throws {
        let server = try DAVServer(.xandikos)
        defer { server.stop() }
        try server.put("anna.vcf", card("same-uid", "Anna Haro"))
        try server.put("anna-copy.vcf", card("same-uid", "Anna Haro Copy", "NOTE:made by a phone that lost its state\r\n"))
        for i in 1...3 { try server.put("p\(i).vcf", card("p\(i)", "Person \(i)")) }
        let (store, _, sync) = try setUp(server, .basic(user: server.user, password: server.password))
        defer { store.close() }
        let first = try sync()
        XCTAssertEqual(first.downloaded.created, 4, "\(first)")
        XCTAssertEqual(first.errors.count, 1, "\(first)")
        let error = try XCTUnwrap(first.errors.first)
        XCTAssertTrue(error.href.hasSuffix("anna-copy.vcf") || error.href.hasSuffix("anna.vcf"), "\(error)")
        XCTAssertTrue(error.message.contains("same-uid") && error.message.contains(".vcf"), "the UID and the other card: \(error.message)")
        XCTAssertEqual(try store.query(ContactQuery()).total, 4)
        // The card left out is never taken for the other: nothing goes up, nothing is deleted there.
        let again = try sync()
        XCTAssertEqual(again.uploaded, SyncReport.Counts(), "\(again)")
        XCTAssertEqual(try server.request("GET", server.addressBook.appendingPathComponent("anna-copy.vcf")).status, 200)
        XCTAssertEqual(try server.request("GET", server.addressBook.appendingPathComponent("anna.vcf")).status, 200)
    }
}
