import ContactsAPI
import Foundation
import JSONCore
import JSONRPC
import TestSupport
import XCTest

@testable import ContactsDaemon

/// Accounts and syncs through the API, against a real Radicale.
final class SyncMethodTests: MethodTestCase {
    func testAnAccountIsFoundFromTheServerSignedInAndSynced() throws {
        let server = try DAVServer(.radicale)
        defer { server.stop() }
        try server.put("kate.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nEND:VCARD\r\n")
        let added = try call(
            ContactsAPI.Method.accountsAdd,
            [
                "name": "home", "url": .string(server.root.absoluteString), "username": "kate",
                "passwordCommand": ["printf", "secret\\nsecond line"],
            ])
        XCTAssertEqual(added["addressBookUrl"]?.stringValue, server.addressBook.absoluteString)
        XCTAssertEqual(added["displayName"], "Contacts")
        let report = try call(ContactsAPI.Method.syncRun, ["account": "home"])
        XCTAssertEqual(report["downloaded"]?["created"], 1, "\(report)")
        XCTAssertEqual(try call(ContactsAPI.Method.contactsQuery, ["text": "kate"])["total"], 1)
        let status = try call(ContactsAPI.Method.syncStatus)["accounts"]?.arrayValue?.first
        XCTAssertNotEqual(status?["lastSuccess"], .null)
        XCTAssertEqual(status?["contacts"], 1)
        XCTAssertFalse(
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir + "/contacts.sqlite3")), as: UTF8.self).contains("secret"))
        let removed = try call(ContactsAPI.Method.accountsRemove, ["name": "home"])
        XCTAssertEqual(removed["contacts"], 1)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsQuery, ["text": "kate"])["total"], 1, "its contacts stay here")
    }

    func testAdoptLocalSendsThisMachinesContactsUp() throws {
        let server = try DAVServer(.xandikos)
        defer { server.stop() }
        _ = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Anna Haro", "emails": [["value": "anna@example.com"]]]])
        _ = try call(
            ContactsAPI.Method.accountsAdd, ["name": "home", "url": .string(server.addressBook.absoluteString), "adoptLocal": true])
        let report = try call(ContactsAPI.Method.syncRun, ["account": "home"])
        XCTAssertEqual(report["uploaded"]?["created"], 1, "\(report)")
        let listing = try server.request(
            "PROPFIND", server.addressBook, headers: ["Depth": "1", "Content-Type": "application/xml"],
            body: Data("<?xml version=\"1.0\"?><propfind xmlns=\"DAV:\"><prop><getetag/></prop></propfind>".utf8))
        XCTAssertEqual(String(decoding: listing.body, as: UTF8.self).components(separatedBy: ".vcf</").count - 1, 1, "one card there")
        XCTAssertEqual(try call(ContactsAPI.Method.syncStatus)["accounts"]?.arrayValue?.first?["contacts"], 1)
    }

    func testAnAccountThatCannotSignInIsRefusedAndNothingIsStored() throws {
        let server = try DAVServer(.radicale)
        defer { server.stop() }
        do {
            _ = try call(
                ContactsAPI.Method.accountsAdd,
                [
                    "name": "home", "url": .string(server.root.absoluteString), "username": "kate",
                    "passwordCommand": ["printf", "not-the-password"],
                ])
            XCTFail("refused")
        } catch let e as RPCError {
            XCTAssertEqual(e.code, .remoteFailed)
            XCTAssertEqual(e.data?["status"], 401, "\(e)")
            XCTAssertFalse(e.message.contains("not-the-password"))
        }
        XCTAssertEqual(try call(ContactsAPI.Method.accountsList)["accounts"], [])
        do {
            _ = try call(ContactsAPI.Method.accountsAdd, ["name": "far", "url": "http://dav.example.com/", "username": "kate"])
            XCTFail("plain http away from loopback is refused")
        } catch let e as RPCError {
            XCTAssertEqual(e.code, .remoteFailed)
            XCTAssertTrue(e.message.contains("https"), e.message)
        }
    }

    func testAnAccountChangesOnlyWhenItsNewCredentialsWork() throws {
        let server = try DAVServer(.radicale)
        defer { server.stop() }
        _ = try call(
            ContactsAPI.Method.accountsAdd,
            ["name": "home", "url": .string(server.root.absoluteString), "username": "kate", "passwordCommand": ["printf", "secret"]])
        let changed = try call(ContactsAPI.Method.accountsUpdate, ["name": "home", "changes": ["interval": 120, "readOnly": true]])
        XCTAssertEqual(changed["interval"], 120)
        XCTAssertEqual(changed["readOnly"], true)
        do {
            _ = try call(ContactsAPI.Method.accountsUpdate, ["name": "home", "changes": ["passwordCommand": ["printf", "wrong"]]])
            XCTFail("a password that does not work is refused")
        } catch let e as RPCError {
            XCTAssertEqual(e.code, .remoteFailed)
            XCTAssertEqual(e.data?["status"], 401, "\(e)")
        }
        XCTAssertEqual(
            try call(ContactsAPI.Method.syncRun, ["account": "home"])["requests"]?.intValue.map { $0 > 0 }, true, "still signs in")
        XCTAssertEqual(
            errorCode(ContactsAPI.Method.accountsUpdate, ["name": "home", "changes": ["url": "https://elsewhere.example/"]]),
            RPCError.Code.invalidParams.rawValue)
        XCTAssertEqual(errorCode(ContactsAPI.Method.accountsUpdate, ["name": "nowhere", "changes": ["interval": 120]]), -32001)
        XCTAssertEqual(errorCode(ContactsAPI.Method.accountsAdd, ["name": "local", "url": .string(server.root.absoluteString)]), -32602)
    }

    func testContactsMoveAndAreListedByAccount() throws {
        let server = try DAVServer(.radicale)
        defer { server.stop() }
        try server.put("kate.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nEND:VCARD\r\n")
        _ = try call(
            ContactsAPI.Method.accountsAdd,
            [
                "name": "home", "url": .string(server.addressBook.absoluteString), "username": .string(server.user),
                "passwordCommand": ["printf", .string(server.password)],
            ])
        _ = try call(ContactsAPI.Method.syncRun, ["account": "home"])
        let anna = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Anna Haro"]])
        func names(_ account: JSONValue) throws -> [String] {
            try call(ContactsAPI.Method.contactsQuery, ["account": account])["contacts"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
                ?? []
        }
        XCTAssertEqual(try names("home"), ["Kate Bell"])
        XCTAssertEqual(try names(.null), ["Anna Haro"])
        XCTAssertEqual(errorCode(ContactsAPI.Method.contactsQuery, ["account": "nowhere"]), -32001)
        XCTAssertEqual(errorCode(ContactsAPI.Method.contactsQuery, ["account": 7]), -32602)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsMove, ["ids": [anna["id"] ?? .null], "account": "home"])["moved"], 1)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsMove, ["ids": [anna["id"] ?? .null], "account": "home"])["moved"], 0)
        XCTAssertEqual(try names("home"), ["Anna Haro", "Kate Bell"])
        let status = try XCTUnwrap(try call(ContactsAPI.Method.syncStatus)["accounts"]?.arrayValue?.first)
        XCTAssertEqual(status["pendingUploads"], 1, "\(status)")
        XCTAssertEqual(status["heldDeletions"], 0)
        XCTAssertEqual(status["conflicts"], [])
        XCTAssertNotEqual(status["lastReport"], .null)
        XCTAssertEqual(try call(ContactsAPI.Method.syncRun, ["account": "home"])["uploaded"]?["created"], 1)
        XCTAssertEqual(try call(ContactsAPI.Method.syncStatus)["accounts"]?.arrayValue?.first?["pendingUploads"], 0)
        XCTAssertEqual(errorCode(ContactsAPI.Method.contactsMove, ["ids": ["no-such-id"], "account": .null]), -32001)
        // New contacts: to the account named, else to defaultAccount, else this machine alone.
        _ = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Named There"], "account": "home"])
        XCTAssertEqual(errorCode(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Nowhere"], "account": "nowhere"]), -32001)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsQuery, ["text": "nowhere"])["total"], 0, "nothing made for an unknown account")
        sync.defaultAccount = "home"
        _ = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "By Default"]])
        _ = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Kept Here"], "account": .null])
        sync.defaultAccount = "gone"
        _ = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Default Missing"]])
        XCTAssertEqual(try names("home"), ["Anna Haro", "By Default", "Kate Bell", "Named There"])
        XCTAssertEqual(try names(.null), ["Default Missing", "Kept Here"])
        XCTAssertEqual(errorCode(ContactsAPI.Method.contactsMove, ["ids": [anna["id"] ?? .null]]), -32602)
    }

    func testAServerOfAPrivateCAIsTrustedOnlyWithItsCAFile() throws {
        let server = try DAVServer(.radicale, tls: true)
        defer { server.stop() }
        var params: JSONObject = [
            "name": "home", "url": .string(server.addressBook.absoluteString), "username": .string(server.user),
            "passwordCommand": ["printf", .string(server.password)],
        ]
        do {
            _ = try call(ContactsAPI.Method.accountsAdd, params)
            XCTFail("a certificate no CA of the system signed is refused")
        } catch let e as RPCError {
            XCTAssertEqual(e.code, .remoteFailed)
            XCTAssertTrue(e.message.contains("TLS"), e.message)
        }
        params["caFile"] = "ca.pem"
        XCTAssertEqual(errorCode(ContactsAPI.Method.accountsAdd, params), -32602, "a relative path is refused")
        params["caFile"] = .string(server.caFile)
        let added = try call(ContactsAPI.Method.accountsAdd, params)
        XCTAssertEqual(added["caFile"], .string(server.caFile))
        XCTAssertTrue(server.addressBook.absoluteString.hasPrefix("https://"))
        let anna = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Anna Haro"]])
        _ = try call(ContactsAPI.Method.contactsMove, ["ids": [anna["id"] ?? .null], "account": "home"])
        XCTAssertEqual(try call(ContactsAPI.Method.syncRun, ["account": "home"])["uploaded"]?["created"], 1, "synced over TLS")
    }
}
