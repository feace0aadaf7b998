import ContactsCore
import JSONCore
import XCTest

@testable import ContactsStore

/// A projection is written straight from the stored rows, most members copied from the stored
/// body: it must say exactly what the contact's own JSON says of those fields.
final class ProjectionTests: StoreTestCase {
    func testAProjectionSaysWhatTheContactsJSONSaysOfItsFieldsFromRowsAndFromTheCache() throws {
        var full = Contact(name: "Zoë \"Z\" Ångström\\")
        full.structuredName = StructuredName(family: "Ångström", given: "Zoë")
        full.nickname = "Z\tz"
        full.phones = [LabeledValue(value: "+46 8 123 456", label: "work"), LabeledValue(value: "555-0100")]
        full.emails = [LabeledValue(value: "zoe@example.se", label: "home"), LabeledValue(value: "z@example.org")]
        full.addresses = [PostalAddress(street: "Storgatan 1\nVåning 2", locality: "Umeå", country: "Sverige", label: "home")]
        full.organization = "Acme \u{1F600}"
        full.title = "CTO"
        full.birthday = "1990-02-03"
        full.note = "line one\nline two \u{7}"
        full.urls = [LabeledValue(value: "https://zoe.example", label: "blog")]
        full.favorite = true
        full.groups = ["Work", "Friends"]
        full.photo = .url("https://zoe.example/me.jpg")
        _ = try store.create(full)
        // Every field absent, and a few in between.
        _ = try store.create(Contact(name: "Bo"))
        var some = Contact(name: "Ola Nordmann")
        some.emails = [LabeledValue(value: "ola@example.no")]
        some.note = ""
        _ = try store.create(some)

        var sets: [Contact.Fields] = [.all, [.name, .emails], [.phones], [.groups, .note], .storedAsShown, []]
        sets += Contact.Fields.names.compactMap(Contact.Fields.init(name:))
        var twoKeys = ContactQuery()
        twoKeys.sort = [.init(.createdAt, ascending: false), .init(.name)]
        let queries = [ContactQuery(), ContactQuery(text: "o"), ContactQuery(text: "acme", limit: 1), twoKeys]
        func text(_ q: ContactQuery, _ fields: Contact.Fields) throws -> (total: Int, contacts: JSONValue) {
            let r = try store.queryText(q, fields: fields)
            return (r.total, try JSONParser.parse(r.contacts))
        }
        for (k, q) in queries.enumerated() {
            // From the rows (nothing cached), then from the cache the whole query filled.
            store.rest()
            let fromRows = try sets.map { try text(q, $0) }
            let whole = try store.query(q)
            XCTAssertFalse(whole.contacts.isEmpty, "query \(k)")
            for (fields, rows) in zip(sets, fromRows) {
                let expected = JSONValue.array(whole.contacts.map { $0.json(fields) })
                XCTAssertEqual(rows.contacts, expected, "query \(k), fields \(fields.rawValue), from rows")
                XCTAssertEqual(rows.total, whole.total)
                XCTAssertEqual(try text(q, fields).contacts, expected, "query \(k), fields \(fields.rawValue), from the cache")
            }
        }
    }

    /// Many rows are read in parts, each on a reader of its own, and put back in the page's
    /// order among the contacts that come from the cache.
    func testManyRowsReadInPartsComeInThePagesOrder() throws {
        let made = try store.create(
            (0..<4_500).map { i in
                var c = Contact(name: "Person \(String(format: "%05d", (i * 7_919) % 4_500))")
                c.emails = [LabeledValue(value: "p\(i)@example.org", label: i % 3 == 0 ? "work" : nil)]
                return c
            })
        XCTAssertEqual(made.count, 4_500)
        // Some of the page read whole first, so that they come from the cache.
        _ = try store.query(ContactQuery(text: "person 01", limit: 300))
        for q in [ContactQuery(text: "person"), ContactQuery(text: "example", limit: 3_000, offset: 700)] {
            let r = try store.queryText(q, fields: [.name, .emails])
            let whole = try store.query(q)
            XCTAssertEqual(r.total, whole.total)
            XCTAssertEqual(try JSONParser.parse(r.contacts), .array(whole.contacts.map { $0.json([.name, .emails]) }))
        }
    }
}
