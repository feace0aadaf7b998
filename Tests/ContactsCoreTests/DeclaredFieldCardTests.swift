import ContactsCore
import VCard
import XCTest

/// The declared fields as each producer writes them: read into the fields, and an edited
/// field written back in the card's own dialect with the rest of the card as it was.
final class DeclaredFieldCardTests: XCTestCase {
    func contact(_ text: String) throws -> Contact {
        try VCardMapping.contact(from: try XCTUnwrap(VCardParser.parse(text.replacingOccurrences(of: "\n", with: "\r\n")).cards.first))
    }

    func exported(_ c: Contact, _ version: VCardWriter.Version = .v3) throws -> (text: String, back: Contact) {
        var text = ""
        VCardWriter.write(VCard(properties: VCardMapping.properties(for: c)), version: version, into: &text)
        return (text, try VCardMapping.contact(from: try XCTUnwrap(VCardParser.parse(text).cards.first)))
    }

    static let apple = """
        BEGIN:VCARD
        VERSION:3.0
        N:Yamada;Taro;;;
        FN:Yamada Taro
        X-PHONETIC-FIRST-NAME:たろう
        X-PHONETIC-LAST-NAME:やまだ
        ORG:Acme;Research
        item1.X-ABDATE;type=pref:2010-06-12
        item1.X-ABLabel:_$!<Anniversary>!$_
        item2.X-ABDATE:--11-02
        item2.X-ABLabel:first met
        item3.X-ABRELATEDNAMES:Hanako Yamada
        item3.X-ABLabel:_$!<Spouse>!$_
        IMPP;X-SERVICE-TYPE=Jabber;type=HOME:xmpp:taro@jabber.example
        item4.X-SOCIALPROFILE;type=twitter:https://twitter.com/taro
        item4.X-ABLabel:Twitter
        END:VCARD
        """

    func testApple() throws {
        let c = try contact(Self.apple)
        XCTAssertEqual(c.phoneticName, PhoneticName(given: "たろう", family: "やまだ"))
        XCTAssertEqual(c.organization, "Acme")
        XCTAssertEqual(c.department, "Research")
        XCTAssertEqual(
            c.dates, [LabeledValue(value: "2010-06-12", label: "anniversary"), LabeledValue(value: "--11-02", label: "first met")])
        XCTAssertEqual(c.related, [LabeledValue(value: "Hanako Yamada", label: "spouse")])
        XCTAssertEqual(c.impp.map(\.value), ["xmpp:taro@jabber.example", "https://twitter.com/taro"])
        XCTAssertEqual(c.impp.last?.label, "Twitter")
        // Family first, as the name is written: "Yamada Taro" sorts by "やまだ たろう".
        XCTAssertEqual(c.sortName, "やまだ たろう")

        // Unchanged, the card goes out as it came.
        XCTAssertEqual(VCardMapping.properties(for: c).filter { $0.name != "UID" }.map(\.name), c.vcardProperties?.map(\.name))
        // An added date is one more Apple item with its label; the others stay as they were.
        var edited = c
        edited.dates.append(LabeledValue(value: "2019-04-01", label: "graduation"))
        edited.department = "Design"
        let (text, back) = try exported(edited)
        XCTAssertTrue(text.contains("X-ABDATE:2019-04-01"), text)
        XCTAssertTrue(text.contains(".X-ABLabel:graduation"), text)
        XCTAssertTrue(text.contains("X-ABLabel:_$!<Anniversary>!$_"), text)
        XCTAssertTrue(text.contains("ORG:Acme;Design"), text)
        XCTAssertEqual(back.dates, edited.dates)
        XCTAssertEqual(back.related, c.related)
        XCTAssertEqual(back.impp, c.impp)
    }

