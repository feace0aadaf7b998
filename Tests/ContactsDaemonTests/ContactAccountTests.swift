import ContactsAPI
import ContactsCore
import ContactsStore
import JSONCore
import JSONRPC
import XCTest

@testable import ContactsDaemon

/// Where a contact lives, as every method that shows one says it, and the keys a contact may
/// be given with.
final class ContactAccountTests: MethodTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        let folder = dir + "/home-vdir"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let url = URL(fileURLWithPath: folder).absoluteString
        try store.addAccount(SyncAccount(name: "home", url: url, addressBookURL: url))
    }

    func testAContactSaysWhichAccountItBelongsTo() throws {
        let bea = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Bea Alvarez", "account": "home"]])
        XCTAssertEqual(bea["account"], "home", "the account may be given inside the contact, as the shape has it")
        let id = try XCTUnwrap(bea["id"]?.stringValue)
        let kate = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Kate Bell"]])
        XCTAssertEqual(kate["account"], .null, "this machine alone")
        XCTAssertEqual(try call(ContactsAPI.Method.contactsGet, ["id": .string(id)])["account"], "home")
        let listed = try call(ContactsAPI.Method.contactsQuery, [:])["contacts"]?.arrayValue ?? []
        XCTAssertEqual(listed.map { $0["account"] }, ["home", .null])
        let projected = try call(ContactsAPI.Method.contactsQuery, ["text": "bea", "fields": ["account"]])["contacts"]?.arrayValue
        XCTAssertEqual(projected?.first?.objectValue?.keys, ["id", "account"])
        XCTAssertEqual(projected?.first?["account"], "home")
        // Moved: every read says so at once (nothing cached says otherwise).
        XCTAssertEqual(try call(ContactsAPI.Method.contactsMove, ["ids": [.string(id)], "account": .null])["moved"], 1)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsGet, ["id": .string(id)])["account"], .null)
        XCTAssertEqual(
            try call(ContactsAPI.Method.contactsQuery, ["text": "bea", "fields": ["account"]])["contacts"]?.arrayValue?.first?["account"],
            .null)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsMove, ["ids": [.string(id)], "account": "home"])["moved"], 1)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsGet, ["id": .string(id)])["account"], "home")
        // Deleted, it says where it lived.
        _ = try call(ContactsAPI.Method.contactsDelete, ["ids": [.string(id)]])
        XCTAssertEqual(try store.trash().contacts.first?.contact.account, "home")
    }

    func testAKeyThatIsNoFieldIsRefusedAndNothingIsStored() throws {
        XCTAssertThrowsError(try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "X", "phone_number": "555"]])) { e in
            let e = e as? RPCError
            XCTAssertEqual(e?.code, .invalidParams)
            XCTAssertTrue(
                e?.message.contains("contact.phone_number is no field of a contact; the fields are name") ?? false, "\(e?.message ?? "")")
        }
        XCTAssertEqual(try store.query(ContactQuery()).total, 0)
        let kate = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Kate Bell"]])
        let id = try XCTUnwrap(kate["id"]?.stringValue)
        for changes: JSONObject in [
            ["titel": "Producer"], ["account": "home"], ["revision": 5], ["title": "Producer", "emial": "k@example.org"],
        ] {
            XCTAssertEqual(
                errorCode(ContactsAPI.Method.contactsUpdate, ["id": .string(id), "changes": .object(changes)]),
                RPCError.Code.invalidParams.rawValue, "\(changes)")
        }
        XCTAssertEqual(try call(ContactsAPI.Method.contactsGet, ["id": .string(id)])["revision"], 1, "nothing was changed")
        XCTAssertEqual(
            errorCode(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Y", "account": "home"], "account": .null]),
            RPCError.Code.invalidParams.rawValue, "two different accounts")
        XCTAssertEqual(
            errorCode(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Y", "account": "nowhere"]]),
            RPCError.Code.notFound.rawValue)
        XCTAssertEqual(
            try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Y", "account": "home"], "account": "home"])["account"], "home"
        )
    }
}
