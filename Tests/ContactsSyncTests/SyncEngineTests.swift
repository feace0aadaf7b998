import CardDAV
import ContactsCore
import ContactsStore
import ContactsSupport
import ContactsSync
import Foundation
import TestSupport
import VCard
import XCTest

/// Two-way sync between a real store and real servers: every test runs against Radicale and
/// Xandikos, with another client's edits made over plain HTTP as another device would.
final class SyncEngineTests: ScratchDirectoryTestCase {
    override var scratchPrefix: String { "sync-test" }

    struct Setup {
        var server: DAVServer
        var store: ContactStore
        var book: AddressBookClient
        var engine: SyncEngine
        var account: SyncAccount

        /// One sync, with the account as the store has it now.
        @discardableResult
        func sync() throws -> SyncReport {
            try engine.sync(try store.account(named: account.name), with: book)
        }

        func card(_ uid: String, _ name: String, _ extra: String = "") -> String {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(name);;;;\r\n\(extra)END:VCARD\r\n"
        }

        /// The one contact named `name`.
        func contact(_ name: String) throws -> Contact {
            try XCTUnwrap(try store.query(ContactQuery(text: name)).contacts.first, "no \(name)")
        }

        /// What the server has for `uid`'s card, as another client reads it.
        func remote(_ uid: String) throws -> String {
            let r = try server.request("GET", server.addressBook.appendingPathComponent("\(uid).vcf"))
            return r.status == 200 ? String(decoding: r.body, as: UTF8.self) : ""
        }

        func etag(_ uid: String) throws -> String? {
            try server.request("GET", server.addressBook.appendingPathComponent("\(uid).vcf")).headers["etag"]
        }
    }

    func eachServer(_ body: (Setup) throws -> Void) throws {
        for kind in DAVServer.Kind.real {
            let server = try DAVServer(kind)
            defer { server.stop() }
            let store = try ContactStore(path: "\(dir)/\(kind.rawValue).sqlite3")
            defer { store.close() }
            let account = SyncAccount(name: "dav", url: server.root.absoluteString, addressBookURL: server.addressBook.absoluteString)
            try store.addAccount(account)
            let http = HTTPClient(credentials: .basic(user: server.user, password: server.password), for: server.root, timeout: 10)
            let setup = Setup(
                server: server, store: store, book: AddressBookClient(url: server.addressBook, http: http),
                engine: SyncEngine(store: store),
                account: account)
            try body(setup)
        }
    }

    func testAFirstSyncBringsEverythingAndASyncWithNothingChangedIsOneRequest() throws {
        try eachServer { s in
            for i in 1...3 { try s.server.put("p\(i).vcf", s.card("p\(i)", "Person \(i)", "TEL:+1 555 010\(i)\r\n")) }
            // An Apple group card is the book's, not a person: it stays there as it is.
            try s.server.put(
                "band.vcf", s.card("band", "Band", "X-ADDRESSBOOKSERVER-KIND:group\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:p1\r\n"))
            let first = try s.sync()
            XCTAssertEqual(first.downloaded.created, 3, "\(s.server.kind): \(first)")
            // Radicale sends the cards with the changes; Xandikos does not, and they are fetched in one multiget.
            XCTAssertEqual(first.requests, s.server.kind == .radicale ? 1 : 2, "\(s.server.kind): \(first)")
            XCTAssertEqual(first.uploaded, SyncReport.Counts(), "nothing goes back: \(first)")
            XCTAssertEqual(try s.store.query(ContactQuery()).total, 3)
            XCTAssertEqual(try s.contact("Person 2").phones.map(\.value), ["+1 555 0102"])
            XCTAssertEqual(try s.store.history(id: s.contact("Person 2").id).first?.origin, "sync:dav")
            XCTAssertTrue(try s.remote("band").contains("X-ADDRESSBOOKSERVER-MEMBER"), "the group card is untouched")
            let again = try s.sync()
            XCTAssertEqual(again.requests, 1, "\(s.server.kind): \(again)")
            XCTAssertEqual(again.downloaded, SyncReport.Counts())
        }
    }

    func testEditsOfDifferentFieldsOnBothSidesAreBothKeptOnBoth() throws {
        try eachServer { s in
            try s.server.put("kate.vcf", s.card("kate", "Kate Bell", "TEL:555-1\r\n"))
            try s.sync()
            let kate = try s.contact("Kate Bell")
            _ = try s.store.update(id: kate.id) { $0.title = "Producer" }
            // Another device adds a note.
            let put = try s.server.put(
                "kate.vcf", s.card("kate", "Kate Bell", "TEL:555-1\r\nNOTE:met in Lisbon\r\n"),
                headers: ["If-Match": try s.etag("kate") ?? ""])
            XCTAssertLessThan(put.status, 300)
            let r = try s.sync()
            XCTAssertEqual(r.merged, 1, "\(s.server.kind): \(r)")
            XCTAssertEqual(r.conflicts, [])
            let merged = try s.contact("Kate Bell")
            XCTAssertEqual(merged.title, "Producer")
            XCTAssertEqual(merged.note, "met in Lisbon")
            let there = try s.remote("kate")
            XCTAssertTrue(there.contains("Producer") && there.contains("met in Lisbon"), "\(s.server.kind): \(there)")
            XCTAssertEqual(try s.sync().uploaded, SyncReport.Counts(), "nothing more to send")
        }
    }

