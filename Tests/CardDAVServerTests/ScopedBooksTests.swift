import DAVXML
import Foundation
import HTTPServer
import XCTest

@testable import CardDAVServer

/// A device's view of the books: only those it was given, read-only or writing in its name.
final class ScopedBooksTests: XCTestCase {
    static let card = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nN:Bell;Kate;;;\r\nEND:VCARD\r\n".utf8)

    func books() throws -> MemoryBooks {
        MemoryBooks(["local": [:], "family": ["kate.vcf": String(decoding: Self.card, as: UTF8.self)]])
    }

    func request(_ method: String, _ path: String, _ body: [UInt8] = [], to books: ServedBooks, depth: String = "1") -> HTTPResponse {
        DAVService(books: books, maxResourceSize: 1 << 20).handle(
            HTTPRequest(method: method, path: path, headers: ["Depth": depth, "User-Agent": "DAVx5/4.4"], body: body))
    }

    func testABookNotGivenIsNotThere() throws {
        let view = ScopedBooks.view(of: try books(), visible: ["family"], readOnly: false, client: "kid")
        let home = String(decoding: request("PROPFIND", "/books/", to: view).body, as: UTF8.self)
        XCTAssertTrue(home.contains("/books/family/"), home)
        XCTAssertFalse(home.contains("/books/local/"), "the home set lists the books given alone")
        XCTAssertEqual(request("PROPFIND", "/books/local/", to: view, depth: "0").status, 404)
        XCTAssertEqual(request("PUT", "/books/local/x.vcf", Self.card, to: view).status, 404)
        XCTAssertEqual(request("GET", "/books/family/kate.vcf", to: view).status, 200)
    }

    func testWritesAreMadeInTheDevicesNameWhateverItsUserAgentSays() throws {
        let inner = try books()
        let view = ScopedBooks.view(of: inner, visible: nil, readOnly: false, client: "phone")
        let ada = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ada\r\nFN:Ada\r\nN:;Ada;;;\r\nEND:VCARD\r\n".utf8)
        XCTAssertEqual(request("PUT", "/books/local/ada.vcf", ada, to: view).status, 201)
        XCTAssertEqual(inner.writers.last, "phone")
    }

    func testAReadOnlyViewRefusesWritesWithTheMissingPrivilege() throws {
        let view = ScopedBooks.view(of: try books(), visible: nil, readOnly: true, client: "tablet")
        XCTAssertFalse(view is WritableBooks)
        let put = request("PUT", "/books/family/kate.vcf", Self.card, to: view)
        XCTAssertEqual(put.status, 403)
        XCTAssertTrue(String(decoding: put.body, as: UTF8.self).contains("<d:write-content/>"), String(decoding: put.body, as: UTF8.self))
        let privileges = String(
            decoding: request(
                "PROPFIND", "/books/family/", Array(#"<propfind xmlns="DAV:"><prop><current-user-privilege-set/></prop></propfind>"#.utf8),
                to: view, depth: "0"
            ).body, as: UTF8.self)
        XCTAssertTrue(privileges.contains("<d:read/>"), privileges)
        XCTAssertFalse(privileges.contains("write"), privileges)
    }
}
