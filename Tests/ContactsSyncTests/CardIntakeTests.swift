import Foundation
import XCTest

@testable import ContactsSync

/// How a downloaded card's vCard version is told, from its first bytes.
final class CardIntakeTests: XCTestCase {
    func testVersionFourIsToldInAnyCaseNearTheStartOnly() {
        XCTAssertTrue(CardIntake.isVersion4(Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nEND:VCARD\r\n".utf8)))
        XCTAssertTrue(CardIntake.isVersion4(Data("begin:vcard\nversion:4.0\nfn:a\nend:vcard\n".utf8)))
        XCTAssertFalse(CardIntake.isVersion4(Data("BEGIN:VCARD\r\nVERSION:3.0\r\nNOTE:VERSION:4.0 later\r\nEND:VCARD\r\n".utf8)))
        XCTAssertFalse(CardIntake.isVersion4(Data("VERSION:4".utf8)))
        XCTAssertFalse(CardIntake.isVersion4(Data()))
        let late = "BEGIN:VCARD\r\nVERSION:3.0\r\nNOTE:" + String(repeating: "x", count: 300) + "VERSION:4.0\r\nEND:VCARD\r\n"
        XCTAssertFalse(CardIntake.isVersion4(Data(late.utf8)))
    }
}
