import Foundation
import JSONCore
import TestSupport
import XCTest

/// Duplicates through the real contactsd and contactsctl: listed, merged without a value
/// lost, exported and imported unchanged, undone, dismissed, merged by themselves when
/// identical; and a merge of synced contacts carried to a real Radicale by the next sync.
final class DuplicateTests: FixtureTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        // National and international forms of one number compare as one in this region.
        try daemon.start(extraEnvironment: ["LC_TELEPHONE": "de_DE.UTF-8"])
    }

    func json(_ args: String...) throws -> JSONValue { try json(args) }

    func json(_ args: [String]) throws -> JSONValue {
        let r = try runProgram(try Products.path("contactsctl"), ["--json"] + args, environment: daemon.environment)
        XCTAssertEqual(r.status, 0, "contactsctl \(args.joined(separator: " ")): \(r.stderr)")
        return try JSONParser.parse(r.stdout)
    }

    func group(containing name: String, in result: JSONValue) -> JSONValue? {
        result["groups"]?.arrayValue?.first { g in (g["names"]?.arrayValue ?? []).contains(.string(name)) }
    }

    func strings(_ v: JSONValue?) -> [String] { (v?.arrayValue ?? []).compactMap(\.stringValue) }

    func testDuplicatesAreListedMergedExportedAndUndoneFromTheCommandLine() throws {
        let imported = try daemon.ctl("import", "-", stdin: DuplicateCorpus.cards)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try json("list")["total"], 11)

        // The table: the three Annas with what they share; look-alikes only when asked.
        let table = try daemon.ctl("duplicates")
        XCTAssertEqual(table.status, 0, table.stderr)
        for text in [
            "SCORE", "Anna Schmidt", "Anna Maria Schmidt", "Schmidt Anna", "email anna@example.com", "phone +491715550199", "0.96",
        ] {
            XCTAssertTrue(table.stdout.contains(text), "\(text) in:\n\(table.stdout)")
        }
        XCTAssertFalse(table.stdout.contains("Maria Garcia"), table.stdout)
        XCTAssertTrue(try daemon.ctl("duplicates", "--min-score", "0.3").stdout.contains("Maria Garcia"))
        XCTAssertEqual(try daemon.ctl("duplicates", "--min-score", "2").status, 64)

        let found = try json("duplicates")
        let anna = try XCTUnwrap(group(containing: "Anna Schmidt", in: found))
        let annaIDs = strings(anna["ids"])
        XCTAssertEqual(annaIDs.count, 3)
        XCTAssertEqual(strings(anna["reasons"]), ["email anna@example.com", "phone +491715550199", "name"])
        XCTAssertEqual(anna["identical"], false)
        XCTAssertEqual(strings(try json("duplicates", "--limit", "1")["groups"]?.arrayValue?.first?["ids"]), annaIDs, "best first")

        // A dry run shows the merged contact and changes nothing.
        let dry = try daemon.ctl(["merge", "--dry-run"] + annaIDs)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("nothing was changed") && dry.stdout.contains("Met at the conference"), dry.stdout)
        XCTAssertEqual(try json("list")["total"], 11)

        // The merge: every value of every card, once.
        let merged = try json(["merge"] + annaIDs)
        let phones = (merged["phones"]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue }
        XCTAssertEqual(phones.count, 1, "one number in three forms: \(phones)")
        XCTAssertEqual(
            (merged["emails"]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue }, ["Anna@Example.com"], "the kept card's, once")
        XCTAssertEqual(merged["birthday"], "1985-03-04")
        let note = merged["note"]?.stringValue ?? ""
        for text in ["Met at the conference", "Birthday: 1985-04-03", "Name: Schmidt Anna", "Name: Anna Schmidt"] {
            XCTAssertTrue(note.contains(text), "\(text) in the note: \(note)")
        }
        XCTAssertEqual(strings(merged["groups"]), ["Friends"])
        XCTAssertEqual(try json("list")["total"], 9)
        let trash = try json("trash")
        XCTAssertEqual((trash["contacts"]?.arrayValue ?? []).compactMap { $0["origin"]?.stringValue }, ["merge", "merge"])

        // Exported and imported again: unchanged, and the Apple card's profile came along.
        let id = try XCTUnwrap(merged["id"]?.stringValue)
        let exported = try daemon.ctl("export", id)
        XCTAssertTrue(exported.stdout.contains("X-SOCIALPROFILE:https://social.example/anna"), exported.stdout)
        XCTAssertTrue(exported.stdout.contains("X-ABLabel:Mastodon"), exported.stdout)
        let again = try runProgram(
            try Products.path("contactsctl"), ["--json", "import", "-"], environment: daemon.environment, stdin: exported.stdout)
        XCTAssertEqual(try JSONParser.parse(again.stdout).arrayValue?.first?["report"]?["unchanged"], 1, again.stdout + again.stderr)

        // Undone as one operation: the three Annas as they were.
        let undo = try daemon.ctl("undo")
        XCTAssertEqual(undo.status, 0, undo.stderr)
        XCTAssertTrue(undo.stdout.contains("merge"), undo.stdout)
        XCTAssertEqual(try json("list")["total"], 11)
        XCTAssertEqual(try json("show", id)["note"], "Met at the conference")
        XCTAssertEqual(strings(group(containing: "Anna Schmidt", in: try json("duplicates"))?["ids"]).count, 3)

        // José twice is two people, said once: not proposed again.
        let jose = try XCTUnwrap(group(containing: "José Núñez", in: found))
        let dismissed = try daemon.ctl(["not-duplicates"] + strings(jose["ids"]))
        XCTAssertTrue(dismissed.stdout.contains("different people"), dismissed.stdout + dismissed.stderr)
        XCTAssertNil(group(containing: "José Núñez", in: try json("duplicates")))

        // Usage errors are told, not guessed at.
        XCTAssertEqual(try daemon.ctl("merge", annaIDs[0]).status, 64)
        XCTAssertEqual(try daemon.ctl("merge", "--auto", annaIDs[0]).status, 64)
        XCTAssertEqual(try daemon.ctl("not-duplicates", annaIDs[0]).status, 64)
        let unknown = try daemon.ctl("merge", annaIDs[0], "00000000-0000-0000-0000-000000000000")
        XCTAssertEqual(unknown.status, 1, unknown.stdout)
    }

    func testIdenticalCopiesAreMergedByThemselvesAndOthersAreLeft() throws {
        let copies = """
            BEGIN:VCARD\nVERSION:3.0\nFN:Bo Lind\nEMAIL:bo@example.org\nTEL:030 1234567\nEND:VCARD
            BEGIN:VCARD\nVERSION:4.0\nFN:Bo Lind\nEMAIL:BO@example.org\nTEL:+49 30 1234567\nCATEGORIES:Chess\nEND:VCARD
            BEGIN:VCARD\nVERSION:3.0\nFN:Kim Berg\nEMAIL:kim@example.org\nEND:VCARD
            BEGIN:VCARD\nVERSION:3.0\nFN:Kim Berg\nEMAIL:kim@example.org\nNOTE:met in Oslo\nEND:VCARD

            """
        XCTAssertEqual(try daemon.ctl("import", "-", stdin: copies).status, 0)
        let found = try json("duplicates")
        XCTAssertEqual(group(containing: "Bo Lind", in: found)?["identical"], true)
        XCTAssertEqual(group(containing: "Kim Berg", in: found)?["identical"], false, "a note only one has")
        let dry = try daemon.ctl("merge", "--auto", "--dry-run")
        XCTAssertTrue(dry.stdout.contains("Would merge 2 copies of Bo Lind"), dry.stdout + dry.stderr)
        XCTAssertFalse(dry.stdout.contains("Kim Berg"), dry.stdout)
        XCTAssertEqual(try json("list")["total"], 4)
        let auto = try json("merge", "--auto")
        XCTAssertEqual(auto["merged"]?.arrayValue?.count, 1)
        XCTAssertEqual(strings(auto["merged"]?.arrayValue?.first?["groups"]), ["Chess"])
        XCTAssertEqual(try json("list")["total"], 3)
        XCTAssertTrue(try daemon.ctl("merge", "--auto").stdout.contains("No identical duplicates"))
    }

    func testAMergeOfSyncedContactsUploadsTheMergedCardAndDeletesTheOther() throws {
        let server = try DAVServer(.radicale)
        defer { server.stop() }
        try server.put(
            "anna-phone.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:anna-phone\r\nFN:Anna Haro\r\nTEL:0171 5550199\r\nBDAY:1985-03-04\r\nEND:VCARD\r\n")
        try server.put(
            "anna-google.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:anna-google\r\nFN:Anna Haro\r\nTEL:+49 171 5550199\r\nEMAIL:anna@example.com\r\nNOTE:from Google\r\nEND:VCARD\r\n"
        )
        let added = try daemon.ctl(
            "account", "add", "home", server.root.absoluteString, "--user", "kate", "--password-command", "printf 'secret'")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(try daemon.ctl("sync", "home").status, 0)
        let anna = try XCTUnwrap(group(containing: "Anna Haro", in: try json("duplicates")))
        let merged = try json(["merge"] + strings(anna["ids"]))
        XCTAssertEqual(merged["uid"], "anna-google", "the most complete one stays")
        let sync = try daemon.ctl("sync", "home")
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertTrue(sync.stdout.contains("out 0 new, 1 changed, 1 deleted"), sync.stdout)
        XCTAssertEqual(try server.request("GET", server.addressBook.appendingPathComponent("anna-phone.vcf")).status, 404)
        let kept = String(
            decoding: try server.request("GET", server.addressBook.appendingPathComponent("anna-google.vcf")).body, as: UTF8.self)
        for text in ["anna@example.com", "from Google", "BDAY:1985-03-04"] { XCTAssertTrue(kept.contains(text), "\(text) in:\n\(kept)") }
        // Another sync finds nothing left to do: the merge is the server's state too.
        XCTAssertTrue(try daemon.ctl("sync", "home").stdout.contains("out 0 new, 0 changed, 0 deleted"))
    }
}
