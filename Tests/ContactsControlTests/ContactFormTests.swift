import ContactsCore
import JSONCore
import XCTest

@testable import ContactsControl

/// The form `contactsctl edit` opens: a contact written out reads back as the same fields,
/// and mistakes are told with their line.
final class ContactFormTests: XCTestCase {
    /// Every field the form has.
    static let formFields = [
        "name", "structuredName", "nickname", "organization", "title", "birthday", "favorite", "phones", "emails", "urls", "addresses",
        "groups", "note", "phoneticName", "department", "dates", "related", "impp", "pronouns", "gender",
    ]

    let kate: JSONValue = [
        "id": "X", "revision": 3, "name": "Kate Bell",
        "structuredName": ["given": "Kate", "family": "Bell", "additional": "", "prefix": "Dr.", "suffix": ""],
        "nickname": "Katie", "organization": "Creative Consulting", "title": "Producer", "birthday": "--01-20", "favorite": true,
        "phones": [["value": "(555) 564-8583", "label": "mobile"], ["value": "ext: 12", "e164": .null], ["value": "555 0100"]],
        "emails": [["value": "kate@example.com", "label": "Grandma's inbox"]],
        "urls": [["value": "https://kate.example"]],
        "addresses": [
            ["street": "165 Davis Street\nSuite 200", "locality": "Hillsborough", "region": "CA", "postalCode": "94010", "label": "work"],
            ["country": "日本"],
        ],
        "groups": ["Work", "Friends"], "note": "Line one\n\n  indented line three\n# not a comment",
        "phoneticName": ["given": "ケイト", "middle": "", "family": "ベル"], "department": "Sound", "pronouns": "she/her",
        "gender": "female", "dates": [["value": "2010-06-12", "label": "anniversary"], ["value": "--03-04"]],
        "related": [["value": "Tom Bell", "label": "spouse"]], "impp": [["value": "xmpp:kate@example.org", "label": "work"]],
    ]

    func testTheFormHasEveryFieldAContactHas() {
        // A field declared for contacts and missing here could not be edited in the editor.
        for f in DeclaredField.all { XCTAssertTrue(Self.formFields.contains(f.name), "the form has no \(f.name)") }
        let editable = Set(Contact.editableFields.map(\.self)).subtracting(["uid", "account", "phone", "email", "address"])
        XCTAssertEqual(editable.subtracting(Self.formFields), [])
    }

    func testAContactReadsBackAsItsFields() throws {
        let text = ContactForm.text(for: kate)
        let fields = try XCTUnwrap(try ContactForm.fields(text))
        for key in Self.formFields {
            XCTAssertEqual(
                EditorSession.normalized(key, fields[key] ?? .null), EditorSession.normalized(key, kate[key] ?? .null),
                "\(key) in:\n\(text)")
        }
        XCTAssertEqual(fields.count, Self.formFields.count)
        XCTAssertEqual(fields["note"], "Line one\n\n  indented line three\n# not a comment")
        XCTAssertEqual(fields["addresses"]?.arrayValue?.first?["street"], "165 Davis Street\nSuite 200")
        XCTAssertTrue(text.contains("im:\n  - work: xmpp:kate@example.org"), text)
        XCTAssertTrue(text.contains("family name reading: ベル"), text)
    }

    func testAnEmptyFormIsNothingAndANewOneNeedsAName() throws {
        XCTAssertNil(try ContactForm.fields("# only comments\n\n"))
        XCTAssertThrowsError(try ContactForm.fields(ContactForm.text(for: nil))) { e in
            XCTAssertEqual((e as? ContactForm.Problem)?.message, "a contact needs a name")
        }
    }

    func testMistakesAreToldWithTheirLine() {
        let cases: [(String, Int, String)] = [
            ("name: A\nnick: B\n", 2, "there is no field 'nick'"),
            ("name: A\nfavorite: maybe\n", 2, "favorite is yes or no, not 'maybe'"),
            ("name: A\nname: B\n", 2, "'name' is given twice"),
            ("name: A\nphones: 123\n", 2, "a list's values go on the lines below it"),
            ("name: A\naddresses:\n  - home:\n      planet: Mars\n", 4, "an address has no part 'planet'"),
            ("name: A\naddresses:\n  - home:\n", 3, "the address has no part"),
            ("name: A\nemails:\n  - work:\n", 3, "'work:' has no value after its label"),
            ("name: A\n  stray\n", 2, "'stray' is indented, but belongs to no field"),
            ("just words\n", 1, "'just words' is not 'field: value'"),
        ]
        for (text, line, message) in cases {
            XCTAssertThrowsError(try ContactForm.fields(text), text) { e in
                let p = e as? ContactForm.Problem
                XCTAssertEqual(p?.line, line, text)
                XCTAssertTrue(p?.message.hasPrefix(message) ?? false, "\(p?.message ?? "") for \(text)")
            }
        }
    }
}
