import Foundation
import JSONCore
import XCTest

/// The built contactsctl against a real contactsd.
final class CLITests: DaemonTestCase {
    func json(_ r: ProcessResult) throws -> JSONValue {
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONParser.parse(r.stdout)
    }

    func loadSamples() throws {
        let script = Products.repository.appendingPathComponent("examples/sample-contacts.sh").path
        let r = try runProgram("/bin/bash", [script, try Products.path("contactsctl")], environment: daemon.environment)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testTheSamplePeopleLoadAndList() throws {
        try loadSamples()
        let list = try daemon.ctl("list")
        XCTAssertEqual(list.status, 0)
        let lines = list.stdout.split(separator: "\n").map(String.init)
        guard lines.count == 4 else { return XCTFail("expected a header and three contacts: \(list.stdout)\(list.stderr)") }
        XCTAssertTrue(lines[0].hasPrefix("NAME"))
        XCTAssertTrue(lines[1].hasPrefix("Anna Haro"))
        XCTAssertTrue(
            lines[2].contains("John Appleseed") && lines[2].contains("John-Appleseed@mac.com") && lines[2].contains("888-555-5512"))
        XCTAssertTrue(lines[3].hasPrefix("Kate Bell"))
        let groups = try json(try daemon.ctl("group", "list", "--json"))
        XCTAssertEqual(groups["groups"]?.arrayValue?.compactMap { $0["name"]?.stringValue }, ["Family", "Friends", "Work"])
    }

    func testTheSampleVCardDroppedInTheInboxGivesTheSamePeople() throws {
        let sample = Products.repository.appendingPathComponent("examples/sample-contacts.vcf").path
        let inbox = daemon.dataDir + "/inbox"
        try FileManager.default.copyItem(atPath: sample, toPath: inbox + "/sample-contacts.vcf")
        XCTAssertTrue(waitForFile(inbox + "/imported/sample-contacts.vcf"))
        let list = try json(try daemon.ctl("list", "--json"))
        XCTAssertEqual(list["contacts"]?.arrayValue?.compactMap { $0["name"]?.stringValue }, ["Anna Haro", "John Appleseed", "Kate Bell"])
        let groups = try json(try daemon.ctl("group", "list", "--json"))
        XCTAssertEqual(groups["groups"]?.arrayValue?.compactMap { $0["name"]?.stringValue }, ["Family", "Friends", "Work"])
        XCTAssertEqual(try json(try daemon.ctl("list", "--favorites", "--json"))["total"], 1)
        XCTAssertEqual(try json(try daemon.ctl("show", "kate", "--json"))["phones"]?.arrayValue?.first?["label"], "mobile")
    }

    func testImportingTheSampleJSONTwiceChangesNothing() throws {
        let sample = Products.repository.appendingPathComponent("examples/sample-contacts.json").path
        XCTAssertTrue(try daemon.ctl("import", sample).stdout.contains("3 created"))
        let again = try daemon.ctl("import", sample)
        XCTAssertTrue(again.stdout.contains("0 created, 0 updated, 3 unchanged"), again.stdout)
        XCTAssertEqual(try json(try daemon.ctl("list", "--json"))["total"], 3)
    }

    func testSearchFindsByPhoneWhateverTheFormattingAndSaysSoWhenNothingMatches() throws {
        try loadSamples()
        let r = try daemon.ctl("search", "5555648583", "--json")
        XCTAssertEqual(try json(r)["contacts"]?.arrayValue?.first?["name"], "Kate Bell")
        let none = try daemon.ctl("search", "nobody-at-all")
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stdout, "")
        XCTAssertEqual(try json(try daemon.ctl("list", "--favorites", "--json"))["total"], 1)
        XCTAssertEqual(try json(try daemon.ctl("list", "--group", "work", "--json"))["contacts"]?.arrayValue?.first?["name"], "Kate Bell")
    }

