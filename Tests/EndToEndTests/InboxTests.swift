import Foundation
import Glibc
import JSONCore
import JSONRPC
import XCTest

/// The drop folder and import/export, with the real daemon and real inotify.
final class InboxTests: DaemonTestCase {
    var inbox: String { daemon.dataDir + "/inbox" }

    let good = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:urn:uuid:11111111-2222-3333-4444-555555555555\r
        FN:Kate Bell\r
        N:Bell;Kate;;;\r
        item1.TEL:(555) 564-8583\r
        item1.X-ABLabel:_$!<Mobile>!$_\r
        EMAIL;TYPE=INTERNET;TYPE=WORK:kate-bell@mac.com\r
        CATEGORIES:myContacts,Work\r
        X-SOCIALPROFILE;type=twitter:https://twitter.com/kate\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:2.1\r
        N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=85ngstr=C3=B6m;Zo=C3=AB;;;\r
        TEL;CELL;VOICE:+46 8 123 456\r
        END:VCARD\r

        """

    func write(_ name: String, _ text: String, into dir: String? = nil) throws {
        try text.write(toFile: (dir ?? inbox) + "/" + name, atomically: false, encoding: .utf8)
    }

    func waitFor(_ path: String, timeout: Double = 60) -> Bool { waitForFile(path, timeout: timeout) }

    func testAFileWrittenIntoTheInboxIsImportedAndMovedToImported() throws {
        let subscriber = try daemon.client()
        _ = try subscriber.call("events.subscribe")
        try write("people.vcf", good)
        XCTAssertTrue(waitFor(inbox + "/imported/people.vcf"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: inbox + "/people.vcf"))
        var processed: JSONValue?
        while processed == nil {
            let m = try subscriber.readMessage()
            if m["method"] == "inbox.processed" { processed = m["params"] }
        }
        XCTAssertEqual(processed?["file"], "people.vcf")
        XCTAssertEqual(processed?["report"]?["created"], 2)
        let c = try daemon.client()
        let kate = try c.call("contacts.query", ["text": "kate"])["contacts"]?.arrayValue?.first
        XCTAssertEqual(kate?["phones"]?.arrayValue?.first?["label"], "mobile")
        XCTAssertEqual(kate?["emails"]?.arrayValue?.first?["label"], "work")
        XCTAssertEqual(kate?["groups"], ["Work"], "myContacts is Google's system label, not a group")
        let zoe = try c.call("contacts.query", ["text": "zoe"])["contacts"]?.arrayValue?.first
        XCTAssertEqual(zoe?["name"], "Zoë Ångström", "the name comes from N when FN is missing")
        XCTAssertEqual(zoe?["phones"]?.arrayValue?.first?["label"], "mobile")
    }

    func testALargeFilesNumbersAreReadRightAfterItsImport() throws {
        daemon.stop()
        try daemon.start(extraEnvironment: ["LC_TELEPHONE": "de_DE.UTF-8"])
        var text = ""
        for i in 0..<1500 {
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nTEL;TYPE=CELL:0171 555\(String(format: "%04d", i))\r\nEND:VCARD\r\n"
        }
        try write("many.vcf", text)
        XCTAssertTrue(waitFor(inbox + "/imported/many.vcf"))
        let client = try daemon.client()
        var waiting = -1
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            waiting = try client.call("daemon.status")["phonesAwaitingNumbers"]?.intValue ?? -1
            if waiting == 0 { break }
            usleep(50_000)
        }
        XCTAssertEqual(waiting, 0, "every number read within 30 s")
        let who = try daemon.ctl("who", "--json", "+49 171 5551234")
        XCTAssertEqual(who.status, 0, who.stderr)
        XCTAssertTrue(who.stdout.contains("Person 1234"), who.stdout)
        XCTAssertTrue(who.stdout.contains("\"e164\":\"+491715551234\""), who.stdout)
        XCTAssertTrue(who.stdout.contains("\"match\":\"exact\""), who.stdout)
    }

    func testAFileMovedInIsImportedAndIgnoredEntriesAreLeftAlone() throws {
        let outside = daemon.home + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try write("moved.vcf", good, into: outside)
        try write(".hidden.vcf", good)
        try write("download.vcf.part", good)
        try write("notes.txt", "hello")
        try FileManager.default.createSymbolicLink(atPath: inbox + "/link.vcf", withDestinationPath: outside + "/moved.vcf")
        XCTAssertEqual(rename(outside + "/moved.vcf", inbox + "/moved.vcf"), 0)
        XCTAssertTrue(waitFor(inbox + "/imported/moved.vcf"))
        usleep(300_000)
        for left in [".hidden.vcf", "download.vcf.part", "notes.txt", "link.vcf"] {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: inbox + "/" + left)
                    || (try? FileManager.default.destinationOfSymbolicLink(atPath: inbox + "/" + left)) != nil, left)
        }
        XCTAssertEqual(try daemon.client().call("daemon.status")["contacts"], 2)
    }

    func testBadCardsGoToFailedWithAReportNamingCardLineAndReason() throws {
        let text = good + "BEGIN:VCARD\r\nVERSION:3.0\r\nNOTE:no name here\r\nEND:VCARD\r\n"
        try write("mixed.vcf", text)
        XCTAssertTrue(waitFor(inbox + "/failed/mixed.vcf.error.txt"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: inbox + "/failed/mixed.vcf"))
        let report = try String(contentsOfFile: inbox + "/failed/mixed.vcf.error.txt", encoding: .utf8)
        XCTAssertTrue(report.contains("card 3, line 17: the card has no name"), report)
        XCTAssertTrue(report.contains("2 created"), report)
        XCTAssertEqual(try daemon.client().call("daemon.status")["contacts"], 2, "the good cards were imported")
    }

    func testALargeFileReadInPiecesReportsCardsAndLinesOfTheWholeFile() throws {
        // About 1 MiB: read in several pieces, each parsed while the one before is stored.
        var text = ""
        let pad = String(repeating: "x", count: 80)
        for i in 0..<7000 {
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u-\(i)\r\nFN:Person \(i)\r\nNOTE:\(pad)\r\nEND:VCARD\r\n"
            if i == 4999 { text += "a stray line\r\n" }  // line 30001
        }
        text += "BEGIN:VCARD\r\nVERSION:3.0\r\nNOTE:no name here\r\nEND:VCARD\r\n"  // card 7001, line 42002
        text += "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:Last two\r\nMEMBER:u-6998\r\nMEMBER:u-6999\r\nEND:VCARD\r\n"
        XCTAssertGreaterThan(text.utf8.count, 1 << 20)
        try write("large.vcf", text)
        XCTAssertTrue(waitFor(inbox + "/failed/large.vcf.error.txt"))
        let report = try String(contentsOfFile: inbox + "/failed/large.vcf.error.txt", encoding: .utf8)
        XCTAssertTrue(report.contains("7000 created, 0 updated, 0 unchanged, 1 failed"), report)
        XCTAssertTrue(report.contains("card 7001, line 42002: the card has no name"), report)
        XCTAssertTrue(report.contains("line 30001:"), report)
        let c = try daemon.client()
        XCTAssertEqual(try c.call("daemon.status")["contacts"], 7000)
        let group = try c.call("contacts.query", ["text": "person 6999"])["contacts"]?.arrayValue?.first?["groups"]
        XCTAssertEqual(group, ["Last two"])
        XCTAssertEqual(try c.call("contacts.query", ["text": "person 3500"])["contacts"]?.arrayValue?.first?["uid"], "u-3500")
    }

    func testAnEmptyFileFailsWithAReport() throws {
        try write("empty.vcf", "")
        XCTAssertTrue(waitFor(inbox + "/failed/empty.vcf.error.txt"))
        let report = try String(contentsOfFile: inbox + "/failed/empty.vcf.error.txt", encoding: .utf8)
        XCTAssertTrue(report.contains("the file is empty"), report)
    }

    func testFilesAlreadyThereAreImportedAtStartAndImportingTwiceChangesNothing() throws {
        daemon.stop()
        try write("waiting.vcf", good)
        try daemon.start()
        XCTAssertTrue(waitFor(inbox + "/imported/waiting.vcf"))
        try write("waiting.vcf", good)
        XCTAssertTrue(waitFor(inbox + "/imported/waiting (2).vcf"))
        XCTAssertEqual(try daemon.client().call("daemon.status")["contacts"], 2)
    }

    func testExportThenImportReportsEverythingUnchangedAndVobjectReadsTheExports() throws {
        let c = try daemon.client()
        let first = try c.call("contacts.import", ["vcard": .string(good)])
        XCTAssertEqual(first["created"], 2)
        _ = try c.call(
            "contacts.create",
            ["contact": ["name": "Anna Haro", "phones": [["value": "555-522-8243", "label": "Grandma's"]], "favorite": true]])
        for format in ["vcard3", "vcard4", "json"] {
            let exported = try c.call("contacts.export", ["format": .string(format)])
            XCTAssertEqual(exported["count"], 3)
            let data = try XCTUnwrap(exported["data"]?.stringValue)
            let again: JSONValue
            if format == "json" {
                again = try c.call("contacts.import", ["json": try JSONParser.parse(data)])
            } else {
                again = try c.call("contacts.import", ["vcard": .string(data)])
                XCTAssertTrue(data.contains("X-SOCIALPROFILE"), "unknown properties go back out")
                let file = daemon.home + "/export-\(format).vcf"
                try data.write(toFile: file, atomically: true, encoding: .utf8)
                let script = "import vobject,sys\nprint(len([c.fn.value for c in vobject.readComponents(open(sys.argv[1]).read())]))"
                let r = try runProgram("/usr/bin/env", ["python3", "-c", script, file], environment: daemon.environment)
                XCTAssertEqual(
                    r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "3", "vobject reads the \(format) export: \(r.stderr)")
            }
            XCTAssertEqual(again["unchanged"], 3, "\(format): \(again)")
            XCTAssertEqual(again["created"], 0)
        }
        let anna = try c.call("contacts.query", ["text": "anna"])["contacts"]?.arrayValue?.first
        XCTAssertEqual(anna?["phones"]?.arrayValue?.first?["label"], "Grandma's", "a custom label survives the round trip")
        XCTAssertEqual(anna?["favorite"], true)
    }

    func testEditsThroughTheAPIShowInTheExportAndKeepTheRest() throws {
        let c = try daemon.client()
        _ = try c.call("contacts.import", ["vcard": .string(good)])
        let kate = try XCTUnwrap(try c.call("contacts.query", ["text": "kate"])["contacts"]?.arrayValue?.first)
        _ = try c.call("contacts.update", ["id": kate["id"] ?? .null, "changes": ["title": "Producer", "phones": ["555-000-1111"]]])
        let card = try XCTUnwrap(try c.call("contacts.export", ["format": "vcard4", "ids": [kate["id"] ?? .null]])["data"]?.stringValue)
        XCTAssertTrue(card.contains("TITLE:Producer"), card)
        XCTAssertTrue(card.contains("TEL:555-000-1111"), card)
        XCTAssertFalse(card.contains("564-8583"), card)
        XCTAssertFalse(card.contains("_$!<Mobile>!$_"), "the old phone's label went with it: \(card)")
        XCTAssertTrue(card.contains("X-SOCIALPROFILE"), card)
        XCTAssertTrue(card.contains("UID:urn:uuid:11111111-2222-3333-4444-555555555555"), card)
    }

    func testAFileWithGroupCardsIsOneChangeWithItsContacts() throws {
        let subscriber = try daemon.client()
        _ = try subscriber.call("events.subscribe")
        let band = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            KIND:group\r
            FN:Band\r
            MEMBER:urn:uuid:11111111-2222-3333-4444-555555555555\r
            END:VCARD\r

            """
        try write("band.vcf", band + good)
        var events: [String] = []
        var processed: JSONValue?
        while processed == nil {
            let m = try subscriber.readMessage()
            guard let method = m["method"]?.stringValue else { continue }
            if method == "inbox.processed" { processed = m["params"] } else { events.append(method) }
            if method == "contacts.changed" {
                XCTAssertEqual(m["params"]?["origin"], "import:band.vcf", "a change says what made it")
                XCTAssertNotNil(m["params"]?["operation"]?.intValue)
            }
        }
        XCTAssertEqual(processed?["report"]?["created"], 2)
        XCTAssertEqual(processed?["report"]?["groups"], 1)
        XCTAssertEqual(events.filter { $0 == "contacts.changed" }.count, 1, "\(events)")
        XCTAssertEqual(events.filter { $0 == "groups.changed" }.count, 1, "\(events)")
        let kate = try daemon.client().call("contacts.query", ["text": "kate"])["contacts"]?.arrayValue?.first
        XCTAssertEqual(kate?["groups"], ["Band", "Work"])
    }

    func testADroppedFileIsUndoneAsOneOperationThroughContactsctl() throws {
        _ = try daemon.client().call("contacts.create", ["contact": ["name": "Someone Else"]])
        try write("people.vcf", good)
        XCTAssertTrue(waitFor(inbox + "/imported/people.vcf"))
        let changes = try daemon.ctl("changes")
        XCTAssertEqual(changes.status, 0, changes.stderr)
        XCTAssertTrue(
            changes.stdout.split(separator: "\n").dropFirst().first?.contains("import:people.vcf  2 contacts created") ?? false,
            changes.stdout)
        let undo = try daemon.ctl("undo")
        XCTAssertEqual(undo.status, 0, undo.stderr)
        XCTAssertTrue(undo.stdout.contains("import:people.vcf"), undo.stdout)
        let c = try daemon.client()
        XCTAssertEqual(try c.call("contacts.query", [:])["contacts"]?.arrayValue?.compactMap { $0["name"]?.stringValue }, ["Someone Else"])
        XCTAssertEqual(try c.call("contacts.trash", [:])["total"], 2, "the file's contacts are in the trash")
        // Back again, a later edit of one of them makes an undo of the import refuse, unless forced.
        let again = try daemon.ctl("redo")
        XCTAssertEqual(again.status, 0, "the undo undone: they are back: \(again.stderr)")
        XCTAssertTrue(again.stdout.contains("Redid operation") && again.stdout.contains("import:people.vcf"), again.stdout)
        _ = try daemon.ctl("edit", "kate", "--title", "Producer")
        let importOp = try XCTUnwrap(
            try c.call("changes.list", [:])["operations"]?.arrayValue?.first { $0["origin"] == "import:people.vcf" }?["id"]?.intValue)
        let refused = try daemon.ctl("undo", String(importOp))
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("later change"), refused.stderr)
        XCTAssertEqual(try daemon.ctl("undo", String(importOp), "--force").status, 0)
        XCTAssertEqual(try c.call("contacts.query", [:])["total"], 1)
    }

    func testImportsThroughTheAPIAreLoggedAsTheDropFoldersAre() throws {
        daemon.stop()
        try daemon.start(extraArgs: ["--log-level", "debug"])
        _ = try daemon.client().call("contacts.import", ["vcard": .string(good)])
        XCTAssertTrue(daemon.log.contains("import of 2 cards in 1 pieces"), daemon.log)
    }

    func testPropertyAndParameterNamesLeaveSpelledAsTheyCame() throws {
        let c = try daemon.client()
        _ = try c.call("contacts.import", ["vcard": .string(good)])
        let kate = try XCTUnwrap(try c.call("contacts.query", ["text": "kate"])["contacts"]?.arrayValue?.first)
        for format in ["vcard3", "vcard4"] {
            let card = try XCTUnwrap(
                try c.call("contacts.export", ["format": .string(format), "ids": [kate["id"] ?? .null]])["data"]?.stringValue)
            XCTAssertTrue(card.contains("\r\nitem1.X-ABLabel:_$!<Mobile>!$_\r\n"), card)
            XCTAssertTrue(card.contains("\r\nX-SOCIALPROFILE;type=twitter:https://twitter.com/kate\r\n"), card)
            XCTAssertFalse(card.contains("X-ABLABEL"), card)
        }
    }

    func testContactsctlImportsAndExports() throws {
        let file = daemon.home + "/people.vcf"
        try good.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try daemon.ctl("import", file)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("2 created"), r.stdout)
        let bad = daemon.home + "/bad.vcf"
        try "BEGIN:VCARD\nVERSION:3.0\nNOTE:x\nEND:VCARD\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let failed = try daemon.ctl("import", bad)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.contains("card 1, line 1: the card has no name"), failed.stdout)
        let out = daemon.home + "/out.vcf"
        XCTAssertEqual(try daemon.ctl("export", "--format", "vcard3", "--output", out).status, 0)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "BEGIN:VCARD").count - 1, 2)
        XCTAssertTrue(text.contains("VERSION:3.0\r\n"))
        let piped = try daemon.ctl("export", "--query", "kate", "--format", "json")
        XCTAssertEqual(try JSONParser.parse(piped.stdout).arrayValue?.count, 1)
        let stdinImport = try daemon.ctl("import", "-", stdin: good)
        XCTAssertTrue(stdinImport.stdout.contains("2 unchanged"), stdinImport.stdout)
    }
}