    func testTheSameFieldOnBothSidesTakesTheLaterAndKeepsTheOtherInHistory() throws {
        try eachServer { s in
            try s.server.put("kate.vcf", s.card("kate", "Kate Bell", "TITLE:Engineer\r\nEMAIL:kate@home.example\r\n"))
            try s.sync()
            let kate = try s.contact("Kate Bell")
            _ = try s.store.update(id: kate.id) {
                $0.title = "Producer"; $0.emails.append(LabeledValue(value: "kate@work.example"))
            }
            // The other device's edit is the later one (its REV says so).
            try s.server.put(
                "kate.vcf",
                s.card(
                    "kate", "Kate Bell", "TITLE:Director\r\nEMAIL:kate@home.example\r\nEMAIL:kate@phone.example\r\nREV:20991231T000000Z\r\n"
                ),
                headers: ["If-Match": try s.etag("kate") ?? ""])
            let r = try s.sync()
            XCTAssertEqual(r.conflicts.map(\.fields), [["title"]], "\(s.server.kind): \(r)")
            let merged = try s.contact("Kate Bell")
            XCTAssertEqual(merged.title, "Director")
            XCTAssertEqual(
                Set(merged.emails.map(\.value)), ["kate@home.example", "kate@work.example", "kate@phone.example"], "lists are united")
            let revisions = try s.store.history(id: kate.id).map(\.revision)
            let titles = try revisions.compactMap { try? s.store.contact(id: kate.id, revision: $0 - 1).title }
            XCTAssertTrue(titles.contains("Producer"), "the losing value is in history: \(titles)")
            XCTAssertTrue(try s.remote("kate").contains("kate@work.example"), "the union went up")
        }
    }

    func testDeletionsFollowTheRulesOfWhoEditedWhat() throws {
        try eachServer { s in
            for n in ["gone", "kept", "back"] { try s.server.put("\(n).vcf", s.card(n, "Person \(n)")) }
            try s.sync()
            // Deleted there, untouched here: to the trash here.
            try s.server.request("DELETE", s.server.addressBook.appendingPathComponent("gone.vcf"))
            // Deleted there, edited here: sent again.
            try s.server.request("DELETE", s.server.addressBook.appendingPathComponent("kept.vcf"))
            _ = try s.store.update(id: try s.contact("Person kept").id) { $0.note = "still wanted" }
            // Deleted here, edited there: back here.
            _ = try s.store.delete(ids: [try s.contact("Person back").id])
            try s.server.put(
                "back.vcf", s.card("back", "Person back", "NOTE:edited there\r\n"), headers: ["If-Match": try s.etag("back") ?? ""])
            let r = try s.sync()
            XCTAssertEqual(r.downloaded.deleted, 1, "\(s.server.kind): \(r)")
            XCTAssertEqual(try s.store.trash().contacts.map(\.contact.name), ["Person gone"])
            XCTAssertTrue(try s.remote("kept").contains("still wanted"), "\(s.server.kind)")
            XCTAssertEqual(try s.contact("Person back").note, "edited there")
            // A deletion here of an untouched card goes there.
            _ = try s.store.delete(ids: [try s.contact("Person kept").id])
            XCTAssertEqual(try s.sync().uploaded.deleted, 1)
            XCTAssertEqual(try s.remote("kept"), "")
        }
    }

    func testAnUndoneDeletionPutsTheCardBackOnTheServer() throws {
        try eachServer { s in
            try s.server.put("kate.vcf", s.card("kate", "Kate Bell", "TEL:555-0101\r\n"))
            try s.sync()
            let kate = try s.contact("Kate Bell")
            _ = try s.store.delete(ids: [kate.id])
            XCTAssertEqual(try s.sync().uploaded.deleted, 1, "\(s.server.kind)")
            XCTAssertEqual(try s.remote("kate"), "")
            _ = try s.store.undo()
            XCTAssertEqual(try s.store.contact(id: kate.id).account, "dav", "\(s.server.kind): back in its account")
            XCTAssertEqual(try s.sync().uploaded.created, 1, "\(s.server.kind)")
            XCTAssertTrue(try s.remote("kate").contains("UID:kate"), "\(s.server.kind): the same UID, at its old name")
            XCTAssertEqual(try s.sync().uploaded, SyncReport.Counts(), "\(s.server.kind): in step")
        }
    }

