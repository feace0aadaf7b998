import DAVXML
import Foundation
import XCTest

/// What the writer writes, the tree reads back: namespaces under their prefixes, text escaped,
/// and documents that are not XML or nest without end refused with their line.
final class XMLRoundTripTests: XCTestCase {
    func testAWrittenDocumentReadsBackWithItsNamespacesAndText() throws {
        var w = XMLWriter()
        w.start("multistatus")
        w.start("response")
        w.element("href", text: "/books/local/a&b<c>.vcf")
        w.element("address-data", DAVNamespace.cardDAV, text: "BEGIN:VCARD\r\nFN:\"Q\" & Co\r\nEND:VCARD\r\n")
        w.element("displayname", text: "Zoë <李> & Ölçek 👩‍👩‍👧\r")
        w.element("getctag", DAVNamespace.calendarServer, text: "7")
        w.foreign("color", "http://apple.com/ns/ical/")
        w.end()
        w.end()
        let root = try XMLElement.parse(Data(w.text.utf8)).get()
        XCTAssertEqual(root.name, "multistatus")
        XCTAssertEqual(root.namespace, DAVNamespace.dav)
        let response = try XCTUnwrap(root.child("response"))
        XCTAssertEqual(response.child("href")?.value, "/books/local/a&b<c>.vcf")
        XCTAssertEqual(response.child("address-data", DAVNamespace.cardDAV)?.text, "BEGIN:VCARD\r\nFN:\"Q\" & Co\r\nEND:VCARD\r\n")
        XCTAssertEqual(response.child("displayname")?.text, "Zoë <李> & Ölçek 👩‍👩‍👧\r")
        XCTAssertEqual(response.child("getctag", DAVNamespace.calendarServer)?.value, "7")
        XCTAssertNotNil(response.child("color", "http://apple.com/ns/ical/"))
    }

    func testAFragmentDeclaresNothingAndEscapesAttributesQuotes() {
        var w = XMLWriter(fragment: true)
        w.element("getetag", text: "\"3\"")
        XCTAssertEqual(w.text, "<d:getetag>\"3\"</d:getetag>")
        XCTAssertEqual(XMLWriter.escape("a\"b"), "a&quot;b")
    }

    func testWhatIsNotXMLIsRefusedWithItsLine() {
        guard case .failure(let f) = XMLElement.parse(Data("<?xml version=\"1.0\"?>\n<a>\n<b></a>".utf8)) else {
            return XCTFail("a tag closed by another is no XML")
        }
        XCTAssertEqual(f.line, 3)
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        guard case .failure(let tooDeep) = XMLElement.parse(Data(deep.utf8)) else { return XCTFail("nesting has a limit") }
        XCTAssertTrue(tooDeep.message.contains("deeper than"), tooDeep.message)
    }

    func testAnEntityIsNotExpandedFromOutside() {
        let xxe = """
            <?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><d:prop xmlns:d="DAV:">&x;</d:prop>
            """
        if case .success(let root) = XMLElement.parse(Data(xxe.utf8)) { XCTAssertFalse(root.text.contains("root:"), root.text) }
    }
}
