import ContactsCore
import Foundation
import VCard
import XCTest

@testable import ContactsStore

/// The declared fields in the store: kept, searched, sorted by, and taken from the cards of
/// contacts stored before they were fields.
final class DeclaredFieldStoreTests: StoreTestCase {
    @discardableResult
    func japanese(_ name: String, family: String, given: String, reading: PhoneticName) throws -> Contact {
        var c = Contact(name: name)
        c.structuredName = StructuredName(family: family, given: given)
        c.phoneticName = reading
        return try store.create(c)
    }

    func testANameIsFoundByItsReadingInKanaOrRomajiAndSortsByIt() throws {
        // By their readings 渡辺 (watanabe) comes before 山田 (yamada), and both fall among
        // Latin names where their romaji do.
        try japanese("山田 太郎", family: "山田", given: "太郎", reading: PhoneticName(given: "たろう", family: "やまだ"))
        try japanese("渡辺 花子", family: "渡辺", given: "花子", reading: PhoneticName(given: "はなこ", family: "わたなべ"))
        try add("Abe Lincoln")
        try add("Zed Brown")
        XCTAssertEqual(try search("やまだ"), ["山田 太郎"])
        XCTAssertEqual(try search("yamada"), ["山田 太郎"])
        XCTAssertEqual(try search("watanabe hanako"), ["渡辺 花子"])
        XCTAssertEqual(try search("山田"), ["山田 太郎"])
        let order = try names(ContactQuery(limit: 10))
        XCTAssertEqual(order, ["Abe Lincoln", "渡辺 花子", "山田 太郎", "Zed Brown"], "by the reading's romaji, as a phone's list reads")
        // A changed reading moves the contact.
        let yamada = try XCTUnwrap(store.query(ContactQuery(text: "yamada")).contacts.first)
        _ = try store.update(id: yamada.id) { $0.phoneticName = PhoneticName(given: "たろう", family: "あかぎ") }
        XCTAssertEqual(try names(ContactQuery(limit: 10)).prefix(2), ["Abe Lincoln", "山田 太郎"])
        XCTAssertEqual(try search("akagi"), ["山田 太郎"])
    }

    func testRelatedNamesAndMessagingHandlesAreFound() throws {
        var c = Contact(name: "Rita Silva")
        c.related = [LabeledValue(value: "João Pereira", label: "spouse")]
        c.impp = [LabeledValue(value: "xmpp:ritinha@jabber.example"), LabeledValue(value: "https://social.example/@rita")]
        c.department = "Oncology"
        c.dates = [LabeledValue(value: "2015-10-10", label: "anniversary")]
        let stored = try store.create(c)
        try add("Someone Else")
        XCTAssertEqual(try search("joao"), ["Rita Silva"])
        XCTAssertEqual(try search("ritinha@"), ["Rita Silva"])
        XCTAssertEqual(try search("oncol"), ["Rita Silva"])
        XCTAssertEqual(try search("2015"), [], "dates are not searched")
        let read = try XCTUnwrap(store.contact(id: stored.id))
        XCTAssertEqual(read.related, c.related)
        XCTAssertEqual(read.impp, c.impp)
        XCTAssertEqual(read.dates, c.dates)
        XCTAssertEqual(read.department, "Oncology")
    }

    func testContactsStoredBeforeTheFieldsTakeThemFromTheirCards() throws {
        let text = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Yamada;Taro;;;\r
            FN:Yamada Taro\r
            X-PHONETIC-LAST-NAME:やまだ\r
            ORG:Acme;Research\r
            item1.X-ABDATE:2010-06-12\r
            item1.X-ABLabel:_$!<Anniversary>!$_\r
            X-JABBER:taro@jabber.example\r
            END:VCARD\r

            """
        let c = try store.create(try VCardMapping.contact(from: try XCTUnwrap(VCardParser.parse(text).cards.first)))
        store.close()
        // As schema 17 kept it: the card's properties, and a body without the fields.
        let downgrade = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE contacts SET body = json_remove(body, '$.dates', '$.impp', '$.department', '$.phoneticName'), sort_key = 'yamada taro', search = 'yamada taro'")
            db.execute("DELETE FROM settings WHERE key = 'declaredFieldsFrom'")
            \(Self.downgradeTo(17))
            """
        try runPython(downgrade)

        store = try ContactStore(path: databasePath)
        let read = try XCTUnwrap(store.contact(id: c.id))
        XCTAssertEqual(read.dates, [LabeledValue(value: "2010-06-12", label: "anniversary")])
        XCTAssertEqual(read.impp.map(\.value), ["xmpp:taro@jabber.example"])
        XCTAssertEqual(read.department, "Research")
        XCTAssertEqual(read.phoneticName?.family, "やまだ")
        XCTAssertEqual(try search("やまだ"), ["Yamada Taro"])
        XCTAssertEqual(try search("taro@jabber"), ["Yamada Taro"])
        // Written back, the card keeps what it said.
        let out = VCardMapping.properties(for: try store.exportContacts(ids: [c.id])[0])
        XCTAssertEqual(out.first { $0.name == "ORG" }?.value.component(1), "Research")
        XCTAssertTrue(out.contains { $0.name == "X-ABDATE" && $0.text == "2010-06-12" }, "\(out)")
    }

