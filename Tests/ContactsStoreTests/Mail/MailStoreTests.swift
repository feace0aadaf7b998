import ContactsCore
import Foundation
import XCTest

@testable import ContactsStore

final class MailStoreTests: StoreTestCase {
    let day: Int64 = 86_400_000
    var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    func heard(_ id: String, _ address: String, name: String = "", daysAgo: Int64 = 0) -> MailSighting {
        MailSighting(messageID: id, date: now - daysAgo * day, heardFrom: [MailAddress(address: address, name: name)])
    }

    func wrote(_ id: String, _ addresses: [String], daysAgo: Int64 = 0) -> MailSighting {
        MailSighting(messageID: id, date: now - daysAgo * day, writtenTo: addresses.map { MailAddress(address: $0) })
    }

    func testAnAddressNoContactHasIsCollectedAndKeptOutOfListsAndSearches() throws {
        _ = try add("Ann Ordinary", emails: ["ann@example.org"])
        let r = try store.recordMail([heard("<1@x>", "Bob.Stranger@Example.org", name: "Bob Stranger")])
        XCTAssertEqual(r.messages, 1)
        XCTAssertEqual(r.collected.count, 1)
        let bob = try store.contact(id: r.collected[0])
        XCTAssertTrue(bob.collected)
        XCTAssertEqual(bob.name, "Bob Stranger")
        XCTAssertEqual(bob.emails.map(\.value), ["Bob.Stranger@Example.org"])
        XCTAssertEqual(try names(ContactQuery()), ["Ann Ordinary"], "a list leaves collected contacts out")
        XCTAssertEqual(try search("stranger"), [], "so does a search")
        var all = ContactQuery(text: "stranger")
        all.collected = .included
        XCTAssertEqual(try names(all), ["Bob Stranger"])
        var only = ContactQuery()
        only.collected = .only
        XCTAssertEqual(try names(only), ["Bob Stranger"])
        // The list without text through SQL (two sort keys) leaves them out too.
        var twoKeys = ContactQuery()
        twoKeys.sort = [.init(.updatedAt), .init(.name)]
        XCTAssertEqual(try names(twoKeys), ["Ann Ordinary"])
        XCTAssertEqual(try store.exportContacts(matching: ContactQuery()).map(\.name), ["Ann Ordinary"], "nor does an export")
        XCTAssertEqual(try store.localContactIDs().count, 1, "an account added later does not take them")
        let local = try XCTUnwrap(try store.changes(in: .local, after: nil))
        XCTAssertEqual(local.changed.count, 1, "the local book does not serve them")
    }

    func testAnAddressAContactHasOnlyCountsWhateverItsCase() throws {
        let ann = try add("Ann Ordinary", emails: ["Ann@Example.org"])
        let r = try store.recordMail([heard("<1@x>", "ann@example.ORG", name: "Someone Else")])
        XCTAssertEqual(r.collected, [])
        XCTAssertEqual(r.addresses, 1)
        XCTAssertEqual(try store.contact(id: ann.id).name, "Ann Ordinary", "nothing of the contact changes")
        XCTAssertEqual(try store.mailStatistics(["ann@example.org"])["ann@example.org"]?.received, 1)
    }

    func testAMessageCountsOnceByItsIdAndAnAddressTwiceInItOnce() throws {
        let first = try store.recordMail([wrote("<m@x>", ["a@x.org", "A@x.org", "b@x.org"])])
        XCTAssertEqual(first.addresses, 2)
        XCTAssertEqual(first.collected.count, 2)
        let again = try store.recordMail([wrote("<m@x>", ["a@x.org"])])
        XCTAssertEqual(again.repeated, 1)
        XCTAssertEqual(again.messages, 0)
        XCTAssertEqual(try store.mailStatistics(["a@x.org"])["a@x.org"]?.sent, 1)
    }

    func testACollectedContactNamedByItsAddressTakesANameLaterAndStaysCollected() throws {
        let r = try store.recordMail([heard("<1@x>", "carol@x.org")])
        XCTAssertEqual(try store.contact(id: r.collected[0]).name, "carol@x.org")
        _ = try store.recordMail([heard("<2@x>", "carol@x.org", name: "Carol Named")])
        let c = try store.contact(id: r.collected[0])
        XCTAssertEqual(c.name, "Carol Named")
        XCTAssertTrue(c.collected)
    }

    func testKeepAndAnyEditMakeACollectedContactOrdinary() throws {
        let r = try store.recordMail([heard("<1@x>", "d@x.org", name: "Dee"), heard("<2@x>", "e@x.org", name: "Eve")])
        let kept = try store.keep(id: r.collected[0])
        XCTAssertFalse(kept.collected)
        let edited = try store.update(id: r.collected[1]) { $0.title = "Engineer" }
        XCTAssertFalse(edited.collected)
        XCTAssertEqual(try names(ContactQuery()), ["Dee", "Eve"])
        // Undone, the edit gives the contact back as it was: collected.
        _ = try store.undo()
        XCTAssertTrue(try store.contact(id: r.collected[1]).collected)
    }

