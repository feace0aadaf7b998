import Foundation
import JSONCore
import TestSupport
import XCTest

/// A vdir account kept in two-way sync with the real khard: contacts added, edited and
/// deleted on either side reach the other, through inotify within a moment; files that are
/// not one vCard are reported and left as they are.
final class VdirTests: DaemonTestCase {
    var vdir: String { daemon.home + "/contacts" }

    /// Runs khard with a configuration of its own whose one address book is the vdir.
    func khard(_ args: String..., stdin: String? = nil) throws -> ProcessResult {
        let config = daemon.home + "/khard.conf"
        if !FileManager.default.fileExists(atPath: config) {
            try """
            [addressbooks]
            [[contacts]]
            path = \(vdir)
            [general]
            default_action = list
            editor = /bin/true
            merge_editor = /bin/true
            [contact table]
            display = formatted_name
            show_uids = yes
            [vcard]
            preferred_version = 3.0

            """.write(toFile: config, atomically: true, encoding: .utf8)
        }
        let program = DAVServer.venv.appendingPathComponent("bin/khard").path
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw XCTSkip("khard is not installed in .venv (scripts/install-deps.sh installs it)")
        }
        return try runProgram(program, ["-c", config] + args, environment: daemon.environment, stdin: stdin)
    }

    func waitUntil(_ timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            if try condition() { return Date().timeIntervalSince(start) }
            usleep(50_000)
        }
        return nil
    }

    func names() throws -> [String] {
        let list = try JSONParser.parse(try daemon.ctl("--json", "list").stdout)
        return (list["contacts"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    func template(_ name: (given: String, family: String), _ extra: String = "") throws -> String {
        let path = daemon.home + "/\(name.given).yaml"
        try "First name : \(name.given)\nLast name : \(name.family)\n\(extra)".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testKhardAndContactsctlSeeEachOthersChanges() throws {
        let added = try daemon.ctl("account", "add", "khard", "--vdir", vdir)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: vdir), "the directory is made")

        // The account's first sync (a second after it was added) is over: from here on, what
        // brings a change is the watch.
        XCTAssertNotNil(
            try waitUntil {
                try JSONParser.parse(try daemon.ctl("--json", "sync", "status").stdout)["accounts"]?.arrayValue?.first?["lastSuccess"]
                    != .null
            },
            "the first sync ran")
        // khard adds a contact: it is in the store a moment later, with nothing asked.
        let new = try khard(
            "new", "-a", "contacts", "-i",
            try template(("Anna", "Haro"), "Phone :\n    cell : 0171 5550199\nEmail :\n    home : anna@example.com\n"))
        XCTAssertEqual(new.status, 0, new.stderr)
        let arrived = try waitUntil { try names().contains("Anna Haro") }
        let status = try daemon.ctl("sync", "status").stdout
        XCTAssertNotNil(arrived, "khard's contact reached the store: \(daemon.log)\n\(status)")
        XCTAssertLessThan(arrived ?? 99, 2.5)
        let anna = try JSONParser.parse(try daemon.ctl("--json", "show", "anna").stdout)
        XCTAssertEqual(anna["phones"]?.arrayValue?.first?["label"], "mobile")

        // contactsctl adds one to the account: khard lists it, and mutt's query finds it.
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell", "--email", "work:kate@example.com", "--account", "khard").status, 0)
        XCTAssertNotNil(try waitUntil { try khard("list").stdout.contains("Kate Bell") }, "khard sees Kate")
        let query = try khard("email", "--parsable", "kate")
        XCTAssertTrue(query.stdout.contains("kate@example.com\tKate Bell"), query.stdout)
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".vcf") }
        XCTAssertEqual(files.count, 2)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: vdir).contains { $0.contains(".tmp") }, "no temporary left")

        // Edits on each side.
        let edit = try khard(
            "edit", "-i",
            try template(("Anna", "Haro"), "Organisation : Acme\nPhone :\n    cell : 0171 5550199\nEmail :\n    home : anna@example.com\n"),
            "anna", stdin: "yes\n")
        XCTAssertEqual(edit.status, 0, edit.stderr + edit.stdout)
        XCTAssertNotNil(
            try waitUntil { try JSONParser.parse(try daemon.ctl("--json", "show", "anna").stdout)["organization"] == "Acme" },
            "khard's edit arrived")
        XCTAssertEqual(try daemon.ctl("edit", "kate", "--title", "Producer").status, 0)
        XCTAssertNotNil(try waitUntil { try khard("show", "kate").stdout.contains("Producer") }, "contactsctl's edit reached the file")

        // Deletions on each side.
        XCTAssertEqual(try khard("remove", "--force", "anna").status, 0)
        XCTAssertNotNil(try waitUntil { try !names().contains("Anna Haro") }, "khard's deletion arrived")
        XCTAssertTrue(try JSONParser.parse(try daemon.ctl("--json", "trash").stdout)["contacts"]?.arrayValue?.count == 1, "in the trash")
        XCTAssertEqual(try daemon.ctl("rm", "kate").status, 0)
        XCTAssertNotNil(try waitUntil { try !khard("list").stdout.contains("Kate Bell") }, "contactsctl's deletion removed the file")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".vcf") }, [])
    }

    func testTwoAccountsCannotShareOneVdir() throws {
        XCTAssertEqual(try daemon.ctl("account", "add", "khard", "--vdir", vdir).status, 0)
        let link = daemon.home + "/contacts-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: vdir)
        for other in [vdir + "/", link, daemon.home + "/./contacts"] {
            let r = try daemon.ctl("account", "add", "second", "--vdir", other)
            XCTAssertEqual(r.status, 1, other)
            XCTAssertTrue(r.stderr.contains("is already the account 'khard'"), r.stderr)
        }
        XCTAssertEqual(try daemon.ctl("account", "add", "second", "--vdir", daemon.home + "/other").status, 0)
    }

    func testFilesThatAreNotOneCardAreReportedAndLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let two =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:a\r\nFN:One\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nUID:b\r\nFN:Two\r\nEND:VCARD\r\n"
        try two.write(toFile: vdir + "/two.vcf", atomically: true, encoding: .utf8)
        try "not a card\n".write(toFile: vdir + "/notes.vcf", atomically: true, encoding: .utf8)
        try "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bo\r\nFN:Bo Lind\r\nEND:VCARD\r\n".write(
            toFile: vdir + "/bo.vcf", atomically: true, encoding: .utf8)
        XCTAssertEqual(try daemon.ctl("account", "add", "files", "--vdir", vdir).status, 0)
        let sync = try daemon.ctl("--json", "sync", "files")
        let report = try JSONParser.parse(sync.stdout)
        XCTAssertEqual(report["downloaded"]?["created"], 1, sync.stdout)
        let errors = (report["errors"]?.arrayValue ?? []).compactMap { $0["message"]?.stringValue }
        XCTAssertEqual(errors, ["notes.vcf is not a vCard: left as it is", "two.vcf holds 2 vCards, not one: left as it is"])
        XCTAssertEqual(try names(), ["Bo Lind"])
        // Edited here, Bo's file is rewritten; the others never are.
        XCTAssertEqual(try daemon.ctl("edit", "bo", "--title", "Skipper").status, 0)
        XCTAssertEqual(try daemon.ctl("sync", "files").status, 0)
        XCTAssertTrue(try String(contentsOfFile: vdir + "/bo.vcf", encoding: .utf8).contains("TITLE:Skipper"))
        XCTAssertEqual(try String(contentsOfFile: vdir + "/two.vcf", encoding: .utf8), two)
        XCTAssertEqual(try String(contentsOfFile: vdir + "/notes.vcf", encoding: .utf8), "not a card\n")
    }

    func testWhatChangedWhileTheDaemonWasStoppedIsFoundAtStart() throws {
        XCTAssertEqual(try daemon.ctl("account", "add", "khard", "--vdir", vdir).status, 0)
        XCTAssertEqual(daemon.stop(), 0)
        XCTAssertEqual(try khard("new", "-a", "contacts", "-i", try template(("Zoë", "Ångström"))).status, 0)
        try daemon.start()
        XCTAssertNotNil(try waitUntil(15) { try names().contains("Zoë Ångström") }, "found by the listing at start")
    }
}
