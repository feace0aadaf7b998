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
}
