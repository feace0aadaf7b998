import CardDAV
import ContactsCore
import ContactsStore
import ContactsSync
import Foundation
import TestSupport
import XCTest

@testable import GooglePeople

/// Two-way sync of a store with a Google account through the People API, played by
/// `Tests/fakes/people_fake.py`; the "phone" is the test writing to the fake with a token of
/// its own. Request counts are the fake's, by endpoint.
class PeopleSyncTests: ScratchDirectoryTestCase {
    override var scratchPrefix: String { "people-sync" }

    var server: PeopleServer!
    var store: ContactStore!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try PeopleServer(lag: lag)
        store = try ContactStore(path: dir + "/store.sqlite3")
        var account = SyncAccount(name: "google", url: server.root.absoluteString, addressBookURL: server.root.absoluteString)
        account.peopleAPI = true
        try store.addAccount(account)
    }

    override func tearDown() {
        store?.close()
        server?.stop()
        super.tearDown()
    }

    /// Seconds before the fake's sync-token listings see a write.
    var lag: Double { 0 }

    func backend(labelsFreshFor: TimeInterval = 3600) -> PeopleBackend {
        let store = store
        return PeopleBackend(
            client: PeopleClient(root: server.root, http: HTTPClient(credentials: .bearer(server.token), for: server.root, timeout: 10)),
            labelsFile: dir + "/labels.json", labelsFreshFor: labelsFreshFor,
            localGroups: { Set((try? store?.groups().map(\.name)) ?? []) })
    }

    @discardableResult
    func sync(_ backend: PeopleBackend? = nil, held: SyncEngine.HeldDeletions = .hold) throws -> SyncReport {
        try SyncEngine(store: store).sync(try store.account(named: "google"), with: backend ?? self.backend(), held: held)
    }

    func contact(named name: String) throws -> Contact? {
        try store.query(ContactQuery()).contacts.first { $0.name == name }
    }

    func membership(_ group: String) -> [String: Any] { ["contactGroupMembership": ["contactGroupResourceName": group]] }

    func label(_ name: String) throws -> String {
        let made = try server.call("POST", "/v1/contactGroups", ["contactGroup": ["name": name]])
        return try XCTUnwrap((made.json as? [String: Any])?["resourceName"] as? String, "\(made)")
    }

    func testAFirstDownloadBringsLabelsAndStarredAndANoOpIsOneRequest() throws {
        let family = try label("Family")
        _ = try server.create([
            "names": [["givenName": "Ada", "familyName": "King"]], "memberships": [membership("contactGroups/starred")],
        ])
        _ = try server.create(["names": [["givenName": "Grace", "familyName": "Hopper"]], "memberships": [membership(family)]])
        _ = try server.create(["emailAddresses": [["value": "alan@example.org", "type": "work"]]])
        let first = try sync()
        XCTAssertEqual(first.downloaded.created, 3, "\(first)")
        XCTAssertEqual(try contact(named: "Ada King")?.favorite, true)
        XCTAssertEqual(try contact(named: "Grace Hopper")?.groups, ["Family"])
        XCTAssertEqual(try contact(named: "alan@example.org")?.emails.first?.label, "work")
        XCTAssertEqual(first.requests, 2, "the people in one page, and the labels")
        let nothing = try sync()
        XCTAssertEqual(nothing.requests, 1, "a no-op sync is one request: \(nothing)")
        XCTAssertEqual(try server.requests()["GET contactGroups"], 1)
    }

    func testAFirstDownloadOf2500PeopleIsThreePagesAndTheLabels() throws {
        for start in stride(from: 0, to: 2500, by: 200) {
            let batch = (start..<min(2500, start + 200)).map { i in ["contactPerson": ["names": [["givenName": "P\(i)"]]]] }
            XCTAssertEqual(try server.call("POST", "/v1/people:batchCreateContacts", ["contacts": batch, "readMask": "names"]).status, 200)
        }
        let before = try server.requests()
        let r = try sync()
        XCTAssertEqual(r.downloaded.created, 2500)
        XCTAssertEqual(r.requests, 4, "\(r)")
        XCTAssertEqual(try server.requests()["GET connections"] ?? 0, (before["GET connections"] ?? 0) + 3, "1,000 a page")
    }

    func testContactsMadeHereGoUpInBatchesWithTheirUIDsAndGroups() throws {
        var made: [Contact] = []
        for i in 0..<1000 {
            var c = Contact(name: "Person \(i)")
            c.emails = [LabeledValue(value: "p\(i)@example.org", label: "home")]
            if i % 50 == 0 { c.groups = ["Choir"] }
            if i == 7 { c.favorite = true }
            made.append(c)
        }
        let stored = try store.create(made)
        let b = backend()
        _ = try store.addToAccount("google", ids: stored.map(\.id)) { b.hrefForNewCard(uid: $0.uid) }
        let up = try sync(b)
        XCTAssertEqual(up.uploaded.created, 1000, "\(up)")
        let counts = try server.requests()
        XCTAssertEqual(counts["POST people:batchCreateContacts"], 5, "1,000 in five writes of 200: \(counts)")
        XCTAssertEqual(counts["POST contactGroups"], 1, "the new label, once")
        XCTAssertNil(counts["GET person"], "what was made is not read again: \(counts)")
        let people = try server.people()
        XCTAssertEqual(people.count, 1000)
        let seven = try XCTUnwrap(
            people.first { (($0["emailAddresses"] as? [[String: Any]])?.first?["value"] as? String) == "p7@example.org" })
        let groups = ((seven["memberships"] as? [[String: Any]]) ?? []).compactMap {
            ($0["contactGroupMembership"] as? [String: Any])?["contactGroupResourceName"] as? String
        }
        XCTAssertTrue(groups.contains("contactGroups/starred"), "favorite is starred: \(groups)")
        let uid = ((seven["clientData"] as? [[String: Any]])?.first?["value"] as? String)
        XCTAssertEqual(uid, stored[7].uid)
        XCTAssertEqual(
            try store.syncItems(account: "google").filter { $0.href.hasPrefix("people/new-") }.count, 0, "Google's names followed")
        let again = try sync()
        XCTAssertEqual(again.uploaded, SyncReport.Counts(), "nothing to send again: \(again)")
        XCTAssertEqual(again.downloaded.created, 0, "what went up does not come down as new: \(again)")
        XCTAssertEqual(try store.query(ContactQuery()).total, 1000)
    }

    func testAnEditHereWritesOnlyItsFieldAndLeavesWhatContactsdDoesNotKeep() throws {
        let ada = try server.create([
            "names": [["givenName": "Ada", "familyName": "King"]],
            "organizations": [["name": "Engines", "title": "Programmer"], ["name": "Royal Society"]],
            "userDefined": [["key": "shoe size", "value": "38"]],
        ])
        try sync()
        let id = try XCTUnwrap(try contact(named: "Ada King")?.id)
        _ = try store.update(id: id) { $0.note = "Wrote Note G." }
        let up = try sync()
        XCTAssertEqual(up.uploaded.updated, 1, "\(up)")
        let there = try XCTUnwrap(try server.people().first { $0["resourceName"] as? String == ada })
        XCTAssertEqual(((there["biographies"] as? [[String: Any]])?.first?["value"] as? String), "Wrote Note G.")
        XCTAssertEqual((there["organizations"] as? [[String: Any]])?.count, 2, "a field not in the mask is Google's as it was")
        XCTAssertNotNil(there["userDefined"], "what contactsd has no field for stays")
        // The phone stars it and edits another field; here the title changes: all three kept.
        try server.update(
            ada, mask: "memberships,phoneNumbers",
            [
                "memberships": [membership("contactGroups/myContacts"), membership("contactGroups/starred")],
                "phoneNumbers": [["value": "+44 20 7946 0018", "type": "mobile"]],
            ])
        _ = try store.update(id: id) { $0.title = "Analyst" }
        let both = try sync()
        XCTAssertEqual(both.merged, 1, "\(both)")
        let merged = try store.contact(id: id)
        XCTAssertTrue(merged.favorite)
        XCTAssertEqual(merged.phones.first?.value, "+44 20 7946 0018")
        XCTAssertEqual(merged.title, "Analyst")
        let after = try XCTUnwrap(try server.person(ada))
        XCTAssertEqual(((after["organizations"] as? [[String: Any]])?.first?["title"] as? String), "Analyst")
        XCTAssertEqual((after["phoneNumbers"] as? [[String: Any]])?.count, 1)
        // Unstarred here: unstarred there.
        _ = try store.update(id: id) { $0.favorite = false }
        try sync()
        let groups = ((try server.person(ada)?["memberships"] as? [[String: Any]]) ?? []).compactMap {
            ($0["contactGroupMembership"] as? [String: Any])?["contactGroupResourceName"] as? String
        }
        XCTAssertEqual(groups, ["contactGroups/myContacts"])
    }

    func testAnExpiredSyncTokenIsAFullListingWithNothingLostOrDoubled() throws {
        let names = try (0..<30).map { i in try server.create(["names": [["givenName": "Person", "familyName": "\(i)"]]]) }
        try sync()
        XCTAssertEqual(try store.query(ContactQuery()).total, 30)
        try server.advance(seconds: 8 * 24 * 3600)
        try server.delete([names[0]])
        try server.update(names[1], mask: "biographies", ["biographies": [["value": "changed on the phone"]]])
        let id = try XCTUnwrap(try contact(named: "Person 2")?.id)
        _ = try store.update(id: id) { $0.note = "changed here" }
        let r = try sync()
        XCTAssertEqual(try store.query(ContactQuery()).total, 29, "the one deleted there is gone, no one twice: \(r)")
        XCTAssertEqual(try contact(named: "Person 1")?.note, "changed on the phone")
        XCTAssertEqual(
            try server.person(names[2]).flatMap { ($0["biographies"] as? [[String: Any]])?.first?["value"] as? String }, "changed here")
        XCTAssertEqual(try sync().requests, 1, "a fresh token from then on")
    }

    func testALabelRenamedOnThePhoneRenamesTheGroupHere() throws {
        let family = try label("Family")
        _ = try server.create(["names": [["givenName": "Grace"]], "memberships": [membership(family)]])
        try sync()
        XCTAssertEqual(try contact(named: "Grace")?.groups, ["Family"])
        try server.call("PUT", "/v1/\(family)", ["contactGroup": ["name": "Kin"]])
        let renamed = try sync(backend(labelsFreshFor: 0))
        print("DEBUG", renamed, try server.requests(), (try? String(contentsOfFile: dir + "/labels.json", encoding: .utf8)) ?? "no file")
        XCTAssertEqual(try contact(named: "Grace")?.groups, ["Kin"])
        XCTAssertEqual(try sync().uploaded, SyncReport.Counts(), "the rename is not sent back")
    }

    func testAGroupRenamedOrDeletedHereRenamesOrDeletesItsLabel() throws {
        let choir = try label("Choir")
        let band = try label("Band")
        let ada = try server.create(["names": [["givenName": "Ada"]], "memberships": [membership(choir)]])
        let grace = try server.create(["names": [["givenName": "Grace"]], "memberships": [membership(band)]])
        try sync()
        _ = try store.renameGroup("Choir", to: "Chorus")
        let renamed = try sync()
        XCTAssertEqual(renamed.uploaded.updated, 1, "\(renamed)")
        var groups = try server.groups()
        XCTAssertEqual(groups[choir]?["name"] as? String, "Chorus", "the same label, renamed: \(groups)")
        XCTAssertEqual(groups.values.filter { $0["name"] as? String == "Chorus" }.count, 1, "no second label")
        XCTAssertEqual(try server.requests()["POST contactGroups"], 2, "only the test's two labels were made")
        let memberships = ((try server.person(ada)?["memberships"] as? [[String: Any]]) ?? []).compactMap {
            ($0["contactGroupMembership"] as? [String: Any])?["contactGroupResourceName"] as? String
        }
        XCTAssertTrue(memberships.contains(choir), "\(memberships)")
        let bandGroup = try XCTUnwrap(try store.groups().first { $0.name == "Band" })
        try store.deleteGroup(bandGroup.id)
        try sync()
        groups = try server.groups()
        XCTAssertNil(groups[band], "the label deleted here is gone there: \(groups)")
        XCTAssertNotNil(try server.person(grace), "its people stay")
        XCTAssertEqual(try sync().uploaded, SyncReport.Counts())
    }

    func testPhotosComeFromTheirURLAndGoUpWithUpdateContactPhoto() throws {
        let phone: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 400)
        let ada = try server.create(["names": [["givenName": "Ada"]]])
        _ = try server.create(["names": [["givenName": "Grace"]]])
        let set = try server.call(
            "PATCH", "/v1/\(ada):updateContactPhoto", ["photoBytes": Data(phone).base64EncodedString(), "personFields": "names"])
        XCTAssertEqual(set.status, 200, "\(set)")
        try sync()
        let here = try XCTUnwrap(try contact(named: "Ada"))
        guard case .stored(let hash, _, _, _)? = here.photo else { return XCTFail("no photo: \(String(describing: here.photo))") }
        XCTAssertEqual(store.photoBytes(hash), phone, "the photo's bytes, read from its URL")
        XCTAssertNil(try contact(named: "Grace")?.photo, "Google's default avatar is no photo")
        // A new photo here goes up; taken away here, it goes there too.
        let mine: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x17, count: 600)
        _ = try store.setPhoto(id: here.id, PhotoData(bytes: mine, mimeType: "image/jpeg"))
        let up = try sync()
        XCTAssertEqual(up.uploaded.updated, 1, "\(up)")
        let counts = try server.requests()
        XCTAssertEqual(counts["PATCH people"], 2, "one updateContactPhoto of the test's, one of the sync's: \(counts)")
        let stored = try server.people().first { $0["resourceName"] as? String == ada }?["_photo"] as? String
        XCTAssertEqual(stored.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }, mine)
        XCTAssertEqual(try sync().uploaded, SyncReport.Counts(), "sent once")
        _ = try store.removePhoto(id: here.id)
        try sync()
        XCTAssertNil(try server.people().first { $0["resourceName"] as? String == ada }?["_photo"])
        XCTAssertEqual(try sync().uploaded, SyncReport.Counts())
    }

    func testADeletionHereIsOneBatchAndAFloodOf429sIsWaitedFor() throws {
        let names = try (0..<5).map { i in try server.create(["names": [["givenName": "P\(i)"]]]) }
        try sync()
        let ids = try store.query(ContactQuery()).contacts.prefix(3).map(\.id)
        _ = try store.delete(ids: Array(ids))
        try server.fail(next: 1, status: 429, retryAfter: 30)
        XCTAssertThrowsError(try sync()) { e in
            guard case .status(429, _, let message, let retry)? = e as? DAVError else { return XCTFail("\(e)") }
            XCTAssertEqual(retry, 30)
            XCTAssertTrue(message.contains("RESOURCE_EXHAUSTED"), message)
        }
        let r = try sync()
        XCTAssertEqual(r.uploaded.deleted, 3, "\(r)")
        XCTAssertEqual(try server.requests()["POST people:batchDeleteContacts"], 1)
        XCTAssertEqual(try server.people().count, 2)
        XCTAssertEqual(Set(try server.people().compactMap { $0["resourceName"] as? String }).isSubset(of: Set(names)), true)
    }

    func testABadTokenIsRefusedWithoutTheToken() throws {
        let refused = PeopleBackend(
            client: PeopleClient(root: server.root, http: HTTPClient(credentials: .bearer("stale-secret"), for: server.root, timeout: 10)))
        XCTAssertThrowsError(try SyncEngine(store: store).sync(try store.account(named: "google"), with: refused)) { e in
            XCTAssertEqual((e as? DAVError)?.status, 401)
            XCTAssertTrue("\(e)".contains("UNAUTHENTICATED"), "\(e)")
            XCTAssertFalse("\(e)".contains("stale-secret"))
        }
    }
}

/// The same account where Google's sync-token listings see a write two minutes late.
final class LaggingPeopleSyncTests: PeopleSyncTests {
    override var lag: Double { 120 }

    func testAWriteNotYetInTheChangesIsNotTakenForADeletion() throws {
        let b = backend()
        let kate = try store.create(Contact(name: "Kate Bell"))
        _ = try store.addToAccount("google", ids: [kate.id]) { b.hrefForNewCard(uid: $0.uid) }
        XCTAssertEqual(try sync(b).uploaded.created, 1)
        for _ in 0..<2 {
            let r = try sync()
            XCTAssertEqual(r.downloaded.deleted, 0, "\(r)")
        }
        try server.advance(seconds: 180)
        let later = try sync()
        XCTAssertEqual(later.downloaded.created, 0, "\(later)")
        XCTAssertEqual(try store.query(ContactQuery()).total, 1)
        XCTAssertEqual(try server.people().count, 1)
    }
}
