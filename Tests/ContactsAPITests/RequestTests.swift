import ContactsAPI
import JSONCore
import JSONRPC
import XCTest

/// A request declared once: what a client sends reads back as the same request in the daemon,
/// the limits the schema states are the ones parsing holds to, and a wrong value is refused
/// naming its field.
final class RequestTests: XCTestCase {
    func testAViewRequestReadsBackAsItWasMade() throws {
        let made = ViewsOpen(
            query: ContactFilter(text: "kate", favoritesOnly: true, group: "Work", account: .local),
            sort: [SortKey(.updatedAt, ascending: false), SortKey(.name)], fields: ["name", "phones"],
            window: ViewsOpen.Window(offset: 5, limit: 20), since: "42", excludeOrigin: "import")
        let read = try ViewsOpen(RPCParams(made.params))
        XCTAssertEqual(read.query, made.query)
        XCTAssertEqual(read.sort, made.sort)
        XCTAssertEqual(read.fields, made.fields)
        XCTAssertEqual(read.window, made.window)
        XCTAssertEqual(read.since, "42")
        XCTAssertEqual(read.excludeOrigin, "import")
        XCTAssertEqual(ViewsOpen().params, [:], "nothing asked, nothing sent")
        XCTAssertEqual(try ViewsRead(RPCParams(ViewsRead(view: 3).params)).view, 3)
        XCTAssertEqual(
            try ContactFilter(RPCParams(ContactFilter(account: .named("work")).json)).account, .named("work"))
    }

    func testTheSchemaStatesTheLimitsParsingHoldsTo() throws {
        let window = try XCTUnwrap(ViewsOpen.parameters.first { $0.name == "window" })
        let limit = window.schema["properties"]?["limit"]
        XCTAssertEqual(limit?["minimum"]?.intValue, ViewsOpen.Window.limits.lowerBound)
        XCTAssertEqual(limit?["maximum"]?.intValue, ViewsOpen.Window.limits.upperBound)
        for bad in [ViewsOpen.Window.limits.lowerBound - 1, ViewsOpen.Window.limits.upperBound + 1] {
            XCTAssertThrowsError(try ViewsOpen(RPCParams(["window": ["limit": .int(bad)]]))) { e in
                XCTAssertEqual((e as? RPCError)?.code, .invalidParams)
                XCTAssertTrue((e as? RPCError)?.message.contains("'limit' must be between") ?? false, "\(e)")
            }
        }
        XCTAssertTrue(ViewsRead.parameters.allSatisfy(\.required))
    }

    func testWrongValuesAreRefusedNamingTheirField() {
        let cases: [(JSONObject, String)] = [
            (["sort": [["field": "age"]]], "sort[0].field"), (["sort": "name"], "sort"),
            (["query": ["account": 3]], "account"), (["fields": "name"], "fields"), (["since": 7], "since"),
        ]
        for (params, field) in cases {
            XCTAssertThrowsError(try ViewsOpen(RPCParams(params)), "\(params)") { e in
                XCTAssertEqual((e as? RPCError)?.data?["field"]?.stringValue, field, "\(params): \(e)")
            }
        }
        XCTAssertThrowsError(try ViewsClose(RPCParams([:])))
    }

    func testAnExportReadsBackWithItsQueryAsAnObjectOrAText() throws {
        let made = ContactsExport(
            format: .csv, ids: ["a", "b"], query: ContactsQuery(filter: ContactFilter(group: "Work", account: .local)), path: "/tmp/x.csv")
        let read = try ContactsExport(RPCParams(made.params))
        XCTAssertEqual(read.format, .csv)
        XCTAssertEqual(read.ids, ["a", "b"])
        XCTAssertEqual(read.query?.filter, made.query?.filter)
        XCTAssertEqual(read.path, "/tmp/x.csv")
        XCTAssertEqual(try ContactsExport(RPCParams(["query": "kate"])).query?.filter.text, "kate", "a text alone is a query")
        XCTAssertEqual(try ContactsExport(RPCParams([:])).format, .vcard4, "vCard 4.0 by default")
        XCTAssertNil(try ContactsExport(RPCParams([:])).query)
        XCTAssertThrowsError(try ContactsExport(RPCParams(["format": "vcard5"]))) { e in
            XCTAssertEqual((e as? RPCError)?.data?["field"]?.stringValue, "format")
        }
        XCTAssertThrowsError(try ContactsExport(RPCParams(["query": 3]))) { e in
            XCTAssertEqual((e as? RPCError)?.data?["field"]?.stringValue, "query")
        }
    }