    func testNamesStoredWithTheIterationMarkAreFoldedAgain() throws {
        let c = try store.create(Contact(name: "佐々木 翔"))
        try add("Zuo Zuwei")
        store.close()
        // As schema 19 kept it: the transliterator's reading of 々.
        let downgrade = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE contacts SET search = 'zuo⓶mu xiang' || char(10) || '佐々木 翔', sort_key = 'zuo⓶mu xiang' WHERE name = '佐々木 翔'")
            \(Self.downgradeTo(19))
            """
        try runPython(downgrade)

        store = try ContactStore(path: databasePath)
        XCTAssertEqual(try search("zuo zuo mu"), ["佐々木 翔"])
        XCTAssertEqual(try search("佐々木"), ["佐々木 翔"])
        XCTAssertEqual(try store.contact(id: c.id).name, "佐々木 翔")
        XCTAssertEqual(try names(ContactQuery(limit: 10)), ["佐々木 翔", "Zuo Zuwei"], "zuo zuo mu before zuo zuwei")
    }

    func testRevisionsRecordedBeforeTheFieldsTakeThemFromTheirCards() throws {
        func card(_ anniversary: String) throws -> Contact {
            let text = """
                BEGIN:VCARD\r
                VERSION:3.0\r
                UID:anniversary-1\r
                FN:Ana Lima\r
                item1.X-ABDATE:\(anniversary)\r
                item1.X-ABLabel:_$!<Anniversary>!$_\r
                END:VCARD\r

                """
            return try VCardMapping.contact(from: try XCTUnwrap(VCardParser.parse(text).cards.first))
        }
        let first = try store.create(try card("2001-05-20"))
        let second = try card("2011-09-03")
        _ = try store.update(id: first.id) { c in
            c.vcardProperties = second.vcardProperties
            c.dates = second.dates
        }
        store.close()
        // As schema 17 kept it: bodies and history without the fields, the cards holding them.
        let downgrade = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE contacts SET body = json_remove(body, '$.dates')")
            for rowid, before in db.execute("SELECT rowid, before FROM history WHERE before IS NOT NULL").fetchall():
                o = json.loads(before)
                o.pop("dates", None)
                if "changed" in o:
                    o["changed"] = [f for f in o["changed"] if f != "dates"]
                db.execute("UPDATE history SET before = ? WHERE rowid = ?", (json.dumps(o), rowid))
            db.execute("DELETE FROM settings WHERE key = 'declaredFieldsFrom'")
            \(Self.downgradeTo(17))
            """
        try runPython(downgrade)

        store = try ContactStore(path: databasePath)
        XCTAssertEqual(try XCTUnwrap(store.contact(id: first.id)).dates.map(\.value), ["2011-09-03"])
        XCTAssertEqual(try store.contact(id: first.id, revision: 1).dates.map(\.value), ["2001-05-20"])
        let reverted = try store.revert(id: first.id, to: 1)
        XCTAssertEqual(reverted.dates.map(\.value), ["2001-05-20"])
        let out = VCardMapping.properties(for: try store.exportContacts(ids: [first.id])[0])
        XCTAssertEqual(out.filter { $0.name == "X-ABDATE" }.map(\.text), ["2001-05-20"], "\(out)")
        // Edits made since record the fields: the revision of the revert reads as it was.
        _ = try store.update(id: first.id) { $0.dates = [] }
        XCTAssertEqual(try store.contact(id: first.id, revision: reverted.revision).dates.map(\.value), ["2001-05-20"])
    }

    func testABirthdayStoredWithThePlaceholderYearLosesIt() throws {
        var c = Contact(name: "Card Book")
        c.birthday = "1604-03-02"
        let stored = try store.create(c)
        store.close()
        try runPython(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            \(Self.withoutMail)
            db.execute("PRAGMA user_version = 22")
            db.commit()
            """)
        store = try ContactStore(path: databasePath)
        XCTAssertEqual(try store.contact(id: stored.id).birthday, "--03-02")
    }
}
