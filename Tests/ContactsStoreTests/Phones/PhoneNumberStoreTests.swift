import ContactsCore
import Foundation
import PhoneNumbers
import XCTest

@testable import ContactsStore

/// Phones as numbers in the store: a number found in any common form, caller ID with its
/// three kinds of match, shapes that keep the entered text, and a change of region.
final class PhoneNumberStoreTests: GermanStoreTestCase {
    func names(_ text: String) throws -> [String] { try store.query(ContactQuery(text: text)).contacts.map(\.name).sorted() }

    func testANumberIsFoundInEveryFormItIsWrittenIn() throws {
        try add("Anna Haro", phones: ["+49 171 5550199"])
        try add("Bernd Roth", phones: ["0171 5550199"])
        try add("Carla Lind", phones: ["+1 (415) 555-0132"])
        try add("Other Person", phones: ["+49 30 1234567"])
        for form in ["0171 5550199", "+49 171 5550199", "0049171 5550199", "+49 (0)171 555-01-99", "01715550199"] {
            XCTAssertEqual(try names(form), ["Anna Haro", "Bernd Roth"], form)
        }
        for form in ["+1 415-555-0132", "001 415 555 0132", "(415) 555-0132", "415 555 0132"] {
            XCTAssertTrue(try names(form).contains("Carla Lind"), form)
        }
        // Fragments keep working as digit substrings.
        XCTAssertEqual(try names("55501"), ["Anna Haro", "Bernd Roth", "Carla Lind"])
        XCTAssertEqual(try names("1234567"), ["Other Person"])
    }

    func testCallerIDFindsExactThenNationalThenShortMatches() throws {
        let anna = try add("Anna Haro", phones: ["+49 171 5550199", "+49 30 1234567"])
        let bernd = try add("Bernd Roth", phones: ["0171 5550199"])
        // Austria's number with the same national digits, and a US number ending alike.
        let austria = try add("Clara Moser", phones: ["+43 171 5550199"])
        let us = try add("Dan Smith", phones: ["+1 212 555 0199"])
        try add("Eve Nobody", phones: ["+44 20 7946 0018"])
        let found = try store.lookupPhone("+49 171 5550199")
        XCTAssertEqual(found.map(\.contact.id), [anna.id, bernd.id, austria.id, us.id], "\(found.map { ($0.contact.name, $0.match) })")
        XCTAssertEqual(found.map(\.match), [.exact, .exact, .short, .short])
        XCTAssertEqual(found[0].phone.value, "+49 171 5550199")
        XCTAssertEqual(found[0].position, 0)
        // The second phone of a contact, written in the national form.
        XCTAssertEqual(try store.lookupPhone("030 1234567").map(\.position), [1])
        XCTAssertEqual(try store.lookupPhone("garbage").count, 0)
        XCTAssertEqual(try store.lookupPhone("12").count, 0)
    }

    func testWithoutARegionNationalNumbersMatchTheirInternationalForm() throws {
        PhoneRegion.current = nil
        store.close()
        store = try ContactStore(path: databasePath)
        let bernd = try add("Bernd Roth", phones: ["0171 5550199"])
        let anna = try add("Anna Haro", phones: ["+49 171 5550199"])
        // One side without a country code: the same national number.
        XCTAssertEqual(
            try store.lookupPhone("+49 171 5550199").map { "\($0.contact.id) \($0.match)" }, ["\(anna.id) exact", "\(bernd.id) national"])
        XCTAssertEqual(
            try store.lookupPhone("0171 5550199").map { "\($0.contact.id) \($0.match)" }, ["\(anna.id) national", "\(bernd.id) national"])
        // Search compares digits, as without numbers.
        XCTAssertEqual(try names("0171 5550199"), ["Bernd Roth"])
        XCTAssertEqual(try names("+49 171 5550199"), ["Anna Haro", "Bernd Roth"])
    }

    func testStoredTextStaysAsEnteredAndNonNumbersAreKept() throws {
        let c = try add("Front Desk", phones: ["ask reception", "+1 415 555 0132 ext. 12", "1-800-FLOWERS"])
        let stored = try store.contact(id: c.id)
        XCTAssertEqual(stored.phones.map(\.value), ["ask reception", "+1 415 555 0132 ext. 12", "1-800-FLOWERS"])
        let json = stored.json["phones"]?.arrayValue ?? []
        XCTAssertEqual(json.map { $0["value"] }, ["ask reception", "+1 415 555 0132 ext. 12", "1-800-FLOWERS"])
        // Letters are keypad digits; in Germany the vanity number reads as a German one.
        XCTAssertEqual(json.map { $0["e164"] }, [.null, "+14155550132", "+4918003569377"])
        XCTAssertEqual(json[0]["type"], .null)
        XCTAssertEqual(try store.lookupPhone("+1 415 555 0132").map(\.position), [1])
    }

