import ContactsCore
import Duplicates
import Foundation
import StoredDuplicates
import TestSupport
import VCard
import XCTest

@testable import ContactsStore

/// Duplicates in the store: found from what is stored, merged in one operation into the trash
/// and back with undo, and pairs said to be different people left alone.
final class DuplicateStoreTests: GermanStoreTestCase {
    func importCorpus() throws -> [String: String] {
        // Both Annas of a phone's and Google's export, José twice, and Bo twice alike.
        let all = VCardParser.parse(DuplicateCorpus.cards).cards
        let bo = VCardParser.parse(
            "BEGIN:VCARD\nVERSION:3.0\nFN:Bo Lind\nEMAIL:bo@example.org\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Bo Lind\nEMAIL:BO@example.org\nEND:VCARD\n"
        ).cards
        let cards = Array(all[0..<2]) + Array(all[3..<5]) + bo
        let items = try cards.map { ImportItem(contact: try VCardMapping.contact(from: $0), carriesGroups: true, carriesFavorite: false) }
        let outcomes = try store.importContacts(items)
        var ids: [String: String] = [:]
        for (k, o) in outcomes.enumerated() {
            if case .created(let id) = o { ids[["anna1", "anna2", "jose1", "jose2", "bo1", "bo2"][k]] = id }
        }
        return ids
    }

    func testContactsCollectedFromMailAreComparedOnlyWhenAsked() throws {
        let kate = try add("Kate Bell", emails: ["kate@home.example"]).id
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let heard = [("kate@work.example", "Kate Bell"), ("bob@one.example", "Bob Stranger"), ("bob@two.example", "Bob Stranger")]
        let r = try store.recordMail(
            heard.enumerated().map { i, h in
                MailSighting(messageID: "<\(i)@x>", date: now, heardFrom: [MailAddress(address: h.0, name: h.1)])
            })
        XCTAssertEqual(r.collected.count, 3)
        // Sharing a name alone, as collected contacts can (no address on a contact is collected),
        // scores below the default: asked for with a lower one.
        XCTAssertEqual(try store.duplicates(minScore: 0.3).count, 0, "strangers from mail are no one's duplicates")
        let all = try store.duplicates(minScore: 0.3, collected: .included)
        XCTAssertEqual(all.count, 2)
        XCTAssertTrue(all.contains { $0.group.ids.contains(kate) }, "a collected address that belongs on a contact")
        let among = try store.duplicates(minScore: 0.3, collected: .only)
        XCTAssertEqual(among.map(\.names), [["Bob Stranger", "Bob Stranger"]])
    }

    func testDuplicatesAreFoundFromTheStoredContacts() throws {
        let ids = try importCorpus()
        let groups = try store.duplicates()
        let anna = try XCTUnwrap(groups.first { $0.group.ids.contains(ids["anna1"]!) })
        XCTAssertEqual(Set(anna.group.ids), [ids["anna1"]!, ids["anna2"]!])
        XCTAssertEqual(anna.group.reasons, ["email anna@example.com", "phone +491715550199", "name"])
        XCTAssertFalse(anna.identical)
        let bo = try XCTUnwrap(groups.first { $0.group.ids.contains(ids["bo1"]!) })
        XCTAssertTrue(bo.identical, "the same once the email's case is set aside")
        XCTAssertEqual(groups.count, 3)
    }

    func testGroupsNameTheirContactsInNameOrder() throws {
        let ids = try importCorpus()
        let anna = try XCTUnwrap(try store.duplicates().first { $0.group.ids.contains(ids["anna1"]!) })
        // Stored in import order, listed in name order: "Anna Maria Schmidt" before "Anna Schmidt".
        XCTAssertEqual(anna.group.ids, [ids["anna2"]!, ids["anna1"]!])
        XCTAssertEqual(anna.names, ["Anna Maria Schmidt", "Anna Schmidt"])
    }

