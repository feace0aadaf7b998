import ContactsCore
import JSONCore
import XCTest

final class ContactJSONTests: XCTestCase {
    func testCreating_acceptsTheSeedShorthand() throws {
        let c = try Contact(creating: [
            "name": " Kate Bell ", "phone": "555-564-8583", "email": "kate@mac.com", "address": "165 Davis Street",
        ])
        XCTAssertEqual(c.name, "Kate Bell")
        XCTAssertEqual(c.phones, [LabeledValue(value: "555-564-8583")])
        XCTAssertEqual(c.emails, [LabeledValue(value: "kate@mac.com")])
        XCTAssertEqual(c.addresses.first?.street, "165 Davis Street")
    }

    func testCreating_readsTheFullShape() throws {
        let c = try Contact(creating: [
            "name": "John Appleseed",
            "structuredName": ["family": "Appleseed", "given": "John"],
            "phones": [["value": "555-123-4567", "label": "mobile"], "555-000-1111"],
            "emails": [["value": "john@example.com", "label": "work"]],
            "addresses": [
                [
                    "street": "1 Infinite Loop", "locality": "Cupertino", "region": "CA", "postalCode": "95014", "country": "USA",
                    "label": "work",
                ]
            ],
            "birthday": "19800622", "favorite": true, "groups": ["Family", "family", "Work"], "urls": ["https://example.com"],
        ])
        XCTAssertEqual(c.structuredName?.family, "Appleseed")
        XCTAssertEqual(c.phones.count, 2)
        XCTAssertEqual(c.phones[0].label, "mobile")
        XCTAssertEqual(c.addresses.first?.postalCode, "95014")
        XCTAssertEqual(c.birthday, "1980-06-22")
        XCTAssertTrue(c.favorite)
        XCTAssertEqual(c.groups, ["Family", "Work"], "duplicate group names differing in case collapse")
        XCTAssertEqual(c.urls, [LabeledValue(value: "https://example.com")])
    }

    func testCreating_refusesAMissingOrBlankName() {
        for input: JSONObject in [[:], ["name": .null], ["name": "   "], ["name": "\t\n"]] {
            XCTAssertThrowsError(try Contact(creating: input)) { e in
                XCTAssertEqual((e as? ContactError)?.kind, .invalidData)
                XCTAssertEqual((e as? ContactError)?.field, "contact.name")
            }
        }
    }

    func testCreating_saysWhereAWrongTypeIs() {
        XCTAssertThrowsError(try Contact(creating: ["name": "A", "phones": [["value": 5]]])) { e in
            XCTAssertEqual(
                e as? ContactError, ContactError(.invalidParams, field: "contact.phones[0].value", "must be a string, not number"))
        }
        XCTAssertThrowsError(try Contact(creating: ["name": 7])) { e in
            XCTAssertEqual((e as? ContactError)?.kind, .invalidParams)
        }
        XCTAssertThrowsError(try Contact(creating: ["name": "A", "favorite": "yes"])) { e in
            XCTAssertEqual((e as? ContactError)?.field, "contact.favorite")
        }
    }

    func testCreating_refusesValuesThatCannotBeRight() {
        let bad: [(JSONObject, String)] = [
            (["name": "A", "email": "not-an-address"], "contact.email"),
            (["name": "A", "phones": ["---"]], "contact.phones[0]"),
            (["name": "A", "birthday": "1980-02-30"], "contact.birthday"),
            (["name": "A", "birthday": "yesterday"], "contact.birthday"),
            (["name": "A\u{0}B"], "contact.name"),
            (["name": .string(String(repeating: "x", count: 5000))], "contact.name"),
        ]
        for (input, field) in bad {
            XCTAssertThrowsError(try Contact(creating: input), "\(input)") { e in
                XCTAssertEqual((e as? ContactError)?.kind, .invalidData)
                XCTAssertEqual((e as? ContactError)?.field, field)
            }
        }
    }