    func testARegionChangeKeysEveryPhoneAgain() throws {
        let bernd = try add("Bernd Roth", phones: ["0171 5550199"])
        XCTAssertEqual(try store.lookupPhone("+491715550199").map(\.match), [.exact])
        // The same national digits mean an Austrian number once the region is Austria.
        PhoneRegion.current = "AT"
        XCTAssertEqual(try store.phoneRegionChanged(), 1)
        XCTAssertEqual(try store.lookupPhone("+431715550199").map { "\($0.contact.id) \($0.match)" }, ["\(bernd.id) exact"])
        XCTAssertEqual(try names("+43 171 5550199"), ["Bernd Roth"])
        XCTAssertEqual(try store.contact(id: bernd.id).revision, 1, "keys are not edits")
        XCTAssertEqual(try store.phoneRegionChanged(), 0, "nothing to do a second time")
        // A store opened in another region than it was keyed in is keyed again.
        store.close()
        PhoneRegion.current = "DE"
        store = try ContactStore(path: databasePath)
        XCTAssertEqual(try store.lookupPhone("+491715550199").map(\.match), [.exact])
    }

    func testEditsDeletionsAndTheTrashKeepTheKeysRight() throws {
        let c = try add("Anna Haro", phones: ["0171 5550199"])
        _ = try store.update(id: c.id) { $0.phones = [LabeledValue(value: "0172 5550100")] }
        XCTAssertEqual(try store.lookupPhone("+491715550199").map(\.match), [])
        XCTAssertEqual(try store.lookupPhone("+491725550100").count, 1)
        _ = try store.delete(ids: [c.id])
        XCTAssertEqual(try store.lookupPhone("+491725550100").count, 0)
        _ = try store.undelete(ids: [c.id])
        XCTAssertEqual(try store.lookupPhone("+491725550100").count, 1)
    }

    func keyedNumbers(_ like: String = "+49%") throws -> Int {
        Int(try store.read { try $0.scalarInt("SELECT count(*) FROM phone_numbers WHERE e164 LIKE ?", [.text(like)]) })
    }

    func testALargeImportReadsItsNumbersRightAfterIt() throws {
        let items = (0..<1500).map { i -> ImportItem in
            var c = Contact(name: "Person \(i)")
            c.phones = [LabeledValue(value: "0171 555" + String(format: "%04d", i))]
            return ImportItem(contact: c, carriesGroups: false, carriesFavorite: false)
        }
        XCTAssertTrue(ImportBatch.keysPhonesLater(importing: items.count))
        _ = try store.importContacts(items)
        // At once, whether or not its number was read yet: found by its last digits, and
        // told as the exact match it is.
        XCTAssertEqual(try store.lookupPhone("+49 171 5550042").map { "\($0.contact.name) \($0.match)" }, ["Person 42 exact"])
        store.waitForPhoneKeys()
        XCTAssertEqual(try store.phonesWaitingForKeys(), 0)
        XCTAssertEqual(try keyedNumbers("+49171555%"), 1500)
        let found = try store.query(ContactQuery(text: "+491715551234")).contacts
        XCTAssertEqual(found.map(\.name), ["Person 1234"])
        XCTAssertEqual(found.first?.revision, 1, "reading a number is no edit")
    }

    func testTheTailsOfWaitingPhonesAreFoundByTheirDigitsUntilNoneWait() throws {
        let tails = WaitingPhoneTails()
        tails.add(
            [WaitingPhoneTails.entry(tail: "5550042", rowid: 7)!, WaitingPhoneTails.entry(tail: "0000042", rowid: 3)!], allKept: true)
        tails.add([WaitingPhoneTails.entry(tail: "5550042", rowid: 9)!], allKept: true)
        XCTAssertEqual(tails.rowids(tail: "5550042")?.sorted(), [7, 9], "found in every commit's run")
        XCTAssertEqual(tails.rowids(tail: "0000042"), [3], "leading zeros are digits of the tail")
        XCTAssertEqual(tails.rowids(tail: "5550043"), [])
        XCTAssertNil(WaitingPhoneTails.entry(tail: "1", rowid: 1 << 41), "a rowid too large for the word is not kept")
        tails.add([], allKept: false)
        XCTAssertNil(tails.rowids(tail: "5550042"), "one tail not kept: the store is asked instead")
        tails.reset(complete: true)
        XCTAssertEqual(tails.rowids(tail: "5550042"), [])
    }

