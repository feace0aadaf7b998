import ContactsAPI
import ContactsCore
import JSONCore
import JSONRPC
import XCTest

@testable import ContactsDaemon

/// The contact, group and import methods as a client sees them, without a process.
final class ContactMethodTests: MethodTestCase {
    func testCreateGetUpdateAndTheRevisionCheck() throws {
        let created = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Kate Bell", "phones": ["(555) 564-8583"]]])
        let id = try XCTUnwrap(created["id"]?.stringValue)
        XCTAssertEqual(created["revision"], 1)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsGet, ["id": .string(id)])["name"], "Kate Bell")
        let updated = try call(
            ContactsAPI.Method.contactsUpdate, ["id": .string(id), "ifRevision": 1, "changes": ["title": "Producer"]])
        XCTAssertEqual(updated["title"], "Producer")
        XCTAssertEqual(updated["revision"], 2)
        XCTAssertEqual(
            errorCode(ContactsAPI.Method.contactsUpdate, ["id": .string(id), "ifRevision": 1, "changes": ["title": "x"]]),
            RPCError.Code.conflict.rawValue, "a stale revision is refused")
        XCTAssertEqual(
            errorCode(ContactsAPI.Method.contactsGet, ["id": "00000000-0000-7000-8000-000000000000"]), RPCError.Code.notFound.rawValue)
        XCTAssertEqual(
            errorCode(ContactsAPI.Method.contactsCreate, ["contact": ["name": "  "]]), RPCError.Code.invalidData.rawValue)
    }

    func testQueryFindsByAccentlessTextAndPhoneDigits() throws {
        _ = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Zoë Ångström", "phones": ["+46 8 123 456"]]])
        _ = try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Kate Bell"]])
        XCTAssertEqual(try call(ContactsAPI.Method.contactsQuery, ["text": "angstrom"])["total"], 1)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsQuery, ["text": "8123456"])["total"], 1)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsQuery, [:])["total"], 2)
    }

    func testAQueryWithFieldsReturnsOnlyThoseAndTheID() throws {
        _ = try call(
            ContactsAPI.Method.contactsCreate,
            [
                "contact": [
                    "name": "Zoë Ångström", "emails": ["zoe@example.se"], "phones": ["+46 8 123 456"], "note": "long",
                    "groups": ["Friends"], "addresses": [["street": "Storgatan 1", "locality": "Umeå"]], "birthday": "1990-02-03",
                    "structuredName": ["given": "Zoë", "family": "Ångström"], "urls": ["https://zoe.example"], "favorite": true,
                    "organization": "Acme", "title": "CTO", "nickname": "Z",
                ]
            ])
        // Projections first, read from the database (nothing is cached yet: a projection
        // caches nothing), then the whole contact, which goes to the cache.
        let page = try call(ContactsAPI.Method.contactsQuery, ["text": "zoe", "fields": ["name", "emails"]])
        var alone: [String: JSONObject] = [:]
        for name in Contact.Fields.names {
            alone[name] = try XCTUnwrap(
                try call(ContactsAPI.Method.contactsQuery, ["text": "zoe", "fields": [.string(name)]])["contacts"]?.arrayValue?.first?
                    .objectValue)
        }
        let full = try XCTUnwrap(try call(ContactsAPI.Method.contactsQuery, ["text": "zoe"])["contacts"]?.arrayValue?.first?.objectValue)
        XCTAssertEqual(page["total"], 1)
        let projected = try XCTUnwrap(page["contacts"]?.arrayValue?.first?.objectValue)
        XCTAssertEqual(projected.keys.sorted(), ["emails", "id", "name"])
        for key in projected.keys { XCTAssertEqual(projected[key], full[key], key) }
        // Every field alone is the full contact's value under that name, from the database and
        // from the cache.
        for name in Contact.Fields.names {
            let one = try XCTUnwrap(alone[name])
            XCTAssertEqual(one.keys.sorted(), Array(Set(["id", name])).sorted(), name)
            XCTAssertEqual(one[name], full[name], name)
            let cached = try XCTUnwrap(
                try call(ContactsAPI.Method.contactsQuery, ["text": "zoe", "fields": [.string(name)]])["contacts"]?.arrayValue?.first?
                    .objectValue)
            XCTAssertEqual(cached, one, name)
        }
        XCTAssertEqual(full.keys.count, Contact.Fields.names.count, "the names are every field the API has")
        XCTAssertThrowsError(try call(ContactsAPI.Method.contactsQuery, ["fields": ["name", "email"]])) { e in
            let error = e as? RPCError
            XCTAssertEqual(error?.code, RPCError.Code.invalidParams)
            XCTAssertTrue(error?.message.contains("'email'") == true && error?.message.contains("emails") == true, "\(e)")
        }
    }

    func testAnImportThroughTheAPIStoresItsGroupCardWithItsContacts() throws {
        let text = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            KIND:group\r
            FN:Band\r
            MEMBER:urn:uuid:kate\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            UID:urn:uuid:kate\r
            FN:Kate Bell\r
            END:VCARD\r

            """
        let report = try call(ContactsAPI.Method.contactsImport, ["vcard": .string(text)])
        XCTAssertEqual(report["created"], 1)
        XCTAssertEqual(report["groups"], 1)
        let groups = try call(ContactsAPI.Method.groupsList)
        XCTAssertEqual(groups["groups"]?.arrayValue?.first?["name"], "Band", "\(groups)")
        XCTAssertEqual(groups["groups"]?.arrayValue?.first?["memberCount"], 1, "\(groups)")
    }

    /// The keys a contact is shown with are the ones the published schema describes.
    func testTheContactsJSONKeysAreTheSchemasProperties() throws {
        var c = Contact(name: "Kate Bell")
        c.photo = .url("https://example.com/k.jpg")
        let keys = try XCTUnwrap(c.json.objectValue?.keys)
        let schema = try XCTUnwrap(Schemas.components["Contact"]?["properties"]?.objectValue?.keys)
        XCTAssertEqual(Set(keys), Set(schema))
        let required = try XCTUnwrap(Schemas.components["Contact"]?["required"]?.arrayValue?.compactMap(\.stringValue))
        XCTAssertTrue(Set(required).isSubset(of: Set(keys)))
        let discover = try call("rpc.discover")
        XCTAssertEqual(
            discover["components"]?["schemas"]?["Contact"], Schemas.components["Contact"], "rpc.discover publishes the same schema")
    }
}

/// The trash through the API: delete, list, undelete, purge.
final class TrashMethodTests: MethodTestCase {
    func testDeleteUndeleteAndPurge() throws {
        let id = try XCTUnwrap(
            try call(ContactsAPI.Method.contactsCreate, ["contact": ["name": "Kate Bell", "groups": ["Work"]]])["id"]?.stringValue)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsDelete, ["ids": [.string(id)]])["deleted"], 1)
        let trash = try call(ContactsAPI.Method.contactsTrash, ["text": "kate"])
        XCTAssertEqual(trash["total"], 1)
        XCTAssertEqual(trash["contacts"]?.arrayValue?.first?["groups"], ["Work"])
        XCTAssertEqual(trash["contacts"]?.arrayValue?.first?["origin"], "rpc")
        XCTAssertNotNil(trash["contacts"]?.arrayValue?.first?["deletedAt"]?.stringValue)
        let back = try call(ContactsAPI.Method.contactsUndelete, ["ids": [.string(id), "nobody"]])
        XCTAssertEqual(back["restored"], [.string(id)])
        XCTAssertEqual(back["notFound"], ["nobody"])
        XCTAssertEqual(try call(ContactsAPI.Method.contactsGet, ["id": .string(id)])["revision"], 3, "the revision after its deletion's")

        _ = try call(ContactsAPI.Method.contactsDelete, ["ids": [.string(id)]])
        XCTAssertEqual(errorCode(ContactsAPI.Method.contactsPurge), RPCError.Code.invalidParams.rawValue, "ids or all")
        XCTAssertEqual(
            errorCode(ContactsAPI.Method.contactsPurge, ["all": true, "ids": [.string(id)]]), RPCError.Code.invalidParams.rawValue)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsPurge, ["all": true])["purged"], 1)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsTrash)["total"], 0)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsUndelete, ["ids": [.string(id)]])["notFound"], [.string(id)])
    }
}

/// A contact's history through the API, and a revert of a change an import made.
final class HistoryMethodTests: MethodTestCase {
    func testHistoryRevisionAndRevertOfAnImportedChange() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:kate\r\nFN:Kate Bell\r\nTEL:555-1\r\nEND:VCARD\r\n"
        _ = try call(ContactsAPI.Method.contactsImport, ["vcard": .string(card)])
        let id = try XCTUnwrap(try call(ContactsAPI.Method.contactsQuery, ["text": "kate"])["contacts"]?.arrayValue?.first?["id"])
        _ = try call(ContactsAPI.Method.contactsImport, ["vcard": .string(card.replacingOccurrences(of: "555-1", with: "555-9"))])
        let entries = try XCTUnwrap(try call(ContactsAPI.Method.contactsHistory, ["id": id])["entries"]?.arrayValue)
        XCTAssertEqual(entries.map { $0["change"] }, ["updated", "created"])
        XCTAssertEqual(entries.map { $0["origin"] }, ["import", "import"])
        XCTAssertEqual(entries.first?["fields"], ["phones"])
        XCTAssertNotEqual(entries[0]["operation"], entries[1]["operation"])
        XCTAssertEqual(
            try call(ContactsAPI.Method.contactsGetRevision, ["id": id, "revision": 1])["phones"]?.arrayValue?.first?["value"], "555-1")
        XCTAssertEqual(
            errorCode(ContactsAPI.Method.contactsGetRevision, ["id": id, "revision": 9]), RPCError.Code.notFound.rawValue)
        let reverted = try call(ContactsAPI.Method.contactsRevert, ["id": id, "revision": 1, "ifRevision": 2])
        XCTAssertEqual(reverted["revision"], 3)
        XCTAssertEqual(reverted["phones"]?.arrayValue?.first?["value"], "555-1")
        XCTAssertEqual(
            errorCode(ContactsAPI.Method.contactsRevert, ["id": id, "revision": 2, "ifRevision": 2]), RPCError.Code.conflict.rawValue)
        let exported = try XCTUnwrap(try call(ContactsAPI.Method.contactsExport, ["ids": [id]])["data"]?.stringValue)
        XCTAssertTrue(exported.contains("555-1") && !exported.contains("555-9"), "the card goes back too: \(exported)")
    }
}

/// Whole operations through the API.
final class UndoMethodTests: MethodTestCase {
    func testARefusedUndoNamesEveryContactALaterChangeTouched() throws {
        let cards = (1...3).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:p\($0)\r\nFN:Person \($0)\r\nEND:VCARD\r\n" }.joined()
        _ = try call(ContactsAPI.Method.contactsImport, ["vcard": .string(cards)])
        let op = try XCTUnwrap(try call(ContactsAPI.Method.changesList)["operations"]?.arrayValue?.first)
        XCTAssertEqual(op["origin"], "import")
        XCTAssertEqual(op["contacts"], 3)
        let ids = try XCTUnwrap(try call(ContactsAPI.Method.contactsQuery)["contacts"]?.arrayValue?.compactMap { $0["id"]?.stringValue })
        for id in ids.prefix(2) { _ = try call(ContactsAPI.Method.contactsUpdate, ["id": .string(id), "changes": ["note": "later"]]) }
        do {
            _ = try call(ContactsAPI.Method.changesUndo, ["operation": op["id"] ?? .null])
            XCTFail("refused")
        } catch let e as RPCError {
            XCTAssertEqual(e.code, .conflict)
            XCTAssertEqual(Set(e.data?["ids"]?.arrayValue?.compactMap(\.stringValue) ?? []), Set(ids.prefix(2)))
        }
        let undone = try call(ContactsAPI.Method.changesUndo, ["operation": op["id"] ?? .null, "force": true])
        XCTAssertEqual(undone["operation"]?["id"], op["id"])
        XCTAssertEqual(undone["undo"]?["origin"], "undo")
        XCTAssertEqual(undone["contacts"], 3, "what the undo changed")
        XCTAssertEqual(undone["groups"], 0)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsQuery)["total"], 0)
        XCTAssertEqual(try call(ContactsAPI.Method.contactsTrash)["total"], 3)
    }
}
