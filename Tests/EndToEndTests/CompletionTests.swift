import Foundation
import JSONCore
import XCTest

/// Completion scripts generated from the command tree, run in real shells; mail queries; watch.
final class CompletionTests: DaemonTestCase {
    var env: [String: String] {
        var e = daemon.environment
        e["PATH"] = Products.directory.path + ":" + (e["PATH"] ?? "/usr/bin:/bin")
        return e
    }

    func committed(_ name: String) throws -> String {
        try String(contentsOf: Products.repository.appendingPathComponent("completions/" + name), encoding: .utf8)
    }

    func testTheCommittedScriptsAreTheGeneratedOnes() throws {
        for (shell, file) in [("bash", "contactsctl.bash"), ("zsh", "_contactsctl"), ("fish", "contactsctl.fish")] {
            let generated = try daemon.ctl("completions", shell).stdout
            XCTAssertEqual(generated, try committed(file), "completions/\(file) is stale: run 'make completions'")
        }
    }

    func testTheManPageListsTheOptionsTheCommandTreeDeclares() throws {
        let page = try String(contentsOf: Products.repository.appendingPathComponent("man/contactsctl.1"), encoding: .utf8)
        let generated = try daemon.ctl("completions", "man").stdout
        XCTAssertTrue(generated.contains("\\fB\\-\\-remove\\-phone\\fR \\fIPHONE\\fR"), generated)
        XCTAssertTrue(page.contains(generated), "man/contactsctl.1's options are stale: run 'make completions'")
    }

    func testEveryScriptIsValidForItsShell() throws {
        let dir = Products.repository.appendingPathComponent("completions").path
        for (shell, file) in [("/bin/bash", "contactsctl.bash"), ("/usr/bin/zsh", "_contactsctl"), ("/usr/bin/fish", "contactsctl.fish")] {
            guard FileManager.default.isExecutableFile(atPath: shell) else { throw XCTSkip("\(shell) is not installed") }
            let r = try runProgram(shell, ["-n", dir + "/" + file], environment: env)
            XCTAssertEqual(r.status, 0, "\(shell) -n \(file): \(r.stderr)")
        }
    }

