import ContactsCore
import Foundation
import VCard
import XCTest

/// Taking a card's photo out as an import does it (`contactWithPhoto`, which uses the bytes
/// `contact(from:)` decoded) gives what the general `detachPhoto` gives.
final class PhotoDetachTests: XCTestCase {
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 300)
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x17, count: 200)

    func photo(_ bytes: [UInt8], type: String = "JPEG", extra: String = "") -> String {
        "PHOTO;ENCODING=b;TYPE=\(type)\(extra):" + Data(bytes).base64EncodedString() + "\r\n"
    }

    func card(_ properties: String) -> VCard {
        VCardParser.parse("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Someone\r\n" + properties + "END:VCARD\r\n").cards[0]
    }

    func contact(_ properties: String) throws -> Contact { try VCardMapping.contact(from: card(properties)) }

    func testBothWaysAgreeOnEveryKindOfCard() throws {
        let cases: [(String, String)] = [
            ("one photo", photo(jpeg, extra: ";X-KEEP=yes")),
            ("the same photo twice", photo(jpeg) + photo(jpeg)),
            ("two photos", photo(jpeg) + photo(png, type: "PNG")),
            ("an empty PHOTO first", "PHOTO;ENCODING=b;TYPE=JPEG:\r\n" + photo(png, type: "PNG")),
            ("a link", "PHOTO;VALUE=uri:https://example.com/me.jpg\r\n"),
            ("bytes that do not decode", "PHOTO;ENCODING=b;TYPE=JPEG:@@@not base64@@@\r\n"),
            ("a data URI", "PHOTO:data:image/png;base64," + Data(png).base64EncodedString() + "\r\n"),
            ("no photo", "NOTE:none\r\n"),
        ]
        for (name, properties) in cases {
            var general = try contact(properties)
            let a = VCardMapping.detachPhoto(&general)
            let (fast, b) = try VCardMapping.contactWithPhoto(from: card(properties))
            XCTAssertEqual(a, b, name)
            XCTAssertEqual(general, fast, name)
        }
        let (c, first) = try VCardMapping.contactWithPhoto(from: card(photo(jpeg) + photo(png, type: "PNG")))
        XCTAssertEqual(first?.bytes, jpeg, "the first photo is the contact's")
        XCTAssertEqual(c.vcardProperties?.filter { $0.name == "PHOTO" }.count, 2, "the other stays in the card")
    }
}