    func testPhonesALargeImportLeftUnkeyedAreComparedAsNumbers() throws {
        let ids = try importCorpus()
        // As a large import leaves its contacts until the background job reads their numbers.
        try store.write { db, _ in
            try db.execute("DELETE FROM phone_numbers; INSERT OR IGNORE INTO phones_unkeyed SELECT rowid FROM contacts;")
        }
        let anna = try XCTUnwrap(try store.duplicates().first { $0.group.ids.contains(ids["anna1"]!) })
        XCTAssertEqual(anna.group.reasons, ["email anna@example.com", "phone +491715550199", "name"])
        // Without keys and not waiting for any (a store opened with no region), digits compare.
        try store.write { db, _ in try db.execute("DELETE FROM phones_unkeyed") }
        let unkeyed = try XCTUnwrap(try store.duplicates().first { $0.group.ids.contains(ids["anna1"]!) })
        XCTAssertEqual(unkeyed.group.reasons, ["email anna@example.com", "name"], "0171… and +49 171… differ as digits")
    }

    func testAMergeIsOneOperationIntoTheTrashThatUndoTakesBack() throws {
        let ids = try importCorpus()
        let before = try store.contact(id: ids["anna2"]!)
        let dry = try store.merge(ids: [ids["anna1"]!, ids["anna2"]!], dryRun: true)
        XCTAssertEqual(try store.counts().contacts, 6, "a dry run writes nothing")
        let merged = try store.merge(ids: [ids["anna1"]!, ids["anna2"]!])
        XCTAssertEqual(merged.id, ids["anna1"]!, "the most complete, the first of equals")
        XCTAssertEqual(merged.phones, dry.phones)
        XCTAssertEqual(merged.phones.map(\.value), ["0171 5550199"])
        XCTAssertEqual(merged.emails.map(\.value), ["anna@example.com"])
        XCTAssertEqual(merged.groups, ["Friends"])
        XCTAssertEqual(merged.birthday, "1985-03-04")
        XCTAssertEqual(merged.note, "Met at the conference\n\n\(ContactMerge.noteHeading)\nName: Anna Maria Schmidt")
        var shown = merged
        shown.vcardProperties = nil
        XCTAssertEqual(try store.contact(id: ids["anna1"]!), shown, "stored as merged")
        XCTAssertEqual(try store.exportContacts(ids: [merged.id]).first?.vcardProperties, merged.vcardProperties)
        XCTAssertThrowsError(try store.contact(id: ids["anna2"]!))
        let trash = try store.trash()
        XCTAssertEqual(trash.contacts.map(\.contact.id), [ids["anna2"]!])
        XCTAssertEqual(trash.contacts.first?.origin, "merge")
        XCTAssertFalse(try store.duplicates().contains { $0.group.ids.contains(ids["anna1"]!) })
        _ = try store.undo()
        XCTAssertEqual(try store.counts().contacts, 6)
        let back = try store.contact(id: ids["anna2"]!)
        XCTAssertEqual(back.note, before.note)
        XCTAssertEqual(back.name, before.name)
        XCTAssertEqual(try store.contact(id: ids["anna1"]!).note, nil)
        XCTAssertThrowsError(try store.merge(ids: [ids["anna1"]!])) { error in
            guard case StoreError.invalid = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try store.merge(ids: [ids["anna1"]!, "NO-SUCH-ID"])) { error in
            guard case StoreError.notFound = error else { return XCTFail("\(error)") }
        }
    }

    func testDifferentPeopleAreNotProposedAgain() throws {
        let ids = try importCorpus()
        try store.notDuplicates(ids: [ids["jose2"]!, ids["jose1"]!])
        let groups = try store.duplicates()
        XCTAssertFalse(groups.contains { $0.group.ids.contains(ids["jose1"]!) })
        XCTAssertEqual(groups.count, 2)
    }

    func testCandidatesComeInNameOrderWhateverTheirRowids() {
        let nameOrder: [Int64] = [7, 3, 9, 1]
        // Rowids close to their count (ranks in an array) and far from it (in a table) alike;
        // those not in the name order come last, by rowid.
        XCTAssertEqual(DuplicateCandidateReader.nameOrdered([1, 2, 3, 7, 8, 9], nameOrder: nameOrder), [3, 2, 5, 0, 1, 4])
        let far: [Int64] = [1, 2, 3, 7, 8, 9, 5_000_000]
        XCTAssertEqual(DuplicateCandidateReader.nameOrdered(far, nameOrder: nameOrder + [5_000_000]), [3, 2, 5, 0, 6, 1, 4])
        XCTAssertEqual(DuplicateCandidateReader.nameOrdered([], nameOrder: []), [])
    }
}
