import ContactsAPI
import Foundation
import XCTest

@testable import MailHeaders

/// Headers read by the real GMime (libgmime-3.0.so.0), as mail clients write them and break them.
final class MessageReaderTests: XCTestCase {
    func read(_ text: String, strict: Bool = false) throws -> MailMessage {
        try MessageReader.message(Array(text.utf8), strict: strict)
    }

    func testEncodedWordsInAnyCharsetAreDecoded() throws {
        let m = try read(
            """
            From: =?ISO-8859-1?Q?Andr=E9_M=FCller?= <andre@example.de>
            To: =?UTF-8?B?5bGx55Sw5aSq6YOO?= <yamada@example.jp>, =?KOI8-R?B?98HTyczJyg==?= <vasily@example.ru>
            Cc: =?windows-1252?Q?Fran=E7ois?= <f@example.fr>
            Message-ID: <abc@example.de>
            Date: Tue, 01 Dec 2026 10:00:00 +0100

            body
            """)
        XCTAssertEqual(m.id, "abc@example.de")
        XCTAssertEqual(m.from, [MailMessage.Address("andre@example.de", name: "André Müller")])
        XCTAssertEqual(m.to.map(\.name), ["山田太郎", "Василий"])
        XCTAssertEqual(m.cc.first?.name, "François")
        XCTAssertEqual(m.date, 1_796_115_600_000)
    }

    func testGroupsCommentsQuotingAndFoldsAreRead() throws {
        let m = try read(
            "From: \"Smith, John (Sales)\" <john@example.com> (work)\r\n"
                + "To: Team: alice@example.com, \"Bob B.\" <bob@example.com>;,\r\n"
                + "\tcarol@example.com (Carol C),\r\n  undisclosed-recipients:;\r\n"
                + "Subject: hi\r\n\r\nbody")
        XCTAssertEqual(m.from, [MailMessage.Address("john@example.com", name: "Smith, John (Sales)")])
        XCTAssertEqual(m.to.map(\.address), ["alice@example.com", "bob@example.com", "carol@example.com"])
        XCTAssertEqual(m.to[1].name, "Bob B.")
        XCTAssertTrue(m.id.hasPrefix("sha256:"), "no Message-ID: a digest of the header stands for it")
    }

    func testRawEightBitNamesAreReadAsUTF8OrElseWindows1252() throws {
        var bytes = Array("From: ".utf8) + [0x4A, 0xFC, 0x72, 0x67, 0x65, 0x6E] + Array(" <j@example.de>\nTo: ".utf8)
        bytes += Array("Zoë <z@example.org>\n\n".utf8)
        let m = try MessageReader.message(bytes, strict: true)
        XCTAssertEqual(m.from.first?.name, "Jürgen")
        XCTAssertEqual(m.to.first?.name, "Zoë")
    }

    func testAMessageThatCannotBeReadSaysWhichHeaderAndLine() throws {
        XCTAssertThrowsError(try read("From: nobody here\nTo: a@example.org\n\n", strict: true)) { e in
            XCTAssertEqual((e as? MailReadError)?.header, "From")
            XCTAssertEqual((e as? MailReadError)?.line, 1)
            XCTAssertTrue("\(e)".contains("no mail address in 'nobody here'"), "\(e)")
        }
        XCTAssertThrowsError(try read("To: a@example.org\nthis line is broken\nFrom: b@example.org\n\n", strict: true)) { e in
            XCTAssertEqual("\(e)", "line 2: 'this line is broken' is neither a header nor the fold of one")
        }
        XCTAssertThrowsError(try read("To: a@example.org\n\n", strict: true)) { e in
            XCTAssertEqual("\(e)", "From: the message has no From header")
        }
        XCTAssertThrowsError(try read("", strict: true)) { e in XCTAssertEqual("\(e)", "the message is empty") }
        // Read leniently (a mailbox harvested), the broken line is passed over.
        let m = try read("To: a@example.org\nthis line is broken\nFrom: b@example.org\n\n")
        XCTAssertEqual(m.from.map(\.address), ["b@example.org"])
    }

    func testAHugeHeaderIsCutNotRefused() throws {
        let many = (0..<5000).map { "p\($0)@example.org" }.joined(separator: ", ")
        let m = try read("From: x@example.org\nTo: \(many)\n\n")
        XCTAssertEqual(m.to.count, MessageReader.perHeader)
        let long = String(repeating: "a", count: 400) + "@example.org"
        let n = try read("From: \(String(repeating: "N", count: 5000)) <x@example.org>\nTo: \(long), ok@example.org\n\n")
        XCTAssertEqual(n.to.map(\.address), ["ok@example.org"], "no address is that long")
        XCTAssertEqual(n.from.first?.name.count, MessageReader.nameLimit)
    }

    func testAnMboxSeparatorLineIsNoHeader() throws {
        let m = try read("From MAILER-DAEMON Mon Dec  7 10:00:00 2026\nFrom: a@example.org\n\n", strict: true)
        XCTAssertEqual(m.from.map(\.address), ["a@example.org"])
    }
}
