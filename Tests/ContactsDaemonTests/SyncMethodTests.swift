import ContactsAPI
import Foundation
import JSONCore
import JSONRPC
import TestSupport
import XCTest

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
}
