import ContactsCore
import VCard
import XCTest

/// Group cards read and written in both spellings, by the one type the importer, the served
/// books and the sync engine share.
final class GroupCardTests: XCTestCase {
    func card(_ text: String) throws -> VCard {
        try XCTUnwrap(VCardParser.parse(Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)).cards.first)
    }

    func testBothSpellingsReadAsAGroupAndAPersonDoesNot() throws {
        let v4 = try card("BEGIN:VCARD\nVERSION:4.0\nUID:g1\nFN: Band \nKIND:group\nMEMBER:urn:uuid:A\nMEMBER:b\nEND:VCARD\n")
        XCTAssertEqual(GroupCard(v4), GroupCard(uid: "g1", name: "Band", members: ["urn:uuid:A", "b"]))
        XCTAssertEqual(GroupCard.style(of: v4), .vcard4)
        let apple = try card(
            "BEGIN:VCARD\nVERSION:3.0\nUID:g2\nFN:Team\nX-ADDRESSBOOKSERVER-KIND:Group\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:c\nEND:VCARD\n")
        XCTAssertEqual(GroupCard(apple)?.members, ["urn:uuid:c"])
        XCTAssertEqual(GroupCard.style(of: apple), .apple)
        let person = try card("BEGIN:VCARD\nVERSION:4.0\nFN:Ada\nEND:VCARD\n")
        XCTAssertNil(GroupCard(person))
        guard case .person(let ada, _) = try CardContent(person) else { return XCTFail("a person's card is a person") }
        XCTAssertEqual(ada.name, "Ada")
        guard case .group(let band) = try CardContent(v4) else { return XCTFail("a group card is a group") }
        XCTAssertEqual(band.name, "Band")
    }

    func testTheBytesTellAGroupCardWithoutAParse() {
        for (text, group) in [("KIND:GROUP\r\n", true), ("x-addressbookserver-kind:group", true), ("KIND:individual", false), ("", false)] {
            XCTAssertEqual(Array(text.utf8).withUnsafeBytes(GroupCard.mentionsGroupKind), group, text)
        }
    }

    func testAGroupIsWrittenInTheBooksStyleAndReadsBackTheSame() throws {
        let g = GroupCard(uid: "g1", name: "Band", members: ["a", "urn:uuid:b"])
        for style in [GroupCard.Style.vcard4, .apple] {
            let back = try card(g.text(style).replacingOccurrences(of: "\r\n", with: "\n"))
            XCTAssertEqual(GroupCard(back), GroupCard(uid: "g1", name: "Band", members: ["urn:uuid:a", "urn:uuid:b"]))
            XCTAssertEqual(GroupCard.style(of: back), style)
        }
    }

    func testAnUpdateKeepsTheCardsOtherPropertiesAndSaysNothingWhenNothingChanged() throws {
        let server = try card(
            "BEGIN:VCARD\nVERSION:3.0\nUID:g2\nFN:Team\nX-ADDRESSBOOKSERVER-KIND:group\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:c\nNOTE:kept\nEND:VCARD\n"
        )
        XCTAssertNil(GroupCard(uid: "", name: "Team", members: ["C"]).updating(server), "the same members in another spelling")
        let text = try XCTUnwrap(GroupCard(uid: "", name: "Crew", members: ["c", "d"]).updating(server))
        let back = try card(text.replacingOccurrences(of: "\r\n", with: "\n"))
        XCTAssertEqual(GroupCard(back), GroupCard(uid: "g2", name: "Crew", members: ["urn:uuid:c", "urn:uuid:d"]))
        XCTAssertEqual(back.first("NOTE")?.text, "kept")
        XCTAssertEqual(GroupCard.bareUID(" URN:UUID:ABC "), "abc")
    }
}
