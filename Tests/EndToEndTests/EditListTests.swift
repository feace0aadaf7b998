import Foundation
import JSONCore
import XCTest

/// `contactsctl add` and `edit` as people read their options: a list option adds, a
/// --remove-... option takes away, --clear empties first; labels, URIs and addresses are read
/// as written.
final class EditListTests: DaemonTestCase {
    func json(_ r: ProcessResult) throws -> JSONValue {
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONParser.parse(r.stdout)
    }

    func values(_ c: JSONValue, _ field: String) -> [String] {
        (c[field]?.arrayValue ?? []).compactMap { $0.stringValue ?? $0["value"]?.stringValue }
    }

    func addKate() throws {
        let r = try daemon.ctl(
            "add", "Kate Bell", "--phone", "mobile:(555) 564-8583", "--phone", "main:(415) 555-3695", "--email", "kate@example.com",
            "--group", "Work", "--group", "Family")
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testAListOptionAddsAValueAndKeepsTheOthers() throws {
        try addKate()
        // The README's own example.
        let edited = try json(try daemon.ctl("edit", "kate", "--title", "Executive Producer", "--phone", "work:(415) 555-0100", "--json"))
        XCTAssertEqual(values(edited, "phones"), ["(555) 564-8583", "(415) 555-3695", "(415) 555-0100"])
        XCTAssertEqual(edited["title"], "Executive Producer")
        // Not twice, whatever the formatting; a label given with it is the new label.
        let again = try json(try daemon.ctl("edit", "kate", "--phone", "cell:555.564.8583", "--json"))
        XCTAssertEqual(values(again, "phones").count, 3)
        XCTAssertEqual(again["phones"]?.arrayValue?.first?["label"], "cell")
        let emails = try json(try daemon.ctl("edit", "kate", "--email", "KATE@example.com", "--email", "kb@example.org", "--json"))
        XCTAssertEqual(values(emails, "emails"), ["kate@example.com", "kb@example.org"])
    }

    func testAGroupOptionJoinsAndLeaveGroupLeaves() throws {
        try addKate()
        let joined = try json(try daemon.ctl("edit", "kate", "--group", "Friends", "--json"))
        XCTAssertEqual(Set(values(joined, "groups")), ["Work", "Family", "Friends"])
        let left = try json(try daemon.ctl("edit", "kate", "--leave-group", "work", "--json"))
        XCTAssertEqual(Set(values(left, "groups")), ["Family", "Friends"])
        let notThere = try daemon.ctl("edit", "kate", "--leave-group", "Chess")
        XCTAssertEqual(notThere.status, 64, notThere.stderr)
        XCTAssertTrue(notThere.stderr.contains("Kate Bell has no such group"), notThere.stderr)
    }

    func testRemoveTakesOneAwayByValueOrLabelAndClearReplaces() throws {
        try addKate()
        let removed = try json(try daemon.ctl("edit", "kate", "--remove-phone", "4155553695", "--json"))
        XCTAssertEqual(values(removed, "phones"), ["(555) 564-8583"])
        let byLabel = try json(try daemon.ctl("edit", "kate", "--remove-phone", "mobile", "--phone", "home:555-0199", "--json"))
        XCTAssertEqual(values(byLabel, "phones"), ["555-0199"])
        let replaced = try json(try daemon.ctl("edit", "kate", "--clear", "phones", "--phone", "work:555-0100", "--json"))
        XCTAssertEqual(values(replaced, "phones"), ["555-0100"])
        let cleared = try json(try daemon.ctl("edit", "kate", "--clear", "emails", "--json"))
        XCTAssertEqual(values(cleared, "emails"), [])
        let missing = try daemon.ctl("edit", "kate", "--remove-email", "nobody@example.com")
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.contains("--remove-email 'nobody@example.com'"), missing.stderr)
    }

    func testLabelsURIsAndDatesAreReadAsWritten() throws {
        let zoe = try json(
            try daemon.ctl(
                "add", "Zoe Lee", "--phone", "work-cell:+1 555 0100", "--im", "matrix:@zoe:example.org", "--im",
                "sip:zoe@example.org:5060", "--im", "work:xmpp:zoe@example.org", "--date", "first-met:2011-01-01", "--json"))
        XCTAssertEqual(zoe["phones"]?.arrayValue?.first?["label"], "work-cell")
        XCTAssertEqual(values(zoe, "phones"), ["+1 555 0100"])
        XCTAssertEqual(values(zoe, "impp"), ["matrix:@zoe:example.org", "sip:zoe@example.org:5060", "xmpp:zoe@example.org"])
        XCTAssertEqual(zoe["impp"]?.arrayValue?[2]["label"], "work")
        XCTAssertEqual(zoe["dates"]?.arrayValue?.first?["label"], "first-met")
        XCTAssertEqual(zoe["structuredName"]?["family"], "Lee")
        let hello = try daemon.ctl("add", "Hello", "--phone", "hello")
        XCTAssertEqual(hello.status, 64)
        XCTAssertTrue(hello.stderr.contains("'hello' is not a phone number"), hello.stderr)
    }

