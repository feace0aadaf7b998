import ContactsCore
import Foundation
import VCard
import XCTest

@testable import ContactsStore

/// The history keeps each change as what it replaced, not as a copy of the whole contact;
/// every earlier state still reads back exactly.
final class HistoryDeltaTests: StoreTestCase {
    func full(_ name: String) -> Contact {
        var c = Contact(name: name)
        c.structuredName = StructuredName(family: "Bell", given: "Kate")
        c.phones = [LabeledValue(value: "+1 555 0100", label: "cell"), LabeledValue(value: "555-0101", label: "work")]
        c.emails = [LabeledValue(value: "kate@example.com", label: "home")]
        var a = PostalAddress()
        a.street = "1 Infinite Loop"
        a.locality = "Cupertino"
        a.country = "USA"
        c.addresses = [a]
        c.organization = "Creative Consulting"
        c.title = "Producer"
        c.birthday = "1978-01-20"
        c.note = "met at the conference, long ago, and a note long enough to matter in a copy of the contact"
        c.urls = [LabeledValue(value: "https://example.com/kate")]
        c.groups = ["Band", "Work"]
        c.vcardProperties = [
            VCardProperty(name: "FN", text: name), VCardProperty(name: "X-SOCIALPROFILE", text: "twitter:kate"),
        ]
        return c
    }

    func before(_ revision: Int, of id: String) throws -> String {
        try store.read { db in
            let s = try db.prepare("SELECT before FROM history WHERE item = ? AND revision = ?")
            try s.bind([.text(id), .int(Int64(revision))])
            defer { s.reset() }
            return try s.step() ? s.optionalText(0) ?? "" : ""
        }
    }

    func testTenEditsKeepTenSmallDifferencesAndEveryRevisionReadsAsItWas() throws {
        let kate = try store.create(full("Kate Bell"))
        var states = [kate]
        for edit in 1...10 {
            let c = try store.update(id: kate.id) { c in
                c.note = "edited \(edit) times"
                if edit == 4 { c.phones.removeLast() }
                if edit == 7 {
                    c.groups = ["Work"]
                    c.favorite = true
                }
                if edit == 9 { c.vcardProperties = nil }
            }
            states.append(c)
        }
        let whole = StoredBody.encode(states[0]).utf8.count
        let kept = try before(3, of: kate.id)
        XCTAssertLessThan(kept.utf8.count * 3, whole, "a note's edit keeps the note, not the contact: \(kept)")
        XCTAssertFalse(kept.contains("Cupertino"))
        for state in states {
            let read = try store.contact(id: kate.id, revision: state.revision)
            XCTAssertEqual(read, state, "revision \(state.revision)")
        }
        let h = try store.history(id: kate.id)
        XCTAssertEqual(h.map(\.fields).prefix(4), [["note"], ["note"], ["note"], ["note", "favorite", "groups"]])
        XCTAssertEqual(h.last?.change, "created")
        XCTAssertEqual(Set(h.last?.fields ?? []).isSuperset(of: ["name", "phones", "note", "groups", "properties"]), true)
    }

    func testEveryFieldOfAContactIsOneTheHistoryKnows() {
        // A field added to Contact and not to HistoryDelta.fields would be lost from history.
        let stored = Mirror(reflecting: Contact(name: "")).children.compactMap(\.label)
            .filter { !["id", "revision", "createdAt", "updatedAt", "account"].contains($0) }
            .map { $0 == "vcardProperties" ? "properties" : $0 }
        XCTAssertEqual(Set(stored), Set(HistoryDelta.fields.map(\.name)))
        var every = full("Kate Bell")
        every.uid = "urn:uuid:kate"
        every.photo = .url("https://example.com/kate.jpg")
        every.favorite = true
        every.nickname = "Katie"
        every.phoneticName = PhoneticName(given: "ケイト", family: "ベル")
        every.department = "Sound"
        every.dates = [LabeledValue(value: "2010-06-12", label: "anniversary")]
        every.related = [LabeledValue(value: "Tom Bell", label: "spouse")]
        every.impp = [LabeledValue(value: "xmpp:kate@example.org")]
        every.pronouns = "she/her"
        every.gender = "female"
        every.collected = true
        XCTAssertEqual(HistoryDelta.changes(every, Contact(name: "")), HistoryDelta.fields.map(\.name))
    }

    func testARevertToTheFirstRevisionWalksBackThroughEveryChange() throws {
        let kate = try store.create(full("Kate Bell"))
        for edit in 1...5 { _ = try store.update(id: kate.id) { $0.title = "title \(edit)" } }
        _ = try store.update(id: kate.id) { $0.emails = [] }
        let back = try store.revert(id: kate.id, to: 1)
        XCTAssertEqual(back.title, "Producer")
        XCTAssertEqual(back.emails.map(\.value), ["kate@example.com"])
        XCTAssertEqual(back.revision, 8)
        XCTAssertEqual(try store.history(id: kate.id).first?.fields, ["emails", "title"])
    }

    func testAnEarlierStateKeptWholeStillReadsBack() throws {
        // A store of schema 6 from before the differences kept the whole row.
        let kate = try add("Kate Bell", phones: ["555-1"], groups: ["Work"])
        _ = try store.update(id: kate.id) { $0.title = "Producer" }
        try store.write { db, _ in
            try db.execute(
                """
                UPDATE history SET before = json_object('uid', 'urn:uuid:kate', 'revision', 1, 'name', 'Kate Bell', 'favorite', 0,
                    'createdAt', 1, 'updatedAt', 2, 'body', '{"phones":[{"value":"555-1","label":null}]}', 'vcard', NULL,
                    'groups', json_array('Work'))
                """)
        }
        let r1 = try store.contact(id: kate.id, revision: 1)
        XCTAssertEqual(r1.phones.map(\.value), ["555-1"])
        XCTAssertNil(r1.title)
        XCTAssertEqual(r1.groups, ["Work"])
        XCTAssertEqual(try store.history(id: kate.id).first?.fields, ["uid", "title"])
    }

    func testARedoBringsAGroupedImportBackInItsGroups() throws {
        var kate = Contact(name: "Kate Bell")
        kate.uid = "urn:uuid:kate"
        kate.groups = ["Band"]
        _ = try store.importContacts([ImportItem(contact: kate, carriesGroups: true, carriesFavorite: false)], origin: "import:k.vcf")
        _ = try store.undo()
        XCTAssertEqual(try store.query(ContactQuery()).total, 0)
        _ = try store.redo()
        let back = try XCTUnwrap(try store.query(ContactQuery()).contacts.first)
        XCTAssertEqual(back.name, "Kate Bell")
        XCTAssertEqual(back.groups, ["Band"])
        XCTAssertEqual(try store.trash().total, 0)
    }
}
