import ContactsCore
import Foundation
import XCTest

@testable import ContactsStore

final class SearchTests: StoreTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try add("Zoë Ångström", emails: ["zoe@example.se"], groups: ["Friends"])
        try add("Łukasz Nowak", phones: ["+48 601 234 567"])
        try add("Øystein Berg", groups: ["Work"], favorite: true)
        try add(
            "Kate Bell", phones: ["555-234-5678"], emails: ["kate-bell@mac.com"], groups: ["Work"], favorite: true,
            organization: "Creative Consulting")
        try add("张三丰", phones: ["+86 138 0013 8000"])
        try add("李小龙", groups: ["Friends"])
        try add("Anna Haro", emails: ["anna-haro@mac.com"], groups: ["Friends"], favorite: true)
    }

    func testAWriteThatCommitsWhileTheIndexLoadsIsFound() throws {
        try add("Early Bird")
        store.close()
        store = try ContactStore(path: databasePath)
        // The table has been read; before what was read goes in, a contact is created.
        nonisolated(unsafe) var wrote = false
        let store = self.store!
        store.searchIndex.afterReadForTesting = {
            guard !wrote else { return }
            wrote = true
            _ = try? store.create(Contact(name: "Late Comer"))
        }
        XCTAssertEqual(try store.query(ContactQuery(text: "comer", limit: 5)).contacts.map(\.name), ["Late Comer"])
        XCTAssertTrue(wrote)
        XCTAssertEqual(try store.query(ContactQuery(limit: 10)).total, try store.counts().contacts)
    }

    func testText_isCaseAccentAndTransliterationInsensitive() throws {
        XCTAssertEqual(try search("zoe"), ["Zoë Ångström"])
        XCTAssertEqual(try search("ZOË"), ["Zoë Ångström"])
        XCTAssertEqual(try search("angstrom"), ["Zoë Ångström"])
        XCTAssertEqual(try search("lukasz"), ["Łukasz Nowak"])
        XCTAssertEqual(try search("oystein"), ["Øystein Berg"])
        XCTAssertEqual(try search("ystei"), ["Øystein Berg"])
    }

    func testText_matchesSubstringsOfEmailsAndOrganizations() throws {
        XCTAssertEqual(try search("mac.com"), ["Anna Haro", "Kate Bell"])
        XCTAssertEqual(try search("consult"), ["Kate Bell"])
    }

    func testPhones_matchWhateverTheFormatting() throws {
        XCTAssertEqual(try search("5552345678"), ["Kate Bell"])
        XCTAssertEqual(try search("555-234"), ["Kate Bell"])
        XCTAssertEqual(try search("(555) 234-56"), ["Kate Bell"])
        XCTAssertEqual(try search("13800138000"), ["张三丰"])
        XCTAssertEqual(try search("+48 601"), ["Łukasz Nowak"])
    }

    func testCJK_matchesOneAndTwoCharacterSubstrings() throws {
        XCTAssertEqual(try search("张"), ["张三丰"])
        XCTAssertEqual(try search("三丰"), ["张三丰"])
        XCTAssertEqual(try search("小龙"), ["李小龙"])
        XCTAssertEqual(try search("张三丰"), ["张三丰"])
    }

    func testShortQueries_scanInsteadOfUsingTheIndex() throws {
        XCTAssertEqual(try search("k"), ["Kate Bell", "Łukasz Nowak"])
        XCTAssertEqual(try search("ha"), ["Anna Haro", "张三丰"], "pinyin of Chinese names matches too")
        XCTAssertEqual(try search("xq"), [])
    }

    func testFilters_combineWithAnd() throws {
        XCTAssertEqual(try names(ContactQuery(favoritesOnly: true)), ["Anna Haro", "Kate Bell", "Øystein Berg"])
        XCTAssertEqual(try names(ContactQuery(group: "Friends")), ["Anna Haro", "李小龙", "Zoë Ångström"])
        XCTAssertEqual(try names(ContactQuery(favoritesOnly: true, group: "work")), ["Kate Bell", "Øystein Berg"])
        XCTAssertEqual(try names(ContactQuery(text: "a", favoritesOnly: true, group: "Friends")), ["Anna Haro"])
        XCTAssertThrowsError(try store.query(ContactQuery(group: "Nobody")))
    }

    func testPaging_reportsTheTotalBeforeLimitAndOffset() throws {
        let page = try store.query(ContactQuery(limit: 2, offset: 1))
        XCTAssertEqual(page.total, 7)
        XCTAssertEqual(page.contacts.map(\.name), ["Kate Bell", "李小龙"])
        XCTAssertEqual(try store.query(ContactQuery(limit: 0)).total, 7)
        XCTAssertEqual(try store.query(ContactQuery(offset: 50)).contacts, [])
    }

    func testPagesComeFromTheCacheOnlyWhileItIsCurrent() throws {
        let first = try store.query(ContactQuery(text: "bell")).contacts
        XCTAssertEqual(first.map(\.name), ["Kate Bell"])
        // The same page again is read from the cache; an edit, a group change and a deletion
        // in between must show at once.
        XCTAssertEqual(try store.query(ContactQuery(text: "bell")).contacts, first)
        _ = try store.update(id: first[0].id) { $0.nickname = "Katie" }
        XCTAssertEqual(try store.query(ContactQuery(text: "bell")).contacts.map(\.nickname), ["Katie"])
        _ = try store.contact(id: first[0].id)
        let group = try store.createGroup(name: "Bells")
        _ = try store.addMembers(group.id, contactIDs: [first[0].id])
        XCTAssertTrue(try store.query(ContactQuery(text: "bell")).contacts[0].groups.contains("Bells"))
        _ = try store.delete(ids: [first[0].id])
        XCTAssertEqual(try store.query(ContactQuery(text: "bell")).contacts, [])
    }

    func testDefaultOrder_isNaturalAndAccentInsensitive() throws {
        for n in ["Item 10", "Ítem 3", "item 1", "Item 2"] { try add(n) }
        let items = try names(ContactQuery(text: "tem"))
        XCTAssertEqual(items, ["item 1", "Item 2", "Ítem 3", "Item 10"])
    }

    /// Contacts with the same name come in the order they were made, in the index and in SQL
    /// (a second sort key) alike, and after an edit that leaves the name.
    func testTheSameNameComesInTheOrderTheContactsWereMade() throws {
        let made = try (0..<5).map { i in try add("Sam Lee", emails: ["sam\(i)@example.org"]) }
        _ = try store.update(id: made[0].id) { $0.title = "Boss" }
        var q = ContactQuery(text: "sam lee")
        XCTAssertEqual(try store.query(q).contacts.map(\.id), made.map(\.id))
        q.sort = [.init(.name), .init(.createdAt)]
        XCTAssertEqual(try store.query(q).contacts.map(\.id), made.map(\.id))
        q.sort = [.init(.name, ascending: false)]
        XCTAssertEqual(try store.query(q).contacts.map(\.id), made.map(\.id).reversed())
    }

    /// The index keeps name order only; orders by time read the times from the database (by
    /// rowid for a few matches, along the column's index for many). Either way each page is
    /// the matches by time, ties in name order.
    func testTimeOrdersAreByTimeThenNameWhicheverWayTheTimesAreRead() throws {
        // One batch shares one time: ties everywhere. Then edits a few milliseconds apart.
        let batch = try store.create((0..<60).map { i in Contact(name: ["Kim", "Ada", "Bo"][i % 3] + " \(i % 7)") })
        for c in batch.prefix(12) {
            usleep(2_000)
            _ = try store.update(id: c.id) { $0.note = "edited" }
        }
        defer { ContactStore.timesByRowidLimit = 20_000 }
        for byRowid in [false, true] {
            ContactStore.timesByRowidLimit = byRowid ? 20_000 : 0
            for field in [ContactQuery.SortField.createdAt, .updatedAt] {
                for ascending in [true, false] {
                    for text in [nil, "a", "kim", "zzz"] {
                        let inNameOrder = try store.query(ContactQuery(text: text)).contacts
                        func time(_ c: Contact) -> Int64 { field == .createdAt ? c.createdAt : c.updatedAt }
                        let expected = inNameOrder.enumerated().sorted { a, b in
                            time(a.element) == time(b.element)
                                ? a.offset < b.offset : (ascending ? time(a.element) < time(b.element) : time(a.element) > time(b.element))
                        }.map(\.element.id)
                        var q = ContactQuery(text: text)
                        q.sort = [.init(field, ascending: ascending)]
                        let what = "\(field) ascending \(ascending), text \(text ?? "none"), by rowid \(byRowid)"
                        XCTAssertEqual(try store.query(q).contacts.map(\.id), expected, what)
                        for (offset, limit) in [(0, 5), (7, 9), (max(0, expected.count - 3), 10), (expected.count, 2)] {
                            q.offset = offset
                            q.limit = limit
                            let page = try store.query(q)
                            XCTAssertEqual(page.contacts.map(\.id), Array(expected.dropFirst(offset).prefix(limit)), what)
                            XCTAssertEqual(page.total, expected.count, what)
                        }
                    }
                }
            }
        }
    }

    /// Most keys are the start of their contact's text and are kept there; the others (a
    /// name that starts with punctuation) apart. Texts that change (phones read as numbers)
    /// move the first kind apart too, and the order holds.
    func testKeysInAndBesideTheTextKeepTheOrderWhenTextsChange() throws {
        for n in ["(Zed) Ray", "Amy Pond", "...Bob", "Cy Young", "2 Chainz", "10 Things", "#Ada"] { try add(n) }
        func sortedByKey(_ names: [String]) -> [String] {
            names.enumerated().sorted { a, b in
                let x = Array(SearchFolding.sortKey(a.element).utf8), y = Array(SearchFolding.sortKey(b.element).utf8)
                return x == y ? a.offset < b.offset : x.lexicographicallyPrecedes(y)
            }.map(\.element)
        }
        let before = try names(ContactQuery())
        XCTAssertEqual(before, sortedByKey(before))
        XCTAssertTrue(store.searchIndex.slots.contains { !$0.keyInText } && store.searchIndex.slots.contains { $0.keyInText })
        let rowids = store.searchIndex.rowidsInNameOrder()
        store.searchIndex.replaceTexts(Dictionary(uniqueKeysWithValues: rowids.map { ($0, Array("changed \($0)".utf8)) }))
        XCTAssertFalse(store.searchIndex.slots.contains { $0.keyInText })
        XCTAssertEqual(try names(ContactQuery()), before)
        XCTAssertEqual(try store.query(ContactQuery(text: "changed")).total, before.count)
        // A contact added in place finds its place among keys of both kinds.
        try add("Bea Arthur")
        try add("Ray")
        XCTAssertEqual(try names(ContactQuery()), sortedByKey(before + ["Bea Arthur", "Ray"]))
    }

    /// Past the 32 bits of a slot's offsets the index neither wraps nor crashes: a change that
    /// would pass the limit unloads it, and a load says why searches are unavailable.
    func testAnIndexPastItsLimitSaysSoAndNeverWraps() throws {
        XCTAssertEqual(try search("kate"), ["Kate Bell"])
        defer { SearchIndex.bufferLimit = Int(UInt32.max) }
        SearchIndex.bufferLimit = store.searchIndex.textBuffer.count + 10
        try add("Dee")
        XCTAssertEqual(try search("dee"), ["Dee"], "a change within the limit is made in place")
        try add("Evangeline Longname-Smithson")
        XCTAssertFalse(store.searchIndex.isLoaded)
        XCTAssertThrowsError(try search("dee")) { e in
            XCTAssertTrue("\(e)".contains("cannot hold this many contacts' text"), "\(e)")
        }
        // A large change (rebuilt rather than made in place) too.
        SearchIndex.bufferLimit = Int(UInt32.max)
        XCTAssertEqual(try search("evangeline"), ["Evangeline Longname-Smithson"])
        SearchIndex.bufferLimit = store.searchIndex.textBuffer.count + 10
        _ = try store.create((0..<300).map { Contact(name: "Many \($0)") })
        XCTAssertFalse(store.searchIndex.isLoaded)
        SearchIndex.bufferLimit = Int(UInt32.max)
        XCTAssertEqual(try store.query(ContactQuery(text: "many")).total, 300)
    }

    func testSortByCreationDescending() throws {
        var q = ContactQuery(limit: 2)
        q.sort = [.init(.createdAt, ascending: false)]
        let newest = try store.query(q).contacts.map(\.name)
        XCTAssertEqual(newest.first, "Anna Haro")
    }

    func testQuotesInTheQueryAreJustText() throws {
        try add("Robert \"Bobby\" Tables")
        XCTAssertEqual(try search("\"bobby\""), ["Robert \"Bobby\" Tables"])
        XCTAssertEqual(try search("' OR 1=1 --"), [])
    }
}