    func testGoogleExport() throws {
        // Google's vCard export: Apple's items, X-PHONETIC, the handles in their own properties.
        let c = try contact(
            """
            BEGIN:VCARD
            VERSION:3.0
            FN:Wang Fang
            N:Wang;Fang;;;
            X-PHONETIC-FIRST-NAME:Fāng
            X-PHONETIC-LAST-NAME:Wáng
            item1.X-ABDATE:2012-09-01
            item1.X-ABLabel:_$!<Anniversary>!$_
            item2.X-ABRELATEDNAMES:Li Wei
            item2.X-ABLabel:_$!<Manager>!$_
            X-JABBER:fang@gmail.com
            X-SKYPE:fang.wang
            END:VCARD
            """)
        XCTAssertEqual(c.related, [LabeledValue(value: "Li Wei", label: "manager")])
        XCTAssertEqual(c.impp.map(\.value), ["xmpp:fang@gmail.com", "skype:fang.wang"])
        var edited = c
        edited.impp[1].value = "skype:fang.w"
        let (text, back) = try exported(edited)
        XCTAssertTrue(text.contains("X-SKYPE:fang.w\r\n"), text)
        XCTAssertTrue(text.contains("X-JABBER:fang@gmail.com"), text)
        XCTAssertFalse(text.contains("IMPP"), text)
        XCTAssertEqual(back.impp, edited.impp)
    }

    func testEvolutionAndKDE() throws {
        let evolution = try contact(
            """
            BEGIN:VCARD
            VERSION:3.0
            FN:Jan Novák
            N:Novák;Jan;;;
            X-EVOLUTION-ANNIVERSARY:2001-05-20
            X-EVOLUTION-SPOUSE:Eva Nováková
            X-EVOLUTION-MANAGER:Petr Svoboda
            X-JABBER;TYPE=HOME:jan@jabber.cz
            END:VCARD
            """)
        XCTAssertEqual(evolution.dates, [LabeledValue(value: "2001-05-20", label: "anniversary")])
        XCTAssertEqual(evolution.related.map(\.label), ["spouse", "manager"])
        var edited = evolution
        edited.related[0].value = "Eva Novák"
        let (text, _) = try exported(edited)
        XCTAssertTrue(text.contains("X-EVOLUTION-SPOUSE:Eva Novák\r\n"), text)
        XCTAssertTrue(text.contains("X-EVOLUTION-MANAGER:Petr Svoboda"), text)

        let kde = try contact(
            """
            BEGIN:VCARD
            VERSION:3.0
            FN:Lena Weber
            X-KADDRESSBOOK-X-Anniversary:1999-08-14
            X-KADDRESSBOOK-X-SpousesName:Tom Weber
            X-KADDRESSBOOK-X-AssistantsName:Mia
            END:VCARD
            """)
        XCTAssertEqual(kde.dates, [LabeledValue(value: "1999-08-14", label: "anniversary")])
        XCTAssertEqual(kde.related, [LabeledValue(value: "Tom Weber", label: "spouse"), LabeledValue(value: "Mia", label: "assistant")])
        var k = kde
        k.dates = [LabeledValue(value: "1999-08-15", label: "anniversary")]
        let (ktext, kback) = try exported(k)
        XCTAssertTrue(ktext.uppercased().contains("X-KADDRESSBOOK-X-ANNIVERSARY:1999-08-15"), ktext)
        XCTAssertEqual(kback.dates, k.dates)
    }

    func testAndroid() throws {
        let c = try contact(
            """
            BEGIN:VCARD
            VERSION:2.1
            N:Silva;Rita;;;
            FN:Rita Silva
            X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Ritinha;1;;;;;;;;;;;;;
            X-ANDROID-CUSTOM:vnd.android.cursor.item/contact_event;2015-10-10;1;;;;;;;;;;;;;
            X-ANDROID-CUSTOM:vnd.android.cursor.item/contact_event;2020-01-05;0;Adoption;;;;;;;;;;;;
            X-ANDROID-CUSTOM:vnd.android.cursor.item/relation;João Silva;14;;;;;;;;;;;;;
            X-ANDROID-CUSTOM:vnd.android.cursor.item/relation;Ana;0;godmother;;;;;;;;;;;;
            END:VCARD
            """)
        XCTAssertEqual(c.nickname, "Ritinha")
        XCTAssertEqual(
            c.dates, [LabeledValue(value: "2015-10-10", label: "anniversary"), LabeledValue(value: "2020-01-05", label: "Adoption")])
        XCTAssertEqual(c.related, [LabeledValue(value: "João Silva", label: "spouse"), LabeledValue(value: "Ana", label: "godmother")])
        var edited = c
        edited.related.append(LabeledValue(value: "Luís", label: "brother"))
        let (text, back) = try exported(edited)
        XCTAssertTrue(text.contains("X-ANDROID-CUSTOM:vnd.android.cursor.item/relation;Luís;2"), text)
        XCTAssertEqual(back.related, edited.related)
        XCTAssertEqual(back.dates, c.dates)
    }