    /// Runs the bash completion function for a command line and returns COMPREPLY.
    func bashComplete(_ line: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion") else {
            throw XCTSkip("bash-completion is not installed")
        }
        let script = """
            source /usr/share/bash-completion/bash_completion
            source "$1"
            COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _contactsctl
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let file = Products.repository.appendingPathComponent("completions/contactsctl.bash").path
        let r = try runProgram("/bin/bash", ["-c", script, "bash", file, line], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.split(separator: "\n").map(String.init)
    }

    func testBashCompletesVerbsOptionsValuesAndLiveNames() throws {
        _ = try daemon.ctl("add", "Kate Bell", "--group", "Work")
        _ = try daemon.ctl("add", "Anna Haro", "--group", "Friends")
        XCTAssertEqual(try bashComplete("contactsctl gr"), ["group"])
        XCTAssertEqual(try bashComplete("contactsctl group "), ["list", "add", "rm", "rename", "members", "assign", "unassign"])
        XCTAssertEqual(try bashComplete("contactsctl export --format "), ["vcard3", "vcard4", "json", "csv", "ics"])
        XCTAssertEqual(try bashComplete("contactsctl show ka"), ["Kate\\ Bell"])
        XCTAssertEqual(try bashComplete("contactsctl delete ka"), ["Kate\\ Bell"], "after an alias as after its verb")
        XCTAssertEqual(try bashComplete("contactsctl del"), ["delete"])
        XCTAssertEqual(try bashComplete("contactsctl group assign kate "), ["Friends", "Work"])
        XCTAssertEqual(try bashComplete("contactsctl list --group W"), ["Work"])
        XCTAssertTrue(try bashComplete("contactsctl list --").contains("--favorites"))
        XCTAssertEqual(try bashComplete("contactsctl add X -o "), [], "-o of add is the organization: free text")
    }

    func testCompletionIsQuietWhenTheDaemonIsDown() throws {
        daemon.stop()
        XCTAssertEqual(try bashComplete("contactsctl show ka"), [])
        let r = try daemon.ctl("__complete", "contacts", "ka")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout + r.stderr, "")
    }

    func testFishCompletesFromTheScript() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") else { throw XCTSkip("fish is not installed") }
        _ = try daemon.ctl("add", "Anna Haro")
        let file = Products.repository.appendingPathComponent("completions/contactsctl.fish").path
        let r = try runProgram(
            "/usr/bin/fish", ["-c", "source \(file); complete -C 'contactsctl export --format '; complete -C 'contactsctl show An'"],
            environment: env)
        XCTAssertTrue(r.stdout.contains("vcard3"), r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("Anna Haro"), r.stdout + r.stderr)
    }

    func testQueryEmailSpeaksMuttsFormat() throws {
        _ = try daemon.ctl("add", "Kate Bell", "--email", "work:kate@mac.com", "--email", "kate@home.example")
        _ = try daemon.ctl("add", "Anna Haro", "--email", "anna@mac.com")
        let r = try daemon.ctl("query-email", "kate")
        XCTAssertEqual(r.status, 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(lines[1], "kate@mac.com\tKate Bell\twork")
        XCTAssertEqual(lines[2], "kate@home.example\tKate Bell\t")
        let aerc = try daemon.ctl("query-email", "--no-header", "mac.com")
        XCTAssertEqual(
            aerc.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] }, ["anna@mac.com", "kate@mac.com", "kate@home.example"],
            "every address of each matching contact")
        let none = try daemon.ctl("query-email", "nobody")
        XCTAssertEqual(none.status, 1)
    }

    func testWhoSaysWhoseNumberItIsAsACallerIDScriptWantsIt() throws {
        daemon.stop()
        try daemon.start(extraEnvironment: ["LC_TELEPHONE": "de_DE.UTF-8"])
        _ = try daemon.ctl("add", "Kate Bell", "--phone", "mobile:0171 5550199")
        _ = try daemon.ctl("add", "Anna Haro", "--phone", "+1 (415) 555-0132")
        _ = try daemon.ctl("add", "Dan Smith", "--phone", "work:+1 212 555 0199")
        // The network sends the international form; the phone shows the national one.
        let call = try daemon.ctl("who", "+49 171 5550199")
        XCTAssertEqual(call.status, 0, call.stderr)
        XCTAssertEqual(call.stdout, "Kate Bell (mobile)\n")
        XCTAssertEqual(try daemon.ctl("who", "004915112345678").status, 1)
        let unknown = try daemon.ctl("who", "+44 20 7946 0018")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stdout, "")
        XCTAssertTrue(unknown.stderr.contains("+44 20 7946 0018"), unknown.stderr)
        XCTAssertEqual(try daemon.ctl("who", "+1 415 555 0132").stdout, "Anna Haro\n")
        // Every match with --all: the same number, then the same last seven digits.
        let all = try daemon.ctl("who", "--all", "0171 5550199")
        XCTAssertEqual(all.stdout, "Kate Bell (mobile)\t0171 5550199\texact\nDan Smith (work)\t+1 212 555 0199\tshort\n")
        let json = try daemon.ctl("who", "--json", "+49 171 5550199")
        XCTAssertTrue(json.stdout.contains("\"e164\":\"+491715550199\""), json.stdout)
        XCTAssertTrue(json.stdout.contains("\"type\":\"mobile\""), json.stdout)
        XCTAssertEqual(try daemon.ctl("who", "nonsense").status, 1)
    }

    func testWatchEventsWritesEachEventAtOnceIntoAPipe() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Products.path("contactsctl"))
        p.arguments = ["watch", "--events", "--json"]
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        defer {
            p.terminate()
            p.waitUntilExit()
        }
        usleep(300_000)
        _ = try daemon.ctl("add", "Zoë Ångström")
        let handle = out.fileHandleForReading
        var text = ""
        let deadline = Date().addingTimeInterval(5)
        while !text.contains("\n") && Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let first = try JSONParser.parse(String(text.split(separator: "\n")[0]))
        XCTAssertEqual(first["event"], "contacts.changed")
        XCTAssertEqual(first["params"]?["changes"]?.arrayValue?.first?["change"], "created")
    }
}

/// Colour on a terminal only, and never with NO_COLOR; progress for long imports.
final class TerminalTests: DaemonTestCase {
    /// Runs contactsctl on a pseudo-terminal through script(1).
    func onTerminal(_ command: String, noColor: Bool) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("script(1) is not installed") }
        var env = daemon.environment
        if noColor { env["NO_COLOR"] = "1" } else { env.removeValue(forKey: "NO_COLOR") }
        env["TERM"] = "xterm"
        let r = try runProgram(
            "/usr/bin/script", ["-qec", "\(try Products.path("contactsctl")) \(command)", "/dev/null"], environment: env)
        return r.stdout
    }

    func testColourOnATerminalOnlyAndNeverWithNO_COLOR() throws {
        _ = try daemon.ctl("add", "Kate Bell")
        XCTAssertTrue(try onTerminal("list", noColor: false).contains("\u{1B}["), "bold headers on a terminal")
        XCTAssertFalse(try onTerminal("list", noColor: true).contains("\u{1B}["))
        var env = daemon.environment
        env.removeValue(forKey: "NO_COLOR")
        let piped = try runProgram(try Products.path("contactsctl"), ["list"], environment: env)
        XCTAssertFalse(piped.stdout.contains("\u{1B}["), "no colour into a pipe")
    }

    func testALongImportReportsProgressOnItsConnection() throws {
        var text = ""
        for i in 0..<2500 { text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \(i)\r\nEND:VCARD\r\n" }
        let c = try daemon.client()
        final class Box: @unchecked Sendable { var seen: [Int] = [] }
        let box = Box()
        c.onNotification = { n in
            if n["method"] == "import.progress", let done = n["params"]?["done"]?.intValue { box.seen.append(done) }
        }
        let report = try c.call("contacts.import", ["vcard": .string(text)])
        XCTAssertEqual(report["created"], 2500)
        XCTAssertEqual(box.seen, [1000, 2000])
    }
}