    func testAnAddressHasALabelAndItsParts() throws {
        let anna = try json(
            try daemon.ctl("add", "Anna Haro", "--address", "home:Hauptstr. 5; Berlin; ; 10115; Germany", "--json"))
        let address = try XCTUnwrap(anna["addresses"]?.arrayValue?.first)
        XCTAssertEqual(address["label"], "home")
        XCTAssertEqual(address["street"], "Hauptstr. 5")
        XCTAssertEqual(address["locality"], "Berlin")
        XCTAssertEqual(address["postalCode"], "10115")
        XCTAssertEqual(address["country"], "Germany")
        let moved = try json(try daemon.ctl("edit", "anna", "--remove-address", "home", "--address", "Main St 1", "--json"))
        XCTAssertEqual(moved["addresses"]?.arrayValue?.compactMap { $0["street"]?.stringValue }, ["Main St 1"])
    }

    func testANoteIsReadFromAFileOrStandardInput() throws {
        try addKate()
        let file = daemon.dataDir + "/note.txt"
        try "Met at the conference.\nLikes tea.\n".write(toFile: file, atomically: true, encoding: .utf8)
        let fromFile = try json(try daemon.ctl("edit", "kate", "--note-file", file, "--json"))
        XCTAssertEqual(fromFile["note"], "Met at the conference.\nLikes tea.")
        let missing = try daemon.ctl("edit", "kate", "--note-file", daemon.dataDir + "/nowhere.txt")
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("nowhere.txt"), missing.stderr)
    }

    func testTheSampleScriptMakesTheSamePeopleAsTheSampleCard() throws {
        let script = Products.repository.appendingPathComponent("examples/sample-contacts.sh").path
        let r = try runProgram("/bin/bash", [script, try Products.path("contactsctl")], environment: daemon.environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        let fromScript = try daemon.ctl("export", "--format", "csv").stdout
        _ = try daemon.ctl("rm", "john", "kate", "anna")
        XCTAssertEqual(try daemon.ctl("trash", "empty", "--yes").status, 0)
        let sample = Products.repository.appendingPathComponent("examples/sample-contacts.vcf").path
        XCTAssertEqual(try daemon.ctl("import", sample).status, 0)
        let fromCard = try daemon.ctl("export", "--format", "csv").stdout
        XCTAssertEqual(fromScript, fromCard)
    }
}

/// What the verbs say when there is nothing to do, and the words of their errors.
final class NothingToDoTests: DaemonTestCase {
    func testVerbsSayWhenNothingChangedAndNameWhatTheyCouldNotFind() throws {
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell", "--group", "Work").status, 0)
        let again = try daemon.ctl("group", "assign", "kate", "work")
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stdout.contains("is in work already; nothing changed"), again.stdout)
        XCTAssertEqual(try daemon.ctl("group", "unassign", "kate", "Work").status, 0)
        let twice = try daemon.ctl("group", "unassign", "kate", "Work")
        XCTAssertTrue(twice.stdout.contains("is not in Work; nothing changed"), twice.stdout)
        let photo = try daemon.ctl("photo", "rm", "kate")
        XCTAssertTrue(photo.stdout.contains("has no photo; nothing changed"), photo.stdout)
        let group = try daemon.ctl("group", "members", "Family")
        XCTAssertTrue(group.stderr.contains("No group named 'Family'"), group.stderr)
        let zero = try daemon.ctl("revert", "kate", "0")
        XCTAssertEqual(zero.status, 64)
        XCTAssertTrue(zero.stderr.contains("REVISION counts from 1"), zero.stderr)
        let typo = try daemon.ctl("list", "--favorits")
        XCTAssertTrue(typo.stderr.contains("did you mean '--favorites'?"), typo.stderr)
        // The changes name the file a command-line import read, and align their columns.
        let file = daemon.dataDir + "/people.vcf"
        try "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Anna Haro\r\nEND:VCARD\r\n".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try daemon.ctl("import", file).status, 0)
        let changes = try daemon.ctl("changes").stdout.split(separator: "\n")
        XCTAssertTrue(changes.first?.hasPrefix("ID") ?? false, "\(changes)")
        XCTAssertTrue(changes.dropFirst().first?.contains("import:people.vcf") ?? false, "\(changes)")
        XCTAssertFalse(changes.contains { $0.contains("\t") })
    }
}
