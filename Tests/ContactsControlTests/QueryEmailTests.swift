import ContactsAPI
import JSONCore
import MailCompletion
import XCTest

/// The command lines the small client answers itself, and the lines both clients print.
final class QueryEmailTests: XCTestCase {
    func parsed(_ args: String...) -> QueryEmailCommandLine? { QueryEmailCommandLine(args[...]) }

    func testTheFormsMailClientsGiveAreAnsweredHere() {
        XCTAssertEqual(parsed("query-email", "kate")?.query, QueryEmail(text: "kate"))
        XCTAssertEqual(parsed("query-email", "--no-header", "kate")?.query, QueryEmail(text: "kate", header: false))
        XCTAssertEqual(parsed("query-email", "kate", "-n", "5")?.query, QueryEmail(text: "kate", limit: 5))
        XCTAssertEqual(parsed("query-email", "--limit=7", "kate")?.query.limit, 7)
        XCTAssertEqual(parsed("query-email", "--limit", "7", "kate")?.query.limit, 7)
        XCTAssertEqual(parsed("query-email", "--", "-dash")?.query.text, "-dash")
        XCTAssertEqual(parsed("query-email", "-")?.query.text, "-")
        XCTAssertEqual(parsed("query-email", "")?.query.text, "")
        XCTAssertEqual(parsed("--socket", "/run/s", "query-email", "kate")?.socket, "/run/s")
        XCTAssertEqual(parsed("query-email", "kate", "--socket=/run/s")?.socket, "/run/s")
        XCTAssertEqual(parsed("--no-color", "query-email", "kate")?.query.text, "kate")
    }

    func testEverythingElseIsTheFullClients() {
        XCTAssertNil(parsed())
        XCTAssertNil(parsed("list"))
        XCTAssertNil(parsed("query-email"))
        XCTAssertNil(parsed("query-email", "a", "b"))
        XCTAssertNil(parsed("--json", "query-email", "kate"))
        XCTAssertNil(parsed("query-email", "--help"))
        XCTAssertNil(parsed("query-email", "-h", "kate"))
        XCTAssertNil(parsed("query-email", "--limit", "0", "kate"))
        XCTAssertNil(parsed("query-email", "--limit", "many", "kate"))
        XCTAssertNil(parsed("query-email", "kate", "--limit"))
        XCTAssertNil(parsed("query-email", "-n", "2", "-n", "3", "kate"))
        XCTAssertNil(parsed("--no-header", "query-email", "kate"), "an option of the verb before it")
        XCTAssertNil(parsed("--socket", "/a", "--socket", "/b", "query-email", "kate"))
        XCTAssertNil(parsed("--socket"))
        XCTAssertNil(parsed("query-email", "--frobnicate", "kate"))
    }

    func testWhatItAsksIsTheDaemonsMailQuery() throws {
        XCTAssertEqual(QueryEmail.method, MailQuery.about.name)
        XCTAssertEqual(QueryEmail.defaultLimit, MailQuery.defaultLimit)
        XCTAssertTrue(Set(QueryEmail.fields).isSubset(of: MailQuery.fieldNames))
        let asked = QueryEmail(text: "kate", limit: 5).params
        XCTAssertEqual(asked["text"], .string("kate"))
        XCTAssertEqual(asked["limit"]?.intValue, 5)
    }

    func testLinesAsMuttReadsThem() {
        let addresses: [JSONValue] = [
            ["address": "kate@mac.com", "name": "Kate Bell", "label": "work"],
            ["address": "anna@mac.com", "name": "Anna\tHaro", "label": .null],
            ["address": "x@mac.com", "name": "\tTabs\t\tin a row\t", "label": "a\tb"],
            ["name": "no address"],
        ]
        func text(_ out: (bytes: [UInt8], status: Int32)) -> String { String(decoding: out.bytes, as: UTF8.self) }
        let out = QueryEmail(text: "a").output(addresses)
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(
            text(out),
            "Searching contactsd for 'a'... 3 found.\nkate@mac.com\tKate Bell\twork\nanna@mac.com\tAnna Haro\t\nx@mac.com\tTabs in a row\ta b\n"
        )
        XCTAssertEqual(
            text(QueryEmail(text: "a", header: false).output(addresses)),
            "kate@mac.com\tKate Bell\twork\nanna@mac.com\tAnna Haro\t\nx@mac.com\tTabs in a row\ta b\n")
        XCTAssertEqual(text(QueryEmail(text: "zz").output([])), "No matches for 'zz'.\n")
        XCTAssertEqual(QueryEmail(text: "zz").output([]).status, 1)
        XCTAssertEqual(text(QueryEmail(text: "zz", header: false).output([])), "")
    }
}