/// A quick check that search stays fast at 100k contacts. The bound is generous (it runs in
/// a debug build on a loaded machine); the benchmark program measures the real figures.
final class SearchScaleTests: StoreTestCase {
    func testA100kStoreStillAnswersWithinAGenerousBound() throws {
        let given = ["Anna", "Björn", "Chloé", "Dmitri", "Émile", "Fatima", "Günter", "Hiroshi", "Inès", "José", "Kate", "Łucja"]
        let family = ["Appleseed", "Bell", "Haro", "Ångström", "Nowak", "Müller", "Øberg", "Suzuki", "García", "Smith", "Dubois"]
        var batch: [Contact] = []
        for i in 0..<100_000 {
            var c = Contact(name: "\(given[i % given.count]) \(family[(i / given.count) % family.count]) \(i)")
            c.emails = [LabeledValue(value: "user\(i)@example.com")]
            c.phones = [LabeledValue(value: "+1 555 \(String(format: "%07d", i))")]
            if i % 1000 == 0 { c.name = "张\(i)" }
            batch.append(c)
            if batch.count == 10_000 {
                try store.create(batch)
                batch.removeAll()
            }
        }
        XCTAssertEqual(try store.counts().contacts, 100_000)
        let loadStart = Date()
        try store.warmUp()
        print("100k store: search index loaded in \(Int(Date().timeIntervalSince(loadStart) * 1000)) ms")
        let queries = ["fatima dubois 4217", "user99999@", "5550012345", "ka", "z", "张", "chloe bell"]
        var worst = 0.0
        for q in queries {
            let start = Date()
            let r = try store.query(ContactQuery(text: q, limit: 50))
            let elapsed = Date().timeIntervalSince(start)
            worst = max(worst, elapsed)
            XCTAssertGreaterThan(r.total, 0, q)
        }
        print("100k store: slowest of \(queries.count) queries took \(Int(worst * 1000)) ms")
        XCTAssertLessThan(worst, 2.0)
    }
}