    func testContactsEditedOrDeletedWhileWaitingAreNotKeyedTwice() throws {
        let a = try add("Anna Haro", phones: ["0171 5550199"])
        let b = try add("Bernd Roth", phones: ["0171 5550100"])
        let c = try add("Carla Lind", phones: ["0171 5550111"])
        // As a large import leaves its contacts: no keys, waiting to be keyed.
        let unkey = "DELETE FROM phone_numbers; INSERT OR IGNORE INTO phones_unkeyed SELECT rowid FROM contacts;"
        try store.write { db, _ in try db.execute(unkey) }
        // Their tails are not in memory, as when a store is opened with contacts waiting.
        store.waitingTails.reset(complete: false)
        XCTAssertEqual(try keyedNumbers(), 0)
        // Caller ID finds them meanwhile, by their digits, and tells the match as it will after.
        XCTAssertEqual(try store.lookupPhone("+49 171 5550111").map { "\($0.contact.id) \($0.match)" }, ["\(c.id) exact"])
        XCTAssertEqual(try store.lookupPhone("+43 171 5550111").map { "\($0.contact.id) \($0.match)" }, ["\(c.id) national"])
        XCTAssertEqual(try store.lookupPhone("+49 171 5550000").count, 0)
        // An edit keys its contact with the rest of its row, phones unchanged or not.
        _ = try store.update(id: a.id) { $0.note = "edited" }
        _ = try store.delete(ids: [b.id])
        XCTAssertEqual(try store.phonesWaitingForKeys(), 1)
        XCTAssertEqual(try keyedNumbers(), 1)
        XCTAssertEqual(try store.keyWaitingPhones(), 1)
        XCTAssertEqual(try keyedNumbers(), 2)
        XCTAssertEqual(try store.keyWaitingPhones(), 0)
        XCTAssertEqual(try store.contact(id: c.id).revision, 1)
        XCTAssertEqual(try store.lookupPhone("+491715550111").map(\.contact.id), [c.id])
        // A store closed with contacts waiting (a daemon stopped after an import) keys them
        // once it is opened.
        try store.write { db, _ in try db.execute(unkey) }
        store.close()
        store = try ContactStore(path: databasePath)
        store.waitForPhoneKeys()
        XCTAssertEqual(try store.phonesWaitingForKeys(), 0)
        XCTAssertEqual(try keyedNumbers(), 2)
    }

    /// A run of several batches: each read while the one before is written, every contact
    /// keyed once, a search text made again where the E.164 form is not in its digits.
    func testWaitingPhonesAreKeyedInBatchesReadWhileTheLastIsWritten() throws {
        PhoneRegion.current = "AR"
        _ = try store.phoneRegionChanged()
        var ids: [String] = []
        for i in 0..<23 { ids.append(try add(String(format: "Persona %02d", i), phones: [String(format: "+54 11 4444 %04d", i)]).id) }
        let lucia = try add("Lucía Pérez", phones: ["011 15-2345-6789", "+54 11 4444 5555"])
        try store.write { db, _ in
            try db.execute("DELETE FROM phone_numbers; INSERT OR IGNORE INTO phones_unkeyed SELECT rowid FROM contacts;")
            // The text a large import writes: digits only.
            try db.execute("UPDATE contacts SET search = 'lucia perez' || char(10) || '011152345678' WHERE id = '\(lucia.id)'")
        }
        store.waitingTails.reset(complete: false)
        // Edited while waiting: keyed by the edit, passed over by the run.
        _ = try store.update(id: ids[5]) { $0.phones = [LabeledValue(value: "+54 11 5555 0005")] }
        XCTAssertEqual(try store.phonesWaitingForKeys(), 23)
        store.keyAllWaitingPhones(batch: 4)
        XCTAssertEqual(try store.phonesWaitingForKeys(), 0)
        let rows = try store.read { db in
            (
                Int(try db.scalarInt("SELECT count(*) FROM phone_numbers")),
                Int(try db.scalarInt("SELECT count(DISTINCT contact_rowid) FROM phone_numbers"))
            )
        }
        XCTAssertEqual(rows.0, 25, "every phone once")
        XCTAssertEqual(rows.1, 24)
        XCTAssertEqual(try store.lookupPhone("+54 11 4444 0017").map(\.contact.name), ["Persona 17"])
        XCTAssertEqual(try store.lookupPhone("+54 11 5555 0005").map(\.contact.name), ["Persona 05"])
        XCTAssertEqual(try names("+5491123456789"), ["Lucía Pérez"], "its search text has the E.164 line again")
        XCTAssertEqual(try store.contact(id: lucia.id).revision, 1, "keying is no edit")
    }

    func testANumberWhoseDigitsLackItsNationalNumberIsFoundByItsE164Form() throws {
        // An Argentine mobile as it is dialled at home: 011 15-…; its number is +54 9 11 ….
        PhoneRegion.current = "AR"
        _ = try store.phoneRegionChanged()
        try add("Lucía Pérez", phones: ["011 15-2345-6789"])
        try add("Other Person", phones: ["+54 11 4444 5555"])
        XCTAssertEqual(try names("+54 9 11 2345 6789"), ["Lucía Pérez"])
        XCTAssertEqual(try names("+5491123456789"), ["Lucía Pérez"])
        XCTAssertEqual(try store.lookupPhone("+54 9 11 2345 6789").map(\.match), [.exact])
    }
}
