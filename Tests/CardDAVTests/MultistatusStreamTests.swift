import Foundation
import XCTest

@testable import CardDAV

/// The streamed reading of a multistatus answer, on documents written here: what real servers
/// send (prefixes, whole URLs, tombstones) and what they must not (broken XML, another root).
final class MultistatusStreamTests: XCTestCase {
    func read(_ text: String) throws -> (responses: [Multistatus.Response], token: String?) {
        var out: [Multistatus.Response] = []
        let token = try MultistatusStream.read(InputStream(data: Data(text.utf8))) {
            out.append($0); return true
        }
        return (out, token)
    }

    func testResponsesArriveOneByOneWithTheirPropertiesAndTheToken() throws {
        let (responses, token) = try read(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
              <D:response><D:href>/book/a%20b.vcf</D:href><D:propstat><D:prop><D:getetag>"1"</D:getetag>
                <C:address-data>BEGIN:VCARD&#13;
            FN:A &amp; B&#13;
            END:VCARD&#13;
            </C:address-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
              <D:response><D:href>https://dav.example.com/book/gone.vcf</D:href><D:status>HTTP/1.1 404 Not Found</D:status></D:response>
              <D:sync-token>http://example.com/ns/sync/7</D:sync-token>
            </D:multistatus>
            """)
        XCTAssertEqual(token, "http://example.com/ns/sync/7")
        XCTAssertEqual(responses.map(\.href), ["/book/a b.vcf", "/book/gone.vcf"])
        XCTAssertEqual(responses[0].etag, "\"1\"")
        XCTAssertEqual(responses[0].property("address-data", DAVNamespace.cardDAV)?.text, "BEGIN:VCARD\r\nFN:A & B\r\nEND:VCARD\r\n")
        XCTAssertEqual(responses[1].status, 404)
    }

    func testBrokenXMLSaysWhereAndAnotherDocumentIsNamed() {
        XCTAssertThrowsError(try read("<D:multistatus xmlns:D=\"DAV:\">\n<D:response><D:href>/a</D:href>\n</D:multistatus>")) { e in
            XCTAssertTrue("\(e)".contains("line"), "\(e)")
        }
        XCTAssertThrowsError(try read("<html><body>Service Unavailable</body></html>")) { e in
            XCTAssertTrue("\(e)".contains("<html>"), "\(e)")
        }
        XCTAssertThrowsError(try read(""))
    }

    func testValuesAreTrimmedOfXMLSpaceOnlyAndKeepTheirLastCharacter() {
        func value(_ text: String) -> String { XMLElement(namespace: DAVNamespace.dav, name: "displayname", text: text).value }
        XCTAssertEqual(value("\n\t  Adressbuch Müller é \r\n"), "Adressbuch Müller é")
        XCTAssertEqual(value("连络人"), "连络人")
        XCTAssertEqual(value(" \n "), "")
        // A no-break space is text, not XML's white space.
        XCTAssertEqual(value("\u{00A0}Ä"), "\u{00A0}Ä")
    }

    func testPathsCompareWithOrWithoutTheirEncodingAndLastSlash() {
        XCTAssertTrue(AddressBookClient.samePath("/dav/Anna%20B/contacts/", "/dav/Anna B/contacts"))
        XCTAssertTrue(AddressBookClient.samePath("https://dav.example.com/book/", "/book"))
        XCTAssertTrue(AddressBookClient.samePath("/book/", "/book"))
        XCTAssertFalse(AddressBookClient.samePath("/book/a.vcf", "/book"))
    }
}
