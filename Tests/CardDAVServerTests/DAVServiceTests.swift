import CardDAVServer
import DAVXML
import Foundation
import HTTPServer
import XCTest

/// The CardDAV face answered from books in memory: discovery, reads, reports, writes with
/// their conditions, sync-collection and refusals, each request through the same `handle` the
/// listener calls, without a daemon or a socket.
final class DAVServiceTests: XCTestCase {
    static let kate = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nEMAIL:kate@example.com\r\nEND:VCARD\r\n"
    static let anna = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:anna\r\nFN:Anna Haro\r\nEND:VCARD\r\n"

    var books = MemoryBooks()
    var service: DAVService { DAVService(books: books, maxResourceSize: 1 << 20) }

    override func setUp() {
        books = MemoryBooks(["local": ["kate.vcf": Self.kate, "anna.vcf": Self.anna], "work": [:]])
    }

    func request(
        _ method: String, _ path: String, _ body: String = "", headers: [String: String] = [:], to service: DAVService? = nil
    ) -> HTTPResponse {
        (service ?? self.service).handle(HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8)))
    }

    func xml(_ r: HTTPResponse, file: StaticString = #filePath, line: UInt = #line) throws -> XMLElement {
        try XCTUnwrap(try? XMLElement.parse(Data(r.body)).get(), String(decoding: r.body, as: UTF8.self), file: file, line: line)
    }

    func header(_ r: HTTPResponse, _ name: String) -> String? { r.headers.first { $0.0.lowercased() == name.lowercased() }?.1 }

    /// The hrefs of a multistatus with the status each one's first propstat (or it) gives.
    func statuses(_ r: HTTPResponse) throws -> [String: String] {
        var out: [String: String] = [:]
        for response in try xml(r).all("response") {
            let status = response.child("status")?.value ?? response.child("propstat")?.child("status")?.value ?? ""
            out[response.child("href")?.value ?? ""] = status
        }
        return out
    }

    static func propfind(_ props: String) -> String {
        "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:carddav\"><d:prop>\(props)</d:prop></d:propfind>"
    }

    func testDiscoveryLeadsFromTheWellKnownAddressToEveryBook() throws {
        let wellKnown = request("PROPFIND", "/.well-known/carddav")
        XCTAssertEqual(wellKnown.status, 301)
        XCTAssertEqual(header(wellKnown, "Location"), "/")

        let root = try xml(request("PROPFIND", "/", Self.propfind("<d:current-user-principal/>"), headers: ["Depth": "0"]))
        let principal = root.child("response")?.child("propstat")?.child("prop")?.child("current-user-principal")?.child("href")?.value
        XCTAssertEqual(principal, DAVPath.principalPath)

        let home = try xml(
            request("PROPFIND", DAVPath.principalPath, Self.propfind("<c:addressbook-home-set/>"), headers: ["Depth": "0"]))
        let homeSet = home.child("response")?.child("propstat")?.child("prop")?.child("addressbook-home-set", DAVNamespace.cardDAV)
        XCTAssertEqual(homeSet?.child("href")?.value, DAVPath.homePath)

        let listed = try statuses(request("PROPFIND", DAVPath.homePath, Self.propfind("<d:resourcetype/>"), headers: ["Depth": "1"]))
        XCTAssertEqual(Set(listed.keys), [DAVPath.homePath, "/books/local/", "/books/work/"])
    }

    func testABookListsItsCardsWithTheirTags() throws {
        let r = request("PROPFIND", "/books/local/", Self.propfind("<d:getetag/>"), headers: ["Depth": "1"])
        XCTAssertEqual(r.status, 207)
        let listed = try statuses(r)
        XCTAssertEqual(Set(listed.keys), ["/books/local/", "/books/local/kate.vcf", "/books/local/anna.vcf"])
        XCTAssertTrue(listed.values.allSatisfy { $0.contains("200") }, "\(listed)")
        XCTAssertEqual(request("PROPFIND", "/books/nobody/", Self.propfind("<d:getetag/>"), headers: ["Depth": "1"]).status, 404)
    }

    func testACardIsServedInTheVersionAskedAndNotAgainWhenUnchanged() throws {
        let v3 = request("GET", "/books/local/kate.vcf")
        XCTAssertEqual(v3.status, 200)
        XCTAssertTrue(String(decoding: v3.body, as: UTF8.self).contains("VERSION:3.0"))
        let v4 = request("GET", "/books/local/kate.vcf", headers: ["Accept": "text/vcard; version=4.0"])
        XCTAssertTrue(String(decoding: v4.body, as: UTF8.self).contains("VERSION:4.0"))
        let etag = try XCTUnwrap(header(v3, "ETag"))
        XCTAssertEqual(request("GET", "/books/local/kate.vcf", headers: ["If-None-Match": etag]).status, 304)
        let head = request("HEAD", "/books/local/kate.vcf")
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)
        XCTAssertEqual(request("GET", "/books/local/nobody.vcf").status, 404)
    }

    func testAMultigetAnswersEachHrefAndSaysWhichAreMissing() throws {
        let body = """
            <?xml version="1.0"?><c:addressbook-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">
            <d:prop><d:getetag/><c:address-data/></d:prop>
            <d:href>/books/local/kate.vcf</d:href><d:href>/books/local/gone.vcf</d:href></c:addressbook-multiget>
            """
        let r = request("REPORT", "/books/local/", body)
        XCTAssertEqual(r.status, 207)
        let tree = try xml(r)
        let kate = try XCTUnwrap(tree.all("response").first { $0.child("href")?.value == "/books/local/kate.vcf" })
        XCTAssertTrue(
            kate.child("propstat")?.child("prop")?.child("address-data", DAVNamespace.cardDAV)?.value.contains("FN:Kate Bell") ?? false)
        XCTAssertTrue(try statuses(r)["/books/local/gone.vcf"]?.contains("404") ?? false)
    }

    func testAMultigetOfAWholeBookWrittenInPartsKeepsEveryHrefInOrder() throws {
        var cards: [String: String] = [:]
        for i in 0..<700 { cards["c\(i).vcf"] = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:c\(i)\r\nFN:Person \(i) <&>\r\nEND:VCARD\r\n" }
        books = MemoryBooks(["local": cards])
        books.parts = 3
        let hrefs = (0..<700).map { "/books/local/c\($0).vcf" } + ["/books/local/gone.vcf"]
        let body = """
            <?xml version="1.0"?><c:addressbook-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">
            <d:prop><d:getetag/><c:address-data/></d:prop>\(hrefs.map { "<d:href>\($0)</d:href>" }.joined())</c:addressbook-multiget>
            """
        let r = request("REPORT", "/books/local/", body)
        XCTAssertEqual(r.status, 207)
        let responses = try xml(r).all("response")
        XCTAssertEqual(responses.compactMap { $0.child("href")?.value }, hrefs, "every href once, in the order asked")
        XCTAssertEqual(
            responses[350].child("propstat")?.child("prop")?.child("address-data", DAVNamespace.cardDAV)?.value,
            cards["c350.vcf"]?.trimmingCharacters(in: .whitespacesAndNewlines), "each card whole, escaped and read back")
        XCTAssertTrue(try statuses(r)["/books/local/gone.vcf"]?.contains("404") ?? false)
    }

    func testAQueryFindsCardsByTheirText() throws {
        let body = """
            <?xml version="1.0"?><c:addressbook-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">
            <d:prop><d:getetag/></d:prop><c:filter><c:prop-filter name="FN">
            <c:text-match collation="i;unicode-casemap" match-type="contains">bell</c:text-match></c:prop-filter></c:filter>
            </c:addressbook-query>
            """
        let r = request("REPORT", "/books/local/", body, headers: ["Depth": "1"])
        XCTAssertEqual(r.status, 207, String(decoding: r.body, as: UTF8.self))
        XCTAssertEqual(Set(try statuses(r).keys), ["/books/local/kate.vcf"])
    }

    func testWritesHoldToTheirConditions() throws {
        let tom = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:tom\r\nFN:Tom\r\nEND:VCARD\r\n"
        let created = request("PUT", "/books/local/tom.vcf", tom, headers: ["If-None-Match": "*", "User-Agent": "Test/1"])
        XCTAssertEqual(created.status, 201)
        let etag = try XCTUnwrap(header(created, "ETag"))
        XCTAssertEqual(request("PUT", "/books/local/tom.vcf", tom, headers: ["If-None-Match": "*"]).status, 412, "a card is there")
        XCTAssertEqual(request("PUT", "/books/local/tom.vcf", tom + " ", headers: ["If-Match": "\"nope\""]).status, 412)
        let edited = tom.replacingOccurrences(of: "FN:Tom", with: "FN:Tom Bell")
        XCTAssertEqual(request("PUT", "/books/local/tom.vcf", edited, headers: ["If-Match": etag]).status, 204)
        XCTAssertEqual(request("PUT", "/books/local/tom2.vcf", tom).status, 409, "one UID, one card")
        XCTAssertEqual(request("PUT", "/books/local/x.vcf", "not a card").status, 400)
        XCTAssertEqual(request("PUT", "/books/local/x.vcf", tom, headers: ["Content-Type": "image/png"]).status, 415)
        XCTAssertEqual(request("DELETE", "/books/local/tom.vcf", headers: ["If-Match": etag]).status, 412, "changed since")
        XCTAssertEqual(request("DELETE", "/books/local/tom.vcf").status, 204)
        XCTAssertEqual(request("GET", "/books/local/tom.vcf").status, 404)
        XCTAssertEqual(books.writers.first, "Test/1", "the face names who wrote")
    }

    func testSyncCollectionGivesWhatChangedSinceItsToken() throws {
        func sync(_ token: String) -> HTTPResponse {
            let body = """
                <?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>\(token)</d:sync-token>
                <d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
                """
            return request("REPORT", "/books/local/", body)
        }
        let first = try xml(sync(""))
        XCTAssertEqual(first.all("response").count, 2)
        let token = try XCTUnwrap(first.child("sync-token")?.value)
        XCTAssertEqual(request("DELETE", "/books/local/anna.vcf").status, 204)
        let tom = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:tom\r\nFN:Tom\r\nEND:VCARD\r\n"
        XCTAssertEqual(request("PUT", "/books/local/tom.vcf", tom).status, 201)
        let delta = try statuses(sync(token))
        XCTAssertTrue(delta["/books/local/tom.vcf"]?.contains("200") ?? false, "\(delta)")
        XCTAssertTrue(delta["/books/local/anna.vcf"]?.contains("404") ?? false, "\(delta)")
        XCTAssertNil(delta["/books/local/kate.vcf"], "unchanged since")
        let stale = sync("urn:test:999")
        XCTAssertEqual(stale.status, 403, "a token the books never gave")
        XCTAssertTrue(String(decoding: stale.body, as: UTF8.self).contains("valid-sync-token"))
    }

    func testReadOnlyBooksRefuseWritesAndSaySo() throws {
        let readOnly = DAVService(books: ReadOnlyBooks(inner: books), maxResourceSize: 1 << 20)
        let options = request("OPTIONS", "/books/local/", to: readOnly)
        XCTAssertFalse(header(options, "Allow")?.contains("PUT") ?? true)
        XCTAssertTrue(header(request("OPTIONS", "/", to: service), "Allow")?.contains("PUT") ?? false)
        let put = request("PUT", "/books/local/kate.vcf", Self.kate, to: readOnly)
        XCTAssertEqual(put.status, 403)
        XCTAssertTrue(String(decoding: put.body, as: UTF8.self).contains("need-privileges"), "RFC 3744: says which privilege is missing")
        XCTAssertTrue(String(decoding: put.body, as: UTF8.self).contains("write-content"))
        XCTAssertEqual(request("DELETE", "/books/local/kate.vcf", to: readOnly).status, 403)
        XCTAssertEqual(request("PROPPATCH", "/books/local/", "<x/>", to: readOnly).status, 403)
        XCTAssertEqual(request("GET", "/books/local/kate.vcf", to: readOnly).status, 200)
    }

    func testPathsThatStepOutOrNameNothingAreRefused() {
        for path in [
            "/books/../etc/passwd", "/books/local/%2e%2e/x.vcf", "/books/local/a%2Fb.vcf", "/books/local/a%00.vcf", "/elsewhere/x/y/z",
        ] {
            XCTAssertEqual(request("GET", path).status, 404, path)
        }
        XCTAssertEqual(request("PATCH", "/books/local/kate.vcf").status, 405)
        XCTAssertEqual(request("PROPFIND", "/books/local/", "<not xml", headers: ["Depth": "1"]).status, 400)
    }

    func testABookIsRenamedByPropPatch() throws {
        let body = """
            <?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Family</d:displayname></d:prop></d:set></d:propertyupdate>
            """
        XCTAssertEqual(request("PROPPATCH", "/books/local/", body).status, 207)
        XCTAssertEqual(try books.books().first { $0.name == "local" }?.displayName, "Family")
    }
}
