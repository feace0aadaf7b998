import Foundation
import JSONCore
import XCTest

/// `contactsctl edit ID` and `contactsctl add` with no fields open the contact in $EDITOR:
/// an edit in place is applied; a form that does not read, a value refused, or a contact
/// changed meanwhile opens the editor again with the problem at the top, and nothing is lost.
final class EditorTests: DaemonTestCase {
    /// Writes an editor script: a shell script that gets the form's path as $1.
    func editor(_ name: String, _ body: String) throws -> String {
        let path = daemon.home + "/" + name
        try ("#!/bin/sh\nset -e\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    func ctl(editor: String, _ args: String...) throws -> ProcessResult {
        var env = daemon.environment
        env["EDITOR"] = editor
        env["VISUAL"] = nil
        env["TMPDIR"] = daemon.home
        return try runProgram(try Products.path("contactsctl"), args, environment: env)
    }

    func contact(_ text: String) throws -> JSONValue {
        try XCTUnwrap(try daemon.client().call("contacts.query", ["text": .string(text)])["contacts"]?.arrayValue?.first)
    }

    func leftovers() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: daemon.home)) ?? []).filter { $0.hasPrefix("contactsctl-") }
    }

    func testAnEditInPlaceChangesOnlyWhatWasEdited() throws {
        XCTAssertEqual(
            try daemon.ctl(
                "add", "Kate Bell", "--phone", "mobile:(555) 564-8583", "--email", "work:kate@example.com", "--note", "Two\nlines"
            )
            .status, 0)
        let script = try editor(
            "in-place.sh",
            """
            sed -i -e 's/^title:.*/title: Producer/' -e 's/^  - work: kate@example.com/  - work: kate@example.com\\n  - home: kate@home.example/' "$1"
            """)
        let r = try ctl(editor: script, "edit", "kate")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Updated Kate Bell"), r.stdout)
        let kate = try contact("kate")
        XCTAssertEqual(kate["title"], "Producer")
        XCTAssertEqual(kate["emails"]?.arrayValue?.compactMap { $0["value"]?.stringValue }, ["kate@example.com", "kate@home.example"])
        XCTAssertEqual(kate["note"], "Two\nlines", "a note of two lines goes through the form unchanged")
        XCTAssertEqual(kate["revision"], 2)
        let history = try JSONParser.parse(try daemon.ctl("--json", "history", "kate").stdout)
        XCTAssertEqual(history["entries"]?.arrayValue?.first?["fields"], ["emails", "title"])
        // An editor that saves nothing new changes nothing.
        let untouched = try ctl(editor: "true", "edit", "kate")
        XCTAssertEqual(untouched.stdout, "No changes.\n")
        XCTAssertEqual(try contact("kate")["revision"], 2)
        XCTAssertEqual(leftovers(), [])
    }

    func testABadFormOpensAgainWithTheProblemAtTheTop() throws {
        XCTAssertEqual(try daemon.ctl("add", "Anna Haro").status, 0)
        // First round: a field that does not exist. Second: a birthday the daemon refuses.
        // Third: the script checks it was told why, and fixes the date.
        let script = try editor(
            "fix-it.sh",
            """
            n=$(cat "$0.count" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$0.count"
            case $n in
            1) sed -i 's/^nickname:.*/nick: Annie/' "$1" ;;
            2) grep -q "^# ! line .*there is no field 'nick'" "$1"; sed -i -e 's/^nick:.*/nickname: Annie/' -e 's/^birthday:.*/birthday: 1985-02-30/' "$1" ;;
            3) grep -q "^# ! .*birthday" "$1"; sed -i 's/^birthday:.*/birthday: 1985-03-04/' "$1" ;;
            esac
            """)
        let r = try ctl(editor: script, "edit", "anna")
        XCTAssertEqual(r.status, 0, r.stderr + r.stdout)
        XCTAssertEqual(try String(contentsOfFile: script + ".count", encoding: .utf8), "3\n")
        let anna = try contact("anna")
        XCTAssertEqual(anna["nickname"], "Annie")
        XCTAssertEqual(anna["birthday"], "1985-03-04")
        XCTAssertEqual(leftovers(), [])
        // A person who quits without fixing it: nothing changes, the text is kept.
        let stubborn = try editor("stubborn.sh", "grep -q '^# !' \"$1\" || sed -i 's/^name:.*/name:/' \"$1\"")
        let kept = try ctl(editor: stubborn, "edit", "anna")
        XCTAssertEqual(kept.status, 1)
        XCTAssertTrue(kept.stderr.contains("the text is kept in"), kept.stderr)
        XCTAssertEqual(leftovers().count, 1)
        XCTAssertEqual(try contact("anna")["name"], "Anna Haro")
    }

    func testAContactChangedMeanwhileIsNotOverwrittenUnasked() throws {
        XCTAssertEqual(try daemon.ctl("add", "Bo Lind").status, 0)
        let ctl = try Products.path("contactsctl")
        // While the form is open, another program gives Bo a phone; the form then sets a title.
        let script = try editor(
            "meanwhile.sh",
            """
            n=$(cat "$0.count" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$0.count"
            if [ $n = 1 ]; then
                "\(ctl)" edit bo --phone '030 1234567' > /dev/null
                sed -i 's/^title:.*/title: Skipper/' "$1"
            else
                grep -q "^# ! The contact changed while you edited it" "$1"
            fi
            """)
        let r = try self.ctl(editor: script, "edit", "bo")
        XCTAssertEqual(r.status, 0, r.stderr)
        let bo = try contact("bo")
        XCTAssertEqual(bo["title"], "Skipper")
        XCTAssertEqual(
            bo["phones"]?.arrayValue?.compactMap { $0["value"]?.stringValue }, ["030 1234567"],
            "the other program's phone stays: only what the form changed is sent")
    }

    func testAddWithNoNameFillsAnEmptyForm() throws {
        let script = try editor(
            "new.sh",
            """
            grep -q '^name:$' "$1"
            sed -i -e 's/^name:.*/name: Zoë Ångström/' -e 's/^phones:/phones:\\n  - mobile: +46 8 123 456/' -e 's/^favorite:.*/favorite: yes/' "$1"
            """)
        let r = try ctl(editor: script, "add")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Added Zoë Ångström"), r.stdout)
        let zoe = try contact("zoe")
        XCTAssertEqual(zoe["favorite"], true)
        XCTAssertEqual(zoe["phones"]?.arrayValue?.first?["label"], "mobile")
        // Emptied: given up, nothing added; an editor that fails: nothing added either.
        let emptied = try ctl(editor: try editor("empty.sh", ": > \"$1\""), "add")
        XCTAssertEqual(emptied.status, 1)
        XCTAssertTrue(emptied.stderr.contains("emptied"), emptied.stderr)
        let failing = try ctl(editor: "false", "add")
        XCTAssertEqual(failing.status, 1)
        XCTAssertTrue(failing.stderr.contains("exited with status 1"), failing.stderr)
        XCTAssertEqual(try JSONParser.parse(try daemon.ctl("--json", "list").stdout)["total"], 1)
    }
}