    func testManyDeletionsOnTheServerWaitAndTheRestGoesOn() throws {
        try eachServer { s in
            for i in 1...20 { try s.server.put("p\(i).vcf", s.card("p\(i)", "Person \(i)")) }
            try s.sync()
            for i in 1...15 { try s.server.request("DELETE", s.server.addressBook.appendingPathComponent("p\(i).vcf")) }
            try s.server.put("new.vcf", s.card("new", "Newcomer"))
            let r = try s.sync()
            XCTAssertEqual(r.held, 15, "\(s.server.kind): \(r)")
            XCTAssertEqual(r.downloaded.created, 1)
            XCTAssertEqual(try s.store.query(ContactQuery()).total, 21, "nothing deleted here")
            XCTAssertEqual(try s.sync().held, 15, "still held at the next sync")
            // Rejected: the cards the server lost go back up.
            let rejected = try s.engine.sync(try s.store.account(named: "dav"), with: s.book, held: .reject)
            XCTAssertEqual(rejected.uploaded.created, 15, "\(s.server.kind): \(rejected)")
            XCTAssertEqual(try s.book.listing().count, 21)
            // Many deleted here: held too, then confirmed.
            let ids = try s.store.query(ContactQuery(text: "Person")).contacts.prefix(15).map(\.id)
            _ = try s.store.delete(ids: Array(ids))
            XCTAssertEqual(try s.sync().held, 15)
            XCTAssertEqual(try s.book.listing().count, 21, "nothing deleted there yet")
            let confirmed = try s.engine.sync(try s.store.account(named: "dav"), with: s.book, held: .confirm)
            XCTAssertEqual(confirmed.uploaded.deleted, 15, "\(confirmed)")
            XCTAssertEqual(try s.book.listing().count, 6)
        }
    }

    func testNewContactsGoUpOnceEvenWhenAnAnswerWasLost() throws {
        try eachServer { s in
            let anna = try s.store.create(Contact(name: "Anna Haro"))
            let john = try s.store.create(Contact(name: "John Appleseed"))
            XCTAssertEqual(try s.store.addToAccount("dav", ids: [anna.id, john.id]) { s.book.hrefForNewCard(uid: $0.uid) }, 2)
            // Anna's card went up before, but its answer never came back: only the intent says so.
            let href = s.book.hrefForNewCard(uid: anna.uid)
            var text = ""
            VCardWriter.write(VCard(properties: s.store.cardProperties(for: anna)), version: .v3, into: &text)
            try s.store.recordIntent(
                account: "dav",
                SyncIntent(href: href, contactID: anna.id, action: "create", digest: SHA256.hex(Data(text.utf8)), revision: anna.revision))
            _ = try s.book.put(href, Data(text.utf8), etag: nil)
            let r = try s.sync()
            XCTAssertEqual(r.uploaded.created, 1, "\(s.server.kind): only John was sent: \(r)")
            XCTAssertEqual(r.downloaded, SyncReport.Counts(), "Anna's card was known from the journal, not fetched again")
            XCTAssertEqual(r.errors, [])
            let listing = try s.book.listing()
            XCTAssertEqual(listing.count, 2, "no second copy of Anna: \(listing)")
            XCTAssertEqual(try s.sync().uploaded, SyncReport.Counts())
        }
    }

    func testATokenTheServerForgotFallsBackToAFullListing() throws {
        try eachServer { s in
            try s.server.put("kate.vcf", s.card("kate", "Kate Bell"))
            try s.sync()
            try s.store.recordSync(account: "dav", token: "http://radicale.org/ns/sync/bogus", error: nil)
            try s.server.put("anna.vcf", s.card("anna", "Anna Haro"))
            let r = try s.sync()
            XCTAssertEqual(r.downloaded.created, 1, "\(s.server.kind): \(r)")
            XCTAssertEqual(try s.store.query(ContactQuery()).total, 2)
            XCTAssertNotEqual(try s.store.account(named: "dav").syncToken, "http://radicale.org/ns/sync/bogus")
        }
    }