/// The index's scan against a plain reading of every contact, after the kinds of change that
/// break the text buffer's order (edits, deletions, additions one at a time).
final class SearchScanTests: StoreTestCase {
    func testTheScanFindsExactlyWhatAPlainSearchFinds() throws { try checkScan() }

    /// The same, with the index cut into parts scanned on all cores.
    func testTheScanInPartsFindsExactlyWhatAPlainSearchFinds() throws {
        store.searchIndex.parallelScanMinimum = 1
        try checkScan()
    }

    func checkScan() throws {
        var rng = SystemRandomNumberGenerator()
        // A small alphabet, so that candidates often begin in one contact and end in the next.
        func word() -> String {
            String(
                (0..<Int.random(in: 1...4, using: &rng)).map { _ in (["a", "b", "n"] as [Character])[Int.random(in: 0..<3, using: &rng)] })
        }
        func contact() -> Contact {
            var c = Contact(name: word() + " " + word())
            if Bool.random(using: &rng) { c.emails = [LabeledValue(value: word() + "@" + word() + ".example")] }
            if Bool.random(using: &rng) { c.phones = [LabeledValue(value: "+1 \(Int.random(in: 100...999, using: &rng))")] }
            c.favorite = Int.random(in: 0..<4, using: &rng) == 0
            return c
        }
        var ids = try store.create((0..<1500).map { _ in contact() }).map(\.id)
        try store.warmUp()
        for _ in 0..<60 {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: ids.append(try store.create(contact()).id)
            case 1:
                let id = ids.remove(at: Int.random(in: 0..<ids.count, using: &rng))
                _ = try store.delete(ids: [id])
            default:
                let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
                _ = try store.update(id: id) { $0.name = word() + " " + word() }
            }
        }
        // A large batch (the index is rebuilt), then a group change that moves its members'
        // timestamps (their index entries are read again).
        ids += try store.create((0..<300).map { _ in contact() }).map(\.id)
        let group = try store.createGroup(name: "Scanned")
        usleep(5_000)  // the members' new timestamps are later than every other
        _ = try store.addMembers(group.id, contactIDs: Array(ids.prefix(40)))
        let everyone = try store.exportContacts(ids: nil)
        XCTAssertEqual(everyone.count, ids.count)
        var byUpdate = ContactQuery(limit: 40)
        byUpdate.sort = [ContactQuery.Sort(.updatedAt, ascending: false)]
        let newest = try store.query(byUpdate).contacts
        XCTAssertEqual(Set(newest.map(\.id)), Set(ids.prefix(40)), "the index knows the members' new timestamps")
        for q in ["a", "b", "n", "ab", "ba", "nn", "aba", "bab", "a b", "ab@", "+1 5", "xyz", "abna", "b.ex"] {
            for favoritesOnly in [false, true] {
                let patterns = SearchDocument.patterns(for: q)
                let expected = everyone.filter { c in
                    let text = SearchDocument.text(for: c)
                    return (!favoritesOnly || c.favorite) && patterns.contains { text.contains($0) }
                }.map(\.id)
                let found = try store.query(ContactQuery(text: q, favoritesOnly: favoritesOnly))
                let ids = found.contacts.map(\.id)
                let firstDifference = Array(zip(ids, expected)).firstIndex { $0 != $1 } ?? min(ids.count, expected.count)
                XCTAssertTrue(
                    ids == expected,
                    "'\(q)' favorites: \(favoritesOnly): \(ids.count) found, \(expected.count) expected; they part at \(firstDifference)")
                XCTAssertEqual(found.total, expected.count, "'\(q)'")
                // Pages from either end, as a scan that keeps only what a page needs makes them.
                for (offset, limit) in [(0, 1), (0, 25), (3, 10), (expected.count - 2, 5), (expected.count, 3)] where offset >= 0 {
                    var page = ContactQuery(text: q, favoritesOnly: favoritesOnly, limit: limit, offset: offset)
                    XCTAssertEqual(
                        try store.query(page).contacts.map(\.id), Array(expected.dropFirst(offset).prefix(limit)),
                        "'\(q)' \(offset)+\(limit)")
                    page.sort = [ContactQuery.Sort(.name, ascending: false)]
                    let descending = try store.query(page)
                    XCTAssertEqual(
                        descending.contacts.map(\.id), Array(expected.reversed().dropFirst(offset).prefix(limit)),
                        "'\(q)' descending \(offset)+\(limit)")
                    XCTAssertEqual(descending.total, expected.count)
                }
            }
        }
        let listed = try store.query(ContactQuery(limit: 20, offset: 7))
        XCTAssertEqual(listed.total, everyone.count)
        XCTAssertEqual(listed.contacts.map(\.id), Array(everyone.map(\.id)[7..<27]), "lists from the index keep name order")
    }
}
