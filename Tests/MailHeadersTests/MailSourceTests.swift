import Foundation
import MailHeaders
import XCTest

@testable import MailFiles

final class MailSourceTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "mailsource-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func write(_ path: String, _ text: String) throws {
        let full = dir + "/" + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: false, encoding: .utf8)
    }

    func testMaildirsTheirFoldersAndMboxFilesAreWalkedButNotTmp() throws {
        try write("Mail/Inbox/cur/1:2,S", "From: a@example.org\n\nbody\n")
        try write("Mail/Inbox/new/2", "From: b@example.org\n\n")
        try write("Mail/Inbox/tmp/3", "From: c@example.org\n\n")
        try write("Mail/Inbox/.Sent/cur/4", "From: d@example.org\n\n")
        try write("Mail/Archive/cur/5", "From: e@example.org\n\n")
        try write(
            "Mail/old.mbox",
            "From x Mon Dec  7 10:00:00 2026\nFrom: f@example.org\n\nFrom me, hello\n\nFrom y Mon Dec  7 10:00:00 2026\nFrom: g@example.org\n\nbye\n"
        )
        let files = try MailSource.files(under: [dir + "/Mail"])
        var froms: [String] = []
        for f in files {
            try MailSource.headers(of: f) { header, _ in
                froms += (try? MessageReader.message(header, strict: false).from.map(\.address)) ?? []
            }
        }
        XCTAssertEqual(Set(froms), ["a@example.org", "b@example.org", "d@example.org", "e@example.org", "f@example.org", "g@example.org"])
        XCTAssertEqual(files.filter(\.isMbox).count, 1)
        XCTAssertThrowsError(try MailSource.files(under: [dir + "/none"])) { e in XCTAssertTrue("\(e)".contains("No such file")) }
        // What a watcher watches: the same maildirs, the Maildir++ one inside Inbox too.
        XCTAssertEqual(
            Set(MailSource.maildirs(under: dir + "/Mail")), [dir + "/Mail/Inbox", dir + "/Mail/Inbox/.Sent", dir + "/Mail/Archive"])
        try write("Mail/.hidden/cur/6", "From: h@example.org\n\n")
        XCTAssertFalse(MailSource.maildirs(under: dir + "/Mail").contains(dir + "/Mail/.hidden"), "a hidden folder outside a maildir")
    }

    func testOnlyTheHeaderOfALargeMessageIsRead() throws {
        try write("big", "From: a@example.org\r\nTo: b@example.org\r\n\r\n" + String(repeating: "x", count: 3 << 20))
        let header = try MailSource.header(ofFileAt: dir + "/big")
        XCTAssertLessThan(header.count, 64 << 10)
        XCTAssertEqual(try MessageReader.message(header, strict: true).to.map(\.address), ["b@example.org"])
    }
}