    func testAFirstSyncStoppedHalfwayGoesOnWhereItStopped() throws {
        try eachServer { s in
            for i in 1...7 { try s.server.put("p\(i).vcf", s.card("p\(i)", "Person \(i)")) }
            let engine = SyncEngine(store: s.store, batch: 2, storeBatch: 2)
            XCTAssertThrowsError(
                try engine.sync(try s.store.account(named: "dav"), with: s.book) { (try? s.store.query(ContactQuery()).total) ?? 0 >= 2 }
            ) { e in XCTAssertTrue(e is SyncStopped, "\(e)") }
            let stored = try s.store.query(ContactQuery()).total
            XCTAssertTrue((2..<7).contains(stored), "\(s.server.kind): \(stored) stored before the stop")
            XCTAssertNil(try s.store.account(named: "dav").syncToken, "no token until the whole download is in")
            // The next sync lists the book and fetches only the cards not stored yet.
            let r = try engine.sync(try s.store.account(named: "dav"), with: s.book)
            XCTAssertEqual(r.downloaded.created, 7 - stored, "\(s.server.kind): \(r)")
            XCTAssertEqual(r.requests, 1 + (7 - stored + 1) / 2, "\(s.server.kind): the listing and multigets of two")
            XCTAssertEqual(try s.store.query(ContactQuery()).total, 7, "each card once")
            XCTAssertNotNil(try s.store.account(named: "dav").syncToken)
        }
    }

    func testContactsMovedAwayAreDeletedThereWithoutBeingHeldAndProgressIsTold() throws {
        try eachServer { s in
            for i in 1...20 { try s.server.put("p\(i).vcf", s.card("p\(i)", "Person \(i)")) }
            let engine = SyncEngine(store: s.store, batch: 5, storeBatch: 5)
            var told: [SyncProgress] = []
            try engine.sync(try s.store.account(named: "dav"), with: s.book, progress: { told.append($0) })
            XCTAssertEqual(told.filter { $0.phase == .download }.map(\.done), [5, 10, 15, 20], "\(s.server.kind): every batch")
            XCTAssertEqual(told.last?.done, 20)
            // Sixteen moved to this machine alone: more than the guard's share, but asked for.
            let ids = try s.store.query(ContactQuery(text: "Person")).contacts.prefix(16).map(\.id)
            XCTAssertEqual(try s.store.moveContacts(ids: ids, to: nil) { _ in "" }, 16)
            XCTAssertEqual(try s.store.query(ContactQuery(account: .local)).total, 16)
            told = []
            let r = try engine.sync(try s.store.account(named: "dav"), with: s.book, progress: { told.append($0) })
            XCTAssertEqual(r.uploaded.deleted, 16, "\(s.server.kind): \(r)")
            XCTAssertEqual(r.held, 0)
            XCTAssertEqual(told.last, SyncProgress(phase: .upload, done: 16, total: 16))
            XCTAssertEqual(try s.book.listing().count, 4)
            XCTAssertEqual(try s.store.query(ContactQuery()).total, 20, "all still here")
            // One moved back goes up as a new card.
            XCTAssertEqual(try s.store.moveContacts(ids: [ids[0]], to: "dav") { s.book.hrefForNewCard(uid: $0.uid) }, 1)
            XCTAssertEqual(try s.sync().uploaded.created, 1)
            XCTAssertEqual(try s.book.listing().count, 5)
            XCTAssertEqual(try s.store.query(ContactQuery(account: .account("dav"))).total, 5)
        }
    }

    func testABookOfVCard4CardsGetsVCard4AndOthersGet3() throws {
        try eachServer { s in
            // Neither offers 4.0 (Radicale lists 3.0, Xandikos nothing), so their accounts stay
            // at 3.0; as for a book that offers it (Nextcloud lists both), both take 4.0 cards.
            XCTAssertFalse(try s.book.properties().versions.contains("4.0"), "\(s.server.kind)")
            var a = try s.store.account(named: "dav")
            a.offers4 = true
            try s.store.updateAccount(a)
            try s.server.put("p1.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:p1\r\nFN:Person One\r\nEND:VCARD\r\n")
            try s.sync()
            XCTAssertTrue(try s.store.account(named: "dav").vcard4, "\(s.server.kind)")
            _ = try s.store.update(id: try s.contact("Person One").id) { $0.note = "edited here" }
            XCTAssertEqual(try s.sync().uploaded.updated, 1)
            let there = try s.remote("p1")
            XCTAssertTrue(there.contains("VERSION:4.0") && there.contains("edited here"), "\(s.server.kind): \(there)")
            // A book of 3.0 cards gets 3.0, whatever it offers.
            let other = try ContactStore(path: dir + "/other-\(s.server.kind).sqlite3")
            defer { other.close() }
            var b = s.account
            b.offers4 = true
            try other.addAccount(b)
            try s.server.put("p1.vcf", s.card("p1", "Person One"), headers: ["If-Match": try s.etag("p1") ?? ""])
            let engine = SyncEngine(store: other)
            _ = try engine.sync(try other.account(named: "dav"), with: s.book)
            XCTAssertFalse(try other.account(named: "dav").vcard4, "\(s.server.kind)")
        }
    }
}