    func testAChangeToOneContactCarriesItsRevisionOnlyWhenGiven() throws {
        let update = ContactsUpdate(id: "c1", changes: ["note": "hi"], ifRevision: 4)
        XCTAssertEqual(update.params, ["id": "c1", "changes": ["note": "hi"], "ifRevision": 4])
        XCTAssertEqual(try ContactsUpdate(RPCParams(update.params)).target, ContactTarget("c1", ifRevision: 4))
        XCTAssertEqual(ContactsRemovePhoto(id: "c1").params, ["id": "c1"], "no revision, none sent")
        XCTAssertThrowsError(try ContactsSetFavorite(RPCParams(["id": "c1", "favorite": true, "ifRevision": -1]))) { e in
            XCTAssertEqual((e as? RPCError)?.data?["field"]?.stringValue, "ifRevision")
        }
        let photo = try ContactsSetPhoto(RPCParams(ContactsSetPhoto(id: "c1", source: .path("/p.jpg"), ifRevision: 2).params))
        XCTAssertEqual(photo.source, .path("/p.jpg"))
        XCTAssertEqual(photo.target.ifRevision, 2)
        XCTAssertEqual(try ContactsRevert(RPCParams(["id": "c1", "revision": 3])).revision, 3)
    }

    func testServingIsSetToAnAddressOrToNullAndNothingElse() throws {
        XCTAssertEqual(try ServeSet(RPCParams(ServeSet(listen: "127.0.0.1:5232").params)).listen, "127.0.0.1:5232")
        XCTAssertNil(try ServeSet(RPCParams(ServeSet(listen: nil).params)).listen)
        XCTAssertEqual(ServeSet(listen: nil).params, ["listen": .null], "null is said, not left out: it turns serving off")
        for bad: JSONObject in [[:], ["listen": 5232]] {
            XCTAssertThrowsError(try ServeSet(RPCParams(bad))) { e in XCTAssertEqual((e as? RPCError)?.code, .invalidParams) }
        }
        XCTAssertEqual(ServeStatus().params, [:])
        XCTAssertEqual(try ContactsDelete(RPCParams(ContactsDelete(ids: ["a"]).params)).ids, ["a"])
    }

    func testTheServeRequestsSayWhatTheyChangeAndNothingElse() throws {
        XCTAssertNil(try ServeCertificate(RPCParams([:])).change, "only say what it is")
        XCTAssertEqual(try ServeCertificate(RPCParams(ServeCertificate(change: .renew).params)).change, .renew)
        let own = ServeCertificate(change: .use(certificate: "C", key: "K"))
        XCTAssertEqual(try ServeCertificate(RPCParams(own.params)).change, own.change)
        XCTAssertThrowsError(try ServeCertificate(RPCParams(["certificate": "C"])), "a certificate goes with its key")
        XCTAssertThrowsError(try ServeCertificate(RPCParams(["renew": true, "certificate": "C", "key": "K"])))
        let add = ServeDevicesAdd(name: "phone", readOnly: true, books: ["family"])
        let read = try ServeDevicesAdd(RPCParams(add.params))
        XCTAssertEqual([read.name] + read.books, ["phone", "family"])
        XCTAssertTrue(read.readOnly)
        XCTAssertEqual(ServeDevicesAdd(name: "phone").params, ["name": "phone"], "defaults are not sent")
        XCTAssertEqual(try ServeDevicesRemove(RPCParams(["name": "phone"])).name, "phone")
        XCTAssertThrowsError(try ServeDevicesPassword(RPCParams([:])))
        XCTAssertEqual(ServeLANSet(listen: nil).params, ["listen": .null])
        XCTAssertEqual(try ServeLANSet(RPCParams(["listen": "0.0.0.0:5233", "host": "desk"])).host, "desk")
    }
}
