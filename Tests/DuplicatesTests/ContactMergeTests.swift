import ContactsCore
import VCard
import XCTest

@testable import Duplicates

/// Merging keeps every value of every card: each asserted one by one.
final class ContactMergeTests: XCTestCase {
    func annas() throws -> [Contact] { Array(try DuplicateFinderTests.contacts().prefix(3)) }

    func testThreeCardsOfOnePersonMergeWithoutLosingAValue() throws {
        let cards = try annas()
        XCTAssertEqual(ContactMerge.mostComplete(cards), 0)
        let m = ContactMerge.merge(cards, into: 0, region: "DE")
        XCTAssertEqual(m.id, "C0")
        XCTAssertEqual(m.uid, cards[0].uid)
        XCTAssertEqual(m.name, "Anna Schmidt")
        // One number in three spellings, one email in two cases: once each, as first written.
        XCTAssertEqual(m.phones, [LabeledValue(value: "0171 5550199", label: "mobile")])
        XCTAssertEqual(m.emails.map(\.value), ["anna@example.com"])
        XCTAssertEqual(m.birthday, "1985-03-04")
        XCTAssertEqual(m.groups, ["Friends"])
        XCTAssertEqual(
            m.note,
            """
            Met at the conference

            \(ContactMerge.noteHeading)
            Name: Anna Maria Schmidt
            Name: Schmidt Anna
            Birthday: 1985-04-03
            """)
        // The Apple card's social profile is a messaging field, with its label; its property
        // is not copied beside it, so the field is written once.
        XCTAssertEqual(m.impp, [LabeledValue(value: "https://social.example/anna", label: "Mastodon")])
        let props = try XCTUnwrap(m.vcardProperties)
        XCTAssertFalse(props.contains { $0.name == "X-SOCIALPROFILE" || $0.name == "X-ABLABEL" && $0.text == "Mastodon" })
        let exported = VCardMapping.properties(for: m)
        let social = try XCTUnwrap(exported.first { $0.text == "https://social.example/anna" })
        XCTAssertFalse(exported.contains { $0.group != nil && $0.group == social.group && $0.name == "TEL" })
    }

    func testAMergedContactExportsAndImportsAsItIs() throws {
        let m = ContactMerge.merge(try annas(), into: 0, region: "DE")
        var text = ""
        VCardWriter.write(VCard(properties: VCardMapping.properties(for: m)), version: .v4, into: &text)
        let back = try VCardMapping.contact(from: try XCTUnwrap(VCardParser.parse(text).cards.first))
        XCTAssertEqual(back.name, m.name)
        XCTAssertEqual(back.phones, m.phones)
        XCTAssertEqual(back.emails, m.emails)
        XCTAssertEqual(back.birthday, m.birthday)
        XCTAssertEqual(back.note, m.note)
        XCTAssertEqual(back.groups, m.groups)
        XCTAssertTrue(text.contains("https://social.example/anna"), text)
    }

    func testSingleValuesListsPhotosAndFavorites() {
        var a = Contact(name: "Bo Lind")
        a.id = "A"
        a.organization = "Acme"
        a.photo = .stored(hash: "small", mimeType: "image/jpeg", width: 100, height: 100)
        a.addresses = [PostalAddress(street: "Main St 1", locality: "Springfield")]
        a.urls = [LabeledValue(value: "https://bo.example")]
        var b = Contact(name: "Bo Lind")
        b.id = "B"
        b.organization = "ACME"
        b.title = "Engineer"
        b.nickname = "Bobo"
        b.favorite = true
        b.photo = .stored(hash: "large", mimeType: "image/jpeg", width: 800, height: 600)
        b.addresses = [PostalAddress(street: "main st 1", locality: "springfield"), PostalAddress(street: "Elm Rd 2")]
        b.urls = [LabeledValue(value: "https://bo.example", label: "home"), LabeledValue(value: "https://blog.example")]
        b.groups = ["Work"]
        b.note = "Likes tea"
        var c = Contact(name: "Bo Lind")
        c.id = "C"
        c.organization = "Other Corp"
        c.groups = ["work", "Chess"]
        c.note = "Likes tea"
        let m = ContactMerge.merge([a, b, c], into: 0, region: nil)
        XCTAssertEqual(m.organization, "Acme")
        XCTAssertEqual(m.title, "Engineer", "the first one set")
        XCTAssertEqual(m.nickname, "Bobo")
        XCTAssertTrue(m.favorite)
        XCTAssertEqual(m.photo?.hash, "large", "the largest photo")
        XCTAssertEqual(m.addresses.map(\.street), ["Main St 1", "Elm Rd 2"])
        XCTAssertEqual(m.urls, [LabeledValue(value: "https://bo.example", label: "home"), LabeledValue(value: "https://blog.example")])
        XCTAssertEqual(m.groups, ["Work", "Chess"])
        // "ACME" is Acme in another case; Other Corp is kept in the note; one "Likes tea".
        XCTAssertEqual(m.note, "Likes tea\n\n\(ContactMerge.noteHeading)\nOrganization: Other Corp")
        XCTAssertNil(m.vcardProperties)
    }

    func testContactsWithOneContentKeyMergeWithoutAValueAdded() {
        var a = Contact(name: "Bo Lind")
        a.emails = [LabeledValue(value: "bo@example.org"), LabeledValue(value: "lind@example.org")]
        a.organization = "Acme"
        a.addresses = [PostalAddress(street: "Main St 1", locality: "Springfield")]
        a.note = "Likes tea"
        var b = a
        // Other case, order, accents where they fold away, spaces around a note: the same content.
        b.emails = [LabeledValue(value: "LIND@example.org", label: "work"), LabeledValue(value: "Bo@Example.org")]
        b.organization = "ACME"
        b.addresses = [PostalAddress(street: "main st 1", locality: "springfield")]
        b.note = "Likes tea\n"
        b.groups = ["Chess"]
        b.favorite = true
        let key = { (c: Contact) in ContactMerge.contentKey(c, phoneKeys: ["+4930123456"]) }
        XCTAssertEqual(key(a), key(b))
        let merged = ContactMerge.merge([a, b], into: 0, region: nil)
        XCTAssertEqual(merged.emails.count, 2)
        XCTAssertEqual(merged.note, "Likes tea", "nothing but groups and the favorite added")
        // Each field that a merge would add to makes the key differ.
        var changes: [(String, (inout Contact) -> Void)] = [
            ("name", { $0.name = "Bo Lindh" }), ("email", { $0.emails.append(LabeledValue(value: "x@example.org")) }),
            ("url", { $0.urls = [LabeledValue(value: "https://bo.example")] }),
            ("address", { $0.addresses.append(PostalAddress(street: "Elm Rd 2")) }), ("nickname", { $0.nickname = "Bobo" }),
            ("organization", { $0.organization = "Other Corp" }), ("title", { $0.title = "Engineer" }),
            ("birthday", { $0.birthday = "1980-01-02" }), ("note", { $0.note = "Likes coffee" }),
            ("photo", { $0.photo = .stored(hash: "h", mimeType: "image/jpeg", width: 1, height: 1) }),
        ]
        changes.append(("photo link", { $0.photo = .url("https://bo.example/me.jpg") }))
        for (field, change) in changes {
            var c = a
            change(&c)
            XCTAssertNotEqual(key(c), key(a), field)
        }
        XCTAssertNotEqual(ContactMerge.contentKey(a, phoneKeys: ["+4930123457"]), key(a), "phone")
        XCTAssertEqual(ContactMerge.contentKey(a, phoneKeys: ["+4930123456", "+4930123456"]), key(a), "one number twice")
    }
}