    func testAddressesRankWrittenToFirstThenHeardFromThenTheStartOfANameThenNameOrder() throws {
        _ = try add("Sam Never", emails: ["sam.never@x.org"])
        _ = try add("Isabel Samuels", emails: ["isabel@x.org"])
        _ = try add("Basam Inner", emails: ["basam@x.org"])
        _ = try store.recordMail([
            heard("<1@x>", "samantha@x.org", name: "Samantha Heard"),
            heard("<2@x>", "sammy.old@x.org", name: "Sammy Old", daysAgo: 400),
            heard("<3@x>", "sammy.old@x.org", name: "Sammy Old", daysAgo: 300),
            wrote("<4@x>", ["rosa.sampson@x.org"], daysAgo: 3),
        ])
        let found = try store.mailAddresses(matching: "sam", limit: 10)
        XCTAssertEqual(
            found.addresses.map(\.address),
            ["rosa.sampson@x.org", "samantha@x.org", "sammy.old@x.org", "isabel@x.org", "sam.never@x.org", "basam@x.org"],
            "written to; heard from, a recent one before an old one even seen twice; never seen, a name starting a word before one inside"
        )
        XCTAssertEqual(found.total, 6)
        XCTAssertEqual(found.addresses[0].statistics?.sent, 1)
        XCTAssertTrue(found.addresses[1].collected)
        XCTAssertEqual(try store.mailAddresses(matching: "sam", limit: 2).addresses.count, 2)
        // Without the counts, the same order, and none read.
        let bare = try store.mailAddresses(matching: "sam", limit: 10, statistics: false)
        XCTAssertEqual(bare.addresses.map(\.address), found.addresses.map(\.address))
        XCTAssertTrue(bare.addresses.allSatisfy { $0.statistics == nil })
        XCTAssertEqual(found.addresses[2].statistics?.received, 2, "read when asked for")
    }

    func testTheRowsAQueryReadServeTheNextUntilACommit() throws {
        let zed = try add("Zed Query", emails: ["zed@old.example"])
        let ann = try add("Ann Query", emails: ["ann@one.example", "ann@two.example"])
        XCTAssertEqual(
            try store.mailAddresses(matching: "query", limit: 10).addresses.map(\.address),
            ["ann@one.example", "ann@two.example", "zed@old.example"])
        XCTAssertEqual(
            try store.mailAddresses(matching: "query", limit: 10).addresses.map(\.address),
            ["ann@one.example", "ann@two.example", "zed@old.example"], "the same from the rows kept")
        _ = try store.update(id: zed.id) { $0.emails = [LabeledValue(value: "zed@new.example", label: "work")] }
        let after = try store.mailAddresses(matching: "query", limit: 10).addresses
        XCTAssertEqual(after.map(\.address), ["ann@one.example", "ann@two.example", "zed@new.example"], "a commit drops them")
        XCTAssertEqual(after.last?.label, "work")
        _ = try store.update(id: ann.id) { $0.name = "Ann Renamed Query" }
        XCTAssertEqual(try store.mailAddresses(matching: "query", limit: 10).addresses.first?.name, "Ann Renamed Query")
    }

    func testTheRankTableKeepsAKeysBestRankAndKnowsNoOtherKey() {
        let table = MailRanking.Table([(key: 5, rank: 1.5), (key: -3, rank: 0.5), (key: 5, rank: 2.5), (key: 9, rank: 1)])
        XCTAssertEqual(table[5], 2.5)
        XCTAssertEqual(table[-3], 0.5)
        XCTAssertEqual(table[9], 1)
        XCTAssertNil(table[4])
        XCTAssertNil(table[10])
        XCTAssertNil(MailRanking.Table()[0])
        // Rowids, small and close together, the same when indexed directly.
        let rowids = MailRanking.Table([(key: 3, rank: 1.5), (key: 1, rank: 0.5), (key: 3, rank: 2.5), (key: 7, rank: 0)])
        XCTAssertEqual([0, 1, 2, 3, 7, 8, 1 << 40, -1].map { rowids[$0] }, [nil, 0.5, nil, 2.5, 0, nil, nil, nil])
        XCTAssertEqual(MailRanking.key("Zoe@Example.org"), MailRanking.key("zoe@example.org"), "keyed as addresses compare")
    }

    func testOftenAndLatelyBeatsOnceLongAgo() throws {
        _ = try store.recordMail([wrote("<1@x>", ["old@x.org"], daysAgo: 200)])
        _ = try store.recordMail((0..<5).map { wrote("<n\($0)@x>", ["often@x.org"], daysAgo: Int64(10 + $0)) })
        _ = try store.recordMail([wrote("<9@x>", ["recent@x.org"], daysAgo: 1)])
        XCTAssertEqual(
            try store.mailAddresses(matching: "x.org", limit: 10).addresses.map(\.address), ["often@x.org", "recent@x.org", "old@x.org"])
        // Sightings counted in another order score the same.
        var q = ContactQuery()
        q.collected = .only
        q.sort = [.init(.frequency, ascending: false)]
        XCTAssertEqual(try names(q), ["often@x.org", "recent@x.org", "old@x.org"])
    }

    func testAnAddressOnAContactAndACollectedOneComesOnceFromTheContact() throws {
        let r = try store.recordMail([heard("<1@x>", "frank@x.org", name: "Frank")])
        let frank = try add("Frank Person", emails: ["frank@x.org"])
        let found = try store.mailAddresses(matching: "frank", limit: 10).addresses
        XCTAssertEqual(found.map(\.contactID), [frank.id])
        XCTAssertNotEqual(found[0].contactID, r.collected[0])
    }
}
