import Foundation
import JSONCore
import XCTest

/// Addresses from mail with the real binaries: a message piped in as mutt pipes it, whole
/// maildirs harvested and compared with notmuch's own reading of them, a Sent folder watched,
/// and query-email ranking what was written to first.
final class MailTests: FixtureTestCase {
    let me = "me@home.example"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try writeConfig(["mail": ["me": [.string(me)]]])
        try daemon.start()
    }

    func writeConfig(_ o: JSONObject) throws {
        let dir = daemon.home + "/config/contactsd"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try JSONValue.object(o).description.write(toFile: dir + "/config.json", atomically: true, encoding: .utf8)
    }

    func lines(_ r: ProcessResult) -> [String] { r.stdout.split(separator: "\n").map(String.init) }

    /// Every address a contact has (collected ones too), lower-cased, with its contact's name.
    func addresses() throws -> [String: String] {
        let r = try daemon.ctl("list", "--collected", "--json")
        XCTAssertEqual(r.status, 0, r.stderr)
        var out: [String: String] = [:]
        for c in try JSONParser.parse(Array(r.stdout.utf8))["contacts"]?.arrayValue ?? [] {
            for e in c["emails"]?.arrayValue ?? [] {
                out[(e["value"]?.stringValue ?? "").lowercased()] = c["name"]?.stringValue ?? ""
            }
        }
        return out
    }

    func testAPipedMessageCollectsItsSenderOnceAndKeepsItOutOfTheBook() throws {
        let message = """
            From: =?UTF-8?Q?Zo=C3=AB_Stranger?= <zoe@example.org>
            To: Me <me@home.example>
            Message-ID: <one@example.org>
            Date: Sat, 05 Dec 2026 10:00:00 +0000
            Subject: hello

            Hello.

            """
        let first = try daemon.ctl("mail", "add", stdin: message)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "1 address heard from (Zoë Stranger <zoe@example.org>); 1 collected.\n")
        let again = try daemon.ctl("mail", "add", stdin: message)
        XCTAssertEqual(again.stdout, "This message was added before: nothing counted again.\n")
        XCTAssertEqual(try daemon.ctl("list").stdout, "", "the book has no strangers in it")
        XCTAssertEqual(
            lines(try daemon.ctl("collected")).dropFirst().map { $0.split(separator: " ").prefix(2).joined(separator: " ") },
            ["Zoë Stranger"])
        let q = try daemon.ctl("query-email", "zoe")
        XCTAssertEqual(lines(q), ["Searching contactsd for 'zoe'... 1 found.", "zoe@example.org\tZoë Stranger\t"])
        XCTAssertNil(try addresses()[me], "the user's own address is never collected")
        // Kept, it is an ordinary contact.
        XCTAssertEqual(try daemon.ctl("keep", "zoe").status, 0)
        XCTAssertEqual(lines(try daemon.ctl("list")).count, 2)
        XCTAssertEqual(try daemon.ctl("collected").stdout, "")
    }

    func testAMessageThatCannotBeReadNamesTheHeaderAndChangesNothing() throws {
        let r = try daemon.ctl("mail", "add", stdin: "From: no address here\nTo: x@example.org\n\nbody\n")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr, "contactsctl: cannot read the message: line 1, From: no mail address in 'no address here'; nothing was changed\n")
        let broken = try daemon.ctl("mail", "add", stdin: "From: a@example.org\nbroken line\n\n")
        XCTAssertTrue(broken.stderr.contains("line 2: 'broken line' is neither a header nor the fold of one"), broken.stderr)
        XCTAssertEqual(try addresses(), [:])
    }

    /// What contactsctl sends instead of reading MIME itself: headers as bytes, read by the
    /// daemon (8-bit Latin-1 and encoded words too), one it cannot read reported with its place.
    func testHeadersSentAsBytesAreReadByTheDaemonAndAnUnreadableOneIsNamed() throws {
        let client = try daemon.client()
        func base64(_ bytes: [UInt8]) -> JSONValue { .string(Data(bytes).base64EncodedString()) }
        let latin1: [UInt8] = Array("From: Ren".utf8) + [0xE9] + Array(" Dupont <rene@example.fr>\nMessage-ID: <r@x>\n\n".utf8)
        let encoded = Array("From: =?UTF-8?B?5p2O5bCP6b6Z?= <li@example.cn>\nDate: Tue, 1 Sep 2026 10:00:00 +0000\n\n".utf8)
        let r = try client.call(
            "mail.add",
            [
                "headers": [
                    ["header": base64(latin1), "place": "INBOX/cur/1"], ["header": base64(encoded), "arrived": 1],
                    ["header": base64(Array("not a header at all\n\n".utf8)), "place": "INBOX/cur/3"],
                ]
            ])
        XCTAssertEqual(r["messages"], 2)
        XCTAssertEqual(r["unreadable"], 1)
        XCTAssertEqual(r["unreadableExamples"]?.arrayValue?.first?.stringValue?.hasPrefix("INBOX/cur/3: "), true, "\(r)")
        XCTAssertEqual(try addresses()["rene@example.fr"], "René Dupont")
        XCTAssertEqual(try addresses()["li@example.cn"], "李小龙")
        let read = try client.call("mail.read", ["header": base64(encoded)])
        XCTAssertEqual(read["message"]?["date"], .int(1_788_256_800_000))
        XCTAssertThrowsError(try client.call("mail.read", ["header": "not base64!"]))
        XCTAssertThrowsError(
            try client.call(
                "mail.add", ["headers": [["header": base64(encoded)]], "messages": .array(Array(repeating: ["id": "x"], count: 1000))]))
    }

    func testAQueryGivesOnlyTheFieldsAskedForAndRefusesOnesItHasNot() throws {
        _ = try daemon.ctl("mail", "add", stdin: "From: Zoë Stranger <zoe@example.org>\nTo: \(me)\nMessage-ID: <f@x>\n\n")
        let client = try daemon.client()
        let all = try client.call("mail.query", ["text": "zoe"])["addresses"]?.arrayValue?.first?.objectValue
        XCTAssertEqual(all?.keys.sorted(), MailQueryFields.all.sorted())
        XCTAssertEqual(all?["received"], 1)
        let some = try client.call("mail.query", ["text": "zoe", "fields": ["name"]])["addresses"]?.arrayValue?.first?.objectValue
        XCTAssertEqual(some?.keys.sorted(), ["address", "name"])
        XCTAssertEqual(some?["name"], "Zoë Stranger")
        XCTAssertThrowsError(try client.call("mail.query", ["text": "zoe", "fields": ["score"]])) { e in
            XCTAssertTrue("\(e)".contains("'score'"), "\(e)")
        }
    }

    func testWrittenToComesFirstThenHeardFromThenTheRest() throws {
        _ = try daemon.ctl("add", "Sam Never", "--email", "sam.never@example.org")
        _ = try daemon.ctl(
            "mail", "add", stdin: "From: Samantha Heard <samantha@example.org>\nTo: me@home.example\nMessage-ID: <h@x>\n\n")
        // The user's own message: its recipients are written to, and the user is no one to collect.
        let sent = try daemon.ctl(
            "mail", "add", stdin: "From: Me <me@home.example>\nTo: Rosa Sampson <rosa@example.net>, me@home.example\nMessage-ID: <s@x>\n\n")
        XCTAssertEqual(sent.stdout, "1 address written to (Rosa Sampson <rosa@example.net>, me@home.example); 1 collected.\n")
        let q = try daemon.ctl("query-email", "--no-header", "sam")
        XCTAssertEqual(
            lines(q).map { String($0.split(separator: "\t")[0]) }, ["rosa@example.net", "samantha@example.org", "sam.never@example.org"])
        // The same order for contacts.query's frequency sort.
        let byMail = try daemon.ctl("search", "--collected", "--by-mail", "sam", "--json")
        let names = (try JSONParser.parse(Array(byMail.stdout.utf8))["contacts"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        XCTAssertEqual(names, ["Rosa Sampson", "Samantha Heard", "Sam Never"])
    }

    func testTheContactMarkedAsTheUserMakesItsAddressesTheUsers() throws {
        _ = try daemon.ctl("add", "Me Myself", "--email", "me@work.example")
        XCTAssertEqual(try daemon.ctl("me").stdout, "No contact is marked as you.\n")
        XCTAssertTrue(try daemon.ctl("me", "Me Myself").stdout.hasPrefix("You are Me Myself"))
        let sent = try daemon.ctl(
            "mail", "add", stdin: "From: Me <me@work.example>\nTo: Colleague <colleague@work.example>\nMessage-ID: <w@x>\n\n")
        XCTAssertEqual(sent.stdout, "1 address written to (Colleague <colleague@work.example>); 1 collected.\n")
        XCTAssertEqual(try daemon.ctl("me", "--clear").stdout, "No contact is marked as you.\n")
    }

    func testToAndKeepPutTheSenderWhereThePersonSays() throws {
        _ = try daemon.ctl("add", "Bob Builder", "--email", "bob@work.example")
        let message = "From: Bob B <bob@home.example>\nTo: me@home.example\nMessage-ID: <b@x>\n\n"
        _ = try daemon.ctl("mail", "add", stdin: message)
        let to = try daemon.ctl("mail", "add", "--to", "Bob Builder", stdin: message)
        XCTAssertEqual(to.status, 0, to.stderr)
        let found = try addresses()
        XCTAssertEqual(found["bob@home.example"], "Bob Builder", "the address is on the contact, the collected one gone")
        XCTAssertEqual(try daemon.ctl("collected").stdout, "")
        let keep = try daemon.ctl("mail", "add", "--keep", stdin: "From: Kim Kept <kim@example.org>\nMessage-ID: <k@x>\n\n")
        XCTAssertEqual(keep.stdout, "Kept Kim Kept <kim@example.org> as a contact.\n")
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Kim Kept"))
    }

    func testAHarvestFindsEveryAddressNotmuchListsAndCountsEachMessageOnce() throws {
        guard let notmuch = which("notmuch") else { throw XCTSkip("notmuch is not installed (scripts/install-deps.sh installs it)") }
        let mail = daemon.home + "/Mail"
        let gen = try runProgram(
            "/usr/bin/env",
            ["python3", Products.repository.appendingPathComponent("Tests/fakes/mailgen.py").path, mail, "--messages", "1500", "--me", me],
            environment: daemon.environment)
        XCTAssertEqual(gen.status, 0, gen.stderr)
        let received = try daemon.ctl("mail", "harvest", "--all", "--json", mail + "/INBOX", mail + "/Lists", mail + "/Archive")
        XCTAssertEqual(received.status, 0, received.stderr)
        let summary = try JSONParser.parse(Array(received.stdout.utf8))
        XCTAssertGreaterThan(summary["repeated"]?.intValue ?? 0, 0, "messages filed twice count once")
        let sent = try daemon.ctl("mail", "harvest", "--sent", mail + "/Sent")
        XCTAssertEqual(sent.status, 0, sent.stderr)
        // Again: nothing new.
        let again = try daemon.ctl("mail", "harvest", "--all", "--json", mail)
        XCTAssertEqual(try JSONParser.parse(Array(again.stdout.utf8))["messages"]?.intValue, 0)

        let config = daemon.home + "/notmuch-config"
        try "[database]\npath=\(mail)\n[user]\nprimary_email=\(me)\n[new]\ntags=new\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        var env = daemon.environment
        env["NOTMUCH_CONFIG"] = config
        XCTAssertEqual(try runProgram(notmuch, ["new", "--quiet"], environment: env, timeout: 300).status, 0)
        let listed = try runProgram(
            notmuch, ["address", "--output=sender", "--output=recipients", "--deduplicate=address", "*"], environment: env, timeout: 300)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        var theirs: [String: String] = [:]
        for line in lines(listed) {
            if let open = line.lastIndex(of: "<"), line.hasSuffix(">") {
                let name = line[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                theirs[String(line[line.index(after: open)..<line.index(before: line.endIndex)]).lowercased()] = name
            } else {
                theirs[line.lowercased()] = ""
            }
        }
        theirs.removeValue(forKey: me)
        XCTAssertGreaterThan(theirs.count, 200)
        let ours = try addresses()
        let missing = theirs.keys.filter { ours[$0] == nil }.sorted()
        XCTAssertEqual(missing, [], "every address notmuch lists is found")
        XCTAssertNil(ours[me])
        // Names: where notmuch gives one, ours is the same for nearly all (each keeps one of the
        // names an address came with; they may pick differently where it came with several).
        let named = theirs.filter { !$0.value.isEmpty }
        let same = named.filter { ours[$0.key] == $0.value }.count
        XCTAssertGreaterThan(Double(same) / Double(max(1, named.count)), 0.9, "\(same) of \(named.count) names agree")
    }

    func testAnInterruptedHarvestKeepsWhatItCountedAndGoesOnWhereItStopped() throws {
        let mail = daemon.home + "/Mail"
        let gen = try runProgram(
            "/usr/bin/env",
            ["python3", Products.repository.appendingPathComponent("Tests/fakes/mailgen.py").path, mail, "--messages", "12000"],
            environment: daemon.environment, timeout: 120)
        XCTAssertEqual(gen.status, 0, gen.stderr)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Products.path("contactsctl"))
        p.arguments = ["mail", "harvest", "--json", mail + "/INBOX"]
        p.environment = daemon.environment
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        // Ctrl-C once the first batch is in.
        let client = try daemon.client()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, p.isRunning, try client.call("contacts.query", ["collected": "only", "limit": 0])["total"] == 0 {
            usleep(20_000)
        }
        XCTAssertTrue(p.isRunning, "the harvest ended before it could be interrupted")
        kill(p.processIdentifier, SIGINT)
        let first = try JSONParser.parse(Array(out.fileHandleForReading.readDataToEndOfFile()))
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        XCTAssertEqual(first["interrupted"], true)
        let counted = first["messages"]?.intValue ?? 0
        XCTAssertGreaterThan(counted, 0)
        let rest = try daemon.ctl("mail", "harvest", "--json", mail + "/INBOX")
        let second = try JSONParser.parse(Array(rest.stdout.utf8))
        XCTAssertEqual(second["repeated"]?.intValue, counted, "what the first run counted is not counted again")
        let files = try FileManager.default.contentsOfDirectory(atPath: mail + "/INBOX/cur").count
        XCTAssertEqual(counted + (second["messages"]?.intValue ?? 0) + (second["unreadable"]?.intValue ?? 0), files)
    }

    func testAWatchedSentFolderIsCountedAsMessagesLand() throws {
        let sent = daemon.home + "/Mail/Sent"
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: sent + "/" + sub, withIntermediateDirectories: true)
        }
        daemon.stop()
        try writeConfig(["mail": ["me": [.string(me)], "watch": [.string(sent)]]])
        try daemon.start()
        // As a mail client delivers: written in tmp/, moved to cur/.
        let text = "From: Me <me@home.example>\nTo: Wanda Watched <wanda@example.org>\nMessage-ID: <w@x>\n\nhi\n"
        try text.write(toFile: sent + "/tmp/1.msg", atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(sent + "/tmp/1.msg", sent + "/cur/1.msg:2,S"), 0)
        let deadline = Date().addingTimeInterval(10)
        var found = ""
        while Date() < deadline && !found.contains("wanda") {
            found = try daemon.ctl("query-email", "--no-header", "wanda").stdout
            usleep(50_000)
        }
        XCTAssertEqual(found, "wanda@example.org\tWanda Watched\t\n")
        XCTAssertTrue(daemon.log.contains("mail.watch: 1 messages counted"), daemon.log)
    }

    /// neomutt under tmux, as a person uses it: `Q` queries, Ctrl-T completes the To prompt,
    /// and a macro pipes the message under the cursor to `mail add`.
    func testNeomuttQueriesCompletesAndPipesThroughContactsctl() throws {
        guard let neomutt = which("neomutt"), let tmux = which("tmux") else {
            throw XCTSkip("neomutt or tmux is not installed (scripts/install-deps.sh installs them)")
        }
        _ = try daemon.ctl("mail", "add", stdin: "From: Zoe Stranger <zoe@example.org>\nMessage-ID: <z@x>\n\n")
        let dir = daemon.home + "/neomutt"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try
            "From sender@example.org Mon Dec  7 10:00:00 2026\nFrom: Piper Piped <piper@example.org>\nTo: me@home.example\nSubject: pipe me\nMessage-ID: <pipe@x>\n\nhello\n\n"
            .write(toFile: dir + "/box.mbox", atomically: true, encoding: .utf8)
        let ctl = try Products.path("contactsctl")
        try """
        set query_command = "\(ctl) query-email %s"
        set wait_key = no
        set folder = \(dir)
        set spoolfile = \(dir)/box.mbox
        set record = ""
        macro index,pager A "<pipe-message>\(ctl) mail add<enter>" "collect the sender"
        """.write(toFile: dir + "/muttrc", atomically: true, encoding: .utf8)
        let socket = dir + "/tmux"
        let env = ["HOME", "XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "CONTACTSD_SOCKET"]
            .map { "\($0)=\(daemon.environment[$0] ?? "")" }.joined(separator: " ")
        let term = try TerminalSession(
            tmux: tmux, socket: socket, environment: daemon.environment,
            command: "env \(env) TERM=xterm \(neomutt) -n -F \(dir)/muttrc -f \(dir)/box.mbox")
        defer { term.stop() }
        XCTAssertTrue(try term.screen(until: "pipe me").contains("Piper Piped"))
        // Q: a query, answered by query-email.
        try term.send("Q")
        _ = try term.screen(until: "Query")
        try term.send("zoe", "Enter")
        XCTAssertTrue(try term.screen(until: "zoe@example.org").contains("Zoe Stranger"))
        try term.send("q")
        // The To prompt completed by Ctrl-T (complete-query).
        try term.send("m")
        _ = try term.screen(until: "To:")
        try term.send("zoe", "C-t")
        XCTAssertTrue(try term.screen(until: "<zoe@example.org>").contains("To: Zoe Stranger <zoe@example.org>"))
        try term.send("C-g")
        _ = try term.screen(until: "pipe me")
        // The macro pipes the message to mail add.
        try term.send("A")
        XCTAssertTrue(try collected(until: "Piper Piped"))
    }

    /// aerc under tmux: its compose To field completes from `address-book-cmd`, and `:pipe -m`
    /// hands the selected message to `mail add`.
    func testAercCompletesFromQueryEmailAndPipesToMailAdd() throws {
        guard let aerc = which("aerc"), let tmux = which("tmux") else {
            throw XCTSkip("aerc or tmux is not installed (scripts/install-deps.sh installs them)")
        }
        _ = try daemon.ctl("mail", "add", stdin: "From: Zoe Stranger <zoe@example.org>\nMessage-ID: <z@x>\n\n")
        let home = daemon.home + "/aerc"
        let maildir = home + "/Mail/INBOX"
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(atPath: maildir + "/" + sub, withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: home + "/config/aerc", withIntermediateDirectories: true)
        try "From: Piper Piped <piper@example.org>\nTo: me@home.example\nSubject: pipe me\nMessage-ID: <pipe@x>\n\nhello\n"
            .write(toFile: maildir + "/cur/1:2,S", atomically: true, encoding: .utf8)
        try "[home]\nsource = maildir://\(home)/Mail\noutgoing = sendmail:///bin/true\ndefault = INBOX\nfrom = Me <me@home.example>\n"
            .write(toFile: home + "/config/aerc/accounts.conf", atomically: true, encoding: .utf8)
        chmod(home + "/config/aerc/accounts.conf", 0o600)
        let ctl = try Products.path("contactsctl")
        try "[compose]\naddress-book-cmd = \(ctl) query-email --no-header %s\n"
            .write(toFile: home + "/config/aerc/aerc.conf", atomically: true, encoding: .utf8)
        let socket = home + "/tmux"
        var vars = ["XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CACHE_HOME", "CONTACTSD_SOCKET"].map {
            "\($0)=\(daemon.environment[$0] ?? "")"
        }
        vars += ["HOME=\(home)", "XDG_CONFIG_HOME=\(home)/config", "TERM=xterm"]
        let term = try TerminalSession(
            tmux: tmux, socket: socket, environment: daemon.environment, command: "env \(vars.joined(separator: " ")) \(aerc)")
        defer { term.stop() }
        XCTAssertTrue(try term.screen(until: "pipe me").contains("Piper Piped"))
        try term.send(":compose", "Enter")
        _ = try term.screen(until: "To:")
        try term.send("zo")
        XCTAssertTrue(try term.screen(until: "<zoe@example.org>").contains("\"Zoe Stranger\" <zoe@example.org>"))
        try term.send("C-x")
        try term.send("abort", "Enter")
        _ = try term.screen(until: "INBOX")
        try term.send(":pipe -m \(ctl) mail add", "Enter")
        XCTAssertTrue(try collected(until: "Piper Piped"))
    }

    /// Whether `contactsctl collected` lists `name` within ten seconds.
    func collected(until name: String) throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try daemon.ctl("collected").stdout.contains(name) { return true }
            usleep(100_000)
        }
        return false
    }

    func which(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// The fields of a RankedAddress (docs/API.md).
enum MailQueryFields {
    static let all = ["address", "name", "label", "contact", "collected", "sent", "received", "lastSent", "lastReceived"]
}
