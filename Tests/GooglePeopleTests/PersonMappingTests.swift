import ContactsCore
import JSONCore
import XCTest

@testable import GooglePeople

/// A Google person and a contact, field by field both ways, and the mask of an update.
final class PersonMappingTests: XCTestCase {
    let person: JSONObject = [
        "resourceName": "people/c42", "etag": "%abc",
        "names": [
            [
                "displayName": "Dr. Ada King", "givenName": "Ada", "familyName": "King", "honorificPrefix": "Dr.",
                "phoneticGivenName": "エイダ", "metadata": ["primary": true],
            ]
        ],
        "nicknames": [["value": "Countess"]],
        "phoneNumbers": [["value": "+44 20 7946 0018", "type": "mobile"], ["value": "+44 20 7946 0019", "type": "workFax"]],
        "emailAddresses": [["value": "ada@example.org", "type": "home"], ["value": "ada@engine.example", "type": "Engine room"]],
        "addresses": [
            ["streetAddress": "12 St James's Square", "city": "London", "postalCode": "SW1Y 4JH", "country": "UK", "type": "home"]
        ],
        "organizations": [["name": "Analytical Engines", "title": "Programmer", "department": "Notes"]],
        "birthdays": [["date": ["year": 1815, "month": 12, "day": 10]]],
        "events": [["date": ["month": 7, "day": 8], "type": "anniversary"]],
        "relations": [["person": "William King", "type": "spouse"]],
        "imClients": [["username": "ada@xmpp.example", "protocol": "jabber"]],
        "sipAddresses": [["value": "ada@sip.example", "type": "work"]],
        "urls": [["value": "https://ada.example", "type": "homePage"]],
        "biographies": [["value": "First programmer.\nWrote Note G.", "contentType": "TEXT_PLAIN"]],
        "genders": [["value": "female"]],
        "memberships": [
            ["contactGroupMembership": ["contactGroupResourceName": "contactGroups/myContacts"]],
            ["contactGroupMembership": ["contactGroupResourceName": "contactGroups/starred"]],
            ["contactGroupMembership": ["contactGroupResourceName": "contactGroups/1a2b"]],
        ],
    ]

    func testEveryFieldComesInAsTheTypedField() {
        let c = PersonMapping.contact(from: person, labels: ["contactGroups/1a2b": "Family"])
        XCTAssertEqual(c.uid, "google-c42", "a person made elsewhere: a UID of its resource name")
        XCTAssertEqual(c.name, "Dr. Ada King")
        XCTAssertEqual(c.structuredName, StructuredName(family: "King", given: "Ada", prefix: "Dr."))
        XCTAssertEqual(c.phoneticName?.given, "エイダ")
        XCTAssertEqual(c.nickname, "Countess")
        XCTAssertEqual(c.phones.map(\.label), ["mobile", "work fax"])
        XCTAssertEqual(c.emails.map(\.label), ["home", "Engine room"], "a custom type is a label as it is")
        XCTAssertEqual(c.addresses.first?.locality, "London")
        XCTAssertEqual(c.addresses.first?.label, "home")
        XCTAssertEqual([c.organization, c.title, c.department], ["Analytical Engines", "Programmer", "Notes"])
        XCTAssertEqual(c.birthday, "1815-12-10")
        XCTAssertEqual(c.dates, [LabeledValue(value: "--07-08", label: "anniversary")])
        XCTAssertEqual(c.related, [LabeledValue(value: "William King", label: "spouse")])
        XCTAssertEqual(
            c.impp, [LabeledValue(value: "ada@xmpp.example", label: "jabber"), LabeledValue(value: "sip:ada@sip.example", label: "work")],
            "SIP addresses are messaging, as sip: URIs")
        XCTAssertEqual(c.urls.first?.label, "home page")
        XCTAssertEqual(c.note, "First programmer.\nWrote Note G.")
        XCTAssertEqual(c.gender, "female")
        XCTAssertTrue(c.favorite, "starred")
        XCTAssertEqual(c.groups, ["Family"], "labels by name; Google's own groups are no groups here")
    }

    func testAContactGoesBackAsTheSameFields() {
        let labels = ["contactGroups/1a2b": "Family"]
        let c = PersonMapping.contact(from: person, labels: labels)
        let back = PersonMapping.person(c, fields: PersonMapping.writtenFields, labelIDs: ["Family": "contactGroups/1a2b"])
        for field in ["phoneNumbers", "emailAddresses", "birthdays", "events", "relations", "imClients", "sipAddresses", "urls", "genders"]
        {
            XCTAssertEqual(back[field], person[field], field)
        }
        XCTAssertEqual(back["names"]?.arrayValue?.first?["givenName"], "Ada")
        XCTAssertEqual(back["names"]?.arrayValue?.first?["phoneticGivenName"], "エイダ")
        XCTAssertEqual(back["organizations"], person["organizations"])
        XCTAssertEqual(back["addresses"], person["addresses"])
        XCTAssertEqual(back["memberships"], person["memberships"], "myContacts kept, starred and the label from the contact")
        // Read again, it is the same contact.
        var again = back
        again["resourceName"] = "people/c42"
        XCTAssertEqual(PersonMapping.contact(from: again, labels: labels), c)
    }

    func testAnUpdateNamesOnlyTheFieldsThatChanged() {
        let ids = ["Family": "contactGroups/1a2b", "Work": "contactGroups/9f"]
        let before = PersonMapping.contact(from: person, labels: ["contactGroups/1a2b": "Family"])
        var after = before
        after.title = "Analyst"
        XCTAssertEqual(PersonMapping.mask(from: before, to: after, labelIDs: ids), ["organizations"])
        after.favorite = false
        after.groups.append("Work")
        after.emails[0].label = "work"
        XCTAssertEqual(PersonMapping.mask(from: before, to: after, labelIDs: ids), ["emailAddresses", "memberships", "organizations"])
        XCTAssertEqual(PersonMapping.mask(from: before, to: before, labelIDs: ids), [])
        XCTAssertEqual(PersonMapping.mask(from: nil, to: after, labelIDs: ids), PersonMapping.writtenFields.sorted(), "a new person: all")
    }

    func testLabelsAndDatesOfEveryShape() {
        XCTAssertEqual(PersonMapping.googleType("home fax"), "homeFax")
        XCTAssertEqual(PersonMapping.googleType("Work Mobile"), "workMobile")
        XCTAssertEqual(PersonMapping.googleType("fax"), "otherFax")
        XCTAssertEqual(PersonMapping.googleType("Grandma's landline"), "Grandma's landline")
        XCTAssertEqual(PersonMapping.dateObject("--02-29"), .object(["month": 2, "day": 29]))
        XCTAssertNil(PersonMapping.dateObject("sometime"))
        XCTAssertNil(PersonMapping.date(["date": ["year": 1990]]), "a year alone is no date here")
        XCTAssertEqual(PersonMapping.date(["date": ["year": 0, "month": 3, "day": 1]]), "--03-01")
        let named = PersonMapping.contact(from: ["resourceName": "people/c1", "emailAddresses": [["value": "x@example.com"]]], labels: [:])
        XCTAssertEqual(named.name, "x@example.com", "a person without a name is called by what there is")
        let kept = PersonMapping.contact(
            from: ["resourceName": "people/c1", "clientData": [["key": "contactsd.uid", "value": "uid-1"]]], labels: [:])
        XCTAssertEqual(kept.uid, "uid-1", "a contact made here keeps its UID through Google")
    }
}