    func testVCard4() throws {
        let c = try contact(
            """
            BEGIN:VCARD
            VERSION:4.0
            FN:佐藤 花子
            N;SORT-AS="さとう,はなこ":佐藤;花子;;;
            ANNIVERSARY:20080401
            RELATED;TYPE=spouse;VALUE=text:佐藤 一郎
            RELATED;TYPE=child:urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6
            IMPP;PREF=1:matrix:@hanako:example.org
            GENDER:F
            PRONOUNS:she/her
            END:VCARD
            """)
        XCTAssertEqual(c.phoneticName, PhoneticName(given: "はなこ", family: "さとう"))
        XCTAssertEqual(c.sortName, "さとう はなこ")
        XCTAssertEqual(c.dates, [LabeledValue(value: "2008-04-01", label: "anniversary")])
        XCTAssertEqual(
            c.related,
            [
                LabeledValue(value: "佐藤 一郎", label: "spouse"),
                LabeledValue(value: "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", label: "child"),
            ])
        XCTAssertEqual(c.impp.map(\.value), ["matrix:@hanako:example.org"])
        XCTAssertEqual(c.gender, "female")
        XCTAssertEqual(c.pronouns, "she/her")
        var edited = c
        edited.pronouns = "they/them"
        edited.gender = "non-binary"
        let (text, back) = try exported(edited, .v4)
        XCTAssertTrue(text.contains("PRONOUNS:they/them"), text)
        XCTAssertTrue(text.contains("GENDER:;non-binary"), text)
        XCTAssertEqual(back.gender, "non-binary")
        XCTAssertEqual(back.related, c.related)
    }

    func testANewContactIsWrittenAsVCard4Has() throws {
        var c = Contact(name: "Kim Lee")
        c.dates = [LabeledValue(value: "2011-03-03", label: "anniversary"), LabeledValue(value: "--07-09", label: "name day")]
        c.related = [LabeledValue(value: "Sam Lee", label: "spouse"), LabeledValue(value: "Jo", label: "trainer")]
        c.impp = [LabeledValue(value: "xmpp:kim@example.org", label: "home")]
        c.phoneticName = PhoneticName(given: "kim", family: "lee")
        c.pronouns = "she/her"
        let (text, back) = try exported(c, .v4)
        XCTAssertTrue(text.contains("ANNIVERSARY:2011-03-03"), text)
        XCTAssertTrue(text.contains("RELATED;TYPE=spouse;VALUE=text:Sam Lee"), text)
        XCTAssertTrue(text.contains("IMPP"), text)
        XCTAssertEqual(back.dates, c.dates)
        XCTAssertEqual(back.related, c.related)
        XCTAssertEqual(back.impp, c.impp)
        XCTAssertEqual(back.phoneticName, c.phoneticName)
        XCTAssertEqual(back.pronouns, c.pronouns)
    }

    func testAClearedFieldLeavesTheCardWithItsOtherProperties() throws {
        var c = try contact(Self.apple)
        c.dates = []
        c.impp = []
        let (text, back) = try exported(c)
        XCTAssertFalse(text.contains("X-ABDATE"), text)
        XCTAssertFalse(text.contains("Anniversary"), text)
        XCTAssertFalse(text.contains("twitter"), text)
        XCTAssertEqual(back.related, [LabeledValue(value: "Hanako Yamada", label: "spouse")])
    }
}