    func testANameFragmentWorksWhereAnIdIsExpected() throws {
        try loadSamples()
        let shown = try daemon.ctl("show", "kate")
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.hasPrefix("Kate Bell"))
        XCTAssertTrue(shown.stdout.contains("Producer, Creative Consulting"))
        XCTAssertTrue(shown.stdout.contains("(555) 564-8583 (mobile)"))
        let kate = try json(try daemon.ctl("show", "kate", "--json"))
        let byID = try json(try daemon.ctl("show", kate["id"]?.stringValue ?? "", "--json"))
        XCTAssertEqual(byID["name"], "Kate Bell")
        let ambiguous = try daemon.ctl("show", "a")
        XCTAssertEqual(ambiguous.status, 1)
        XCTAssertTrue(ambiguous.stderr.contains("matches 3 contacts"), ambiguous.stderr)
        let missing = try daemon.ctl("show", "zzz")
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no contact matches 'zzz'"))
    }

    func testAddEditFavoriteAndRemove() throws {
        let added = try json(
            try daemon.ctl(
                "add", "Zoë Ångström", "--phone", "mobile:+46 8 123 456", "--email", "zoe@example.se", "--group", "Family", "--json"))
        XCTAssertEqual(added["phones"]?.arrayValue?.first?["label"], "mobile")
        XCTAssertEqual(added["groups"], ["Family"])
        let edited = try json(try daemon.ctl("edit", "zoe", "--title", "Physicist", "--clear", "emails", "--json"))
        XCTAssertEqual(edited["title"], "Physicist")
        XCTAssertEqual(edited["emails"], [])
        XCTAssertEqual(edited["revision"], 2)
        XCTAssertEqual(try json(try daemon.ctl("fav", "angstrom", "--json"))["favorite"], true)
        XCTAssertEqual(try json(try daemon.ctl("unfav", "angstrom", "--json"))["favorite"], false)
        let bad = try daemon.ctl("add", "  ")
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("name"), bad.stderr)
        let rm = try daemon.ctl("rm", "zoe")
        XCTAssertEqual(rm.status, 0, rm.stderr)
        XCTAssertEqual(try json(try daemon.ctl("list", "--json"))["total"], 0)
    }

    func testADeletedContactSurvivesARestartInTheTrashAndComesBack() throws {
        try loadSamples()
        let rm = try daemon.ctl("rm", "kate")
        XCTAssertEqual(rm.status, 0, rm.stderr)
        XCTAssertTrue(rm.stdout.contains("Deleted Kate Bell") && rm.stdout.contains("contactsctl undelete"), rm.stdout)
        daemon.stop()
        try daemon.start()
        let trash = try daemon.ctl("trash")
        XCTAssertEqual(trash.status, 0, trash.stderr)
        XCTAssertTrue(trash.stdout.hasPrefix("NAME") && trash.stdout.contains("Kate Bell"), trash.stdout)
        XCTAssertEqual(try json(try daemon.ctl("trash", "bell", "--json"))["total"], 1)
        XCTAssertEqual(try daemon.ctl("__complete", "trash", "ka").stdout, "Kate Bell\n")
        let back = try daemon.ctl("undelete", "kate")
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertTrue(back.stdout.contains("Restored Kate Bell"), back.stdout)
        let kate = try json(try daemon.ctl("show", "kate", "--json"))
        XCTAssertEqual(kate["groups"], ["Work"], "with the group it had")
        XCTAssertEqual(try daemon.ctl("undelete", "kate").status, 1, "no longer in the trash")
    }

    func testHistoryListsTheChangesAndRevertGoesBack() throws {
        try loadSamples()
        XCTAssertEqual(try daemon.ctl("edit", "kate", "--title", "Director").status, 0)
        let h = try daemon.ctl("history", "kate")
        XCTAssertEqual(h.status, 0, h.stderr)
        let lines = h.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("REV") ?? false, h.stdout)
        XCTAssertTrue(lines.count >= 3 && lines[1].hasPrefix("2") && lines[1].contains("updated") && lines[1].contains("title"), h.stdout)
        let r = try daemon.ctl("revert", "kate", "1")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("revision 1 again"), r.stdout)
        XCTAssertEqual(try json(try daemon.ctl("show", "kate", "--json"))["title"], "Producer")
        XCTAssertEqual(try daemon.ctl("revert", "kate", "x").status, 64)
    }

    func testPurgingAsksFirstAndTheTrashEmpties() throws {
        try loadSamples()
        XCTAssertEqual(try daemon.ctl("delete", "kate").status, 0, "delete is rm")
        XCTAssertEqual(try daemon.ctl("remove", "anna").status, 0, "so is remove")
        let refused = try daemon.ctl("purge", "kate")
        XCTAssertEqual(refused.status, 64, "no terminal to ask at, and no --yes")
        XCTAssertTrue(refused.stderr.contains("--yes"), refused.stderr)
        XCTAssertEqual(try json(try daemon.ctl("purge", "kate", "--yes", "--json"))["purged"], 1)
        XCTAssertEqual(try json(try daemon.ctl("trash", "--json"))["total"], 1)
        let emptied = try daemon.ctl("trash", "empty", "-y")
        XCTAssertEqual(emptied.status, 0, emptied.stderr)
        XCTAssertTrue(emptied.stdout.contains("Purged 1 contact"), emptied.stdout)
        XCTAssertEqual(try daemon.ctl("trash").stdout, "")
        XCTAssertEqual(try daemon.ctl("undelete", "anna").status, 1)
    }

    func testGroupVerbs() throws {
        try loadSamples()
        XCTAssertEqual(try daemon.ctl("group", "add", "Climbing").status, 0)
        XCTAssertEqual(try daemon.ctl("group", "add", "climbing").status, 1, "names are unique regardless of case")
        XCTAssertEqual(try daemon.ctl("group", "assign", "anna", "Climbing").status, 0)
        XCTAssertEqual(try daemon.ctl("group", "assign", "kate", "Climbing").status, 0)
        let members = try daemon.ctl("group", "members", "Climbing")
        XCTAssertEqual(members.stdout.split(separator: "\n").count, 3, members.stdout)
        XCTAssertEqual(try daemon.ctl("group", "unassign", "kate", "Climbing").status, 0)
        XCTAssertEqual(try daemon.ctl("group", "rename", "Climbing", "Bouldering").status, 0)
        XCTAssertEqual(try json(try daemon.ctl("show", "anna", "--json"))["groups"], ["Bouldering", "Friends"])
        XCTAssertEqual(try daemon.ctl("group", "rm", "Bouldering").status, 0)
        XCTAssertEqual(try json(try daemon.ctl("show", "anna", "--json"))["groups"], ["Friends"], "deleting a group keeps its members")
    }

    func testExitStatusesFollowTheContract() throws {
        XCTAssertEqual(try daemon.ctl("frobnicate").status, 64)
        XCTAssertEqual(try daemon.ctl("list", "--bogus").status, 64)
        XCTAssertEqual(try daemon.ctl("search").status, 64)
        let down = try daemon.ctl("--socket", daemon.home + "/run/nothing.sock", "list")
        XCTAssertEqual(down.status, 69)
        XCTAssertTrue(down.stderr.contains(daemon.home + "/run/nothing.sock"), "names the socket: \(down.stderr)")
        XCTAssertEqual(try daemon.ctl("--help").status, 0)
        XCTAssertTrue(try daemon.ctl("group", "--help").stdout.contains("assign"))
    }

    func testCallPassesRawJSONRPCThrough() throws {
        let r = try json(try daemon.ctl("call", "contacts.create", #"{"contact":{"name":"Anna Haro","email":"anna@mac.com"}}"#))
        XCTAssertEqual(r["name"], "Anna Haro")
        let q = try json(try daemon.ctl("call", "contacts.query", "-", stdin: #"{"text":"haro"}"#))
        XCTAssertEqual(q["total"], 1)
        XCTAssertEqual(try daemon.ctl("call", "contacts.get", #"{"id":"nope"}"#).status, 1)
        XCTAssertEqual(try daemon.ctl("call", "contacts.query", "{not json").status, 64)
        let status = try json(try daemon.ctl("status", "--json"))
        XCTAssertEqual(status["contacts"], 1)
        XCTAssertEqual(status["socket"]?.stringValue, daemon.socketPath)
    }
}