    func testApply_replacesGivenFieldsClearsNullsAndKeepsTheRest() throws {
        var c = try Contact(creating: ["name": "Anna Haro", "email": "anna@mac.com", "nickname": "Annie", "organization": "Acme"])
        try c.apply(["nickname": .null, "organization": "Initech", "phones": ["555-522-8243"]])
        XCTAssertNil(c.nickname)
        XCTAssertEqual(c.organization, "Initech")
        XCTAssertEqual(c.emails.first?.value, "anna@mac.com")
        XCTAssertEqual(c.phones.first?.value, "555-522-8243")
        XCTAssertThrowsError(try c.apply(["name": ""]))
    }

    func testBirthday_acceptsDatesWithAndWithoutYear() throws {
        XCTAssertEqual(try Birthday.normalize("--0229", field: "b"), "--02-29")
        XCTAssertEqual(try Birthday.normalize("2000-02-29", field: "b"), "2000-02-29")
        XCTAssertThrowsError(try Birthday.normalize("1900-02-29", field: "b"))
        XCTAssertThrowsError(try Birthday.normalize("--13-01", field: "b"))
        XCTAssertEqual(try Birthday.normalize("19840704", field: "b"), "1984-07-04")
        XCTAssertEqual(try Birthday.normalize("--12-31", field: "b"), "--12-31")
        XCTAssertEqual(try Birthday.normalize("0999-01-09", field: "b"), "0999-01-09")
        for bad in ["0000-01-01", "2000-0229", "200-002-29", "2000/02/29", "2000-02-30", "--02-00", "٢٠٠٠-٠١-٠١", "2000-02-29T", ""] {
            XCTAssertThrowsError(try Birthday.normalize(bad, field: "b"), bad)
        }
    }

    func testAKeyThatIsNoFieldIsRefusedByName() {
        for (object, field, says) in [
            (["name": "Kate", "phone_number": "555"], "contact.phone_number", "is no field of a contact; the fields are name, uid"),
            (["name": "Kate", "Email": "k@example.org"], "contact.Email", "is no field of a contact"),
            (["name": "Kate", "account": "home"], "contact.account", "contacts.move"),
            (["name": "Kate", "revision": 3], "contact.revision", "set by contactsd"),
            (["name": "Kate", "photo": ["url": "https://example.org/k.jpg"]], "contact.photo", "contacts.setPhoto"),
        ] as [(JSONObject, String, String)] {
            XCTAssertThrowsError(try Contact(creating: object)) { e in
                let e = e as? ContactError
                XCTAssertEqual(e?.field, field)
                XCTAssertEqual(e?.kind, .invalidParams)
                XCTAssertTrue(e?.message.contains(says) ?? false, "\(e?.message ?? "")")
            }
        }
        var kate = Contact(name: "Kate")
        XCTAssertThrowsError(try kate.apply(["titel": "Producer"])) { e in XCTAssertEqual((e as? ContactError)?.field, "changes.titel") }
        XCTAssertNil(kate.title, "nothing of a refused change is applied")
        // A contact as the API shows it (a JSON export read back) passes over what contactsd sets.
        var shown = Contact(name: "Kate").json.objectValue ?? [:]
        shown["account"] = "home"
        XCTAssertEqual(try Contact(creating: shown, passing: Contact.shownFields).name, "Kate")
    }

    func testJSON_hasTheContractsShape() throws {
        var c = Contact(name: "Kate Bell")
        c.id = "ID"
        c.uid = "urn:uuid:x"
        c.revision = 3
        c.createdAt = 1_796_032_800_000
        c.updatedAt = 1_796_032_800_000
        let json = c.json
        XCTAssertEqual(
            json.objectValue?.keys,
            [
                "id", "uid", "revision", "name", "structuredName", "nickname", "phones", "emails", "addresses", "organization", "title",
                "birthday", "note", "urls", "phoneticName", "department", "dates", "related", "impp", "pronouns", "gender", "favorite",
                "groups", "photo", "createdAt", "updatedAt", "account", "collected",
            ])
        XCTAssertEqual(json["createdAt"], "2026-11-30T10:00:00Z")
    }
}
