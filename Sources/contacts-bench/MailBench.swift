import ContactsCore
import Foundation
import JSONCore
import JSONRPC

/// Addresses from mail with the real binaries, beside the tools people use for it in the same
/// run: a generated maildir (`Tests/fakes/mailgen.py`: threads, lists, a Sent folder, a long
/// tail of correspondents, names in several scripts and charsets) harvested by contactsctl and
/// read by `notmuch new` + `notmuch address`; `query-email` over collected addresses as mutt
/// runs it, beside lbdb's `lbdbq` (its m_inmail database, what `lbdb-fetchaddr` fills) and
/// abook's `--mutt-query` holding the same people; the daemon's memory at rest with them.
enum MailBench {
    static let me = "me@home.example"

    static var generator: String {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Tests/fakes/mailgen.py").path
    }

    static var ctl: String {
        ProcessInfo.processInfo.environment["CONTACTS_BENCH_CTL"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("contactsctl").path
    }

    static func measure(_ contacts: [Contact], messages: Int, scratch dir: String) throws -> Report {
        var out = Report()
        guard FileManager.default.fileExists(atPath: generator) else {
            out.row("mail", "skipped: run from the repository (\(generator) is missing)")
            return out
        }
        try harvest(messages: messages, scratch: dir, into: &out)
        try query(contacts, collected: max(1, contacts.count / 2), scratch: dir, into: &out)
        return out
    }

    /// Seconds `body` takes.
    static func timed(_ body: () throws -> Void) rethrows -> Double {
        let t = Date()
        try body()
        return Date().timeIntervalSince(t)
    }

    /// What a command that must succeed writes to standard output.
    static func run(_ path: String, _ args: [String], environment: [String: String]) throws -> String {
        let r = try ServiceBench.run(path, args, environment: environment)
        guard r.status == 0 else {
            throw NSError(domain: "bench", code: 9, userInfo: [NSLocalizedDescriptionKey: "\(path) \(args.joined(separator: " ")) failed"])
        }
        return r.stdout
    }

    static func harvest(messages: Int, scratch dir: String, into out: inout Report) throws {
        let mail = dir + "/mail/Mail"
        let env = ProcessInfo.processInfo.environment
        let made = try timed {
            _ = try run("/usr/bin/env", ["python3", generator, mail, "--messages", "\(messages)", "--me", me], environment: env)
        }
        out.row("mail: generate a maildir of \(messages) messages", String(format: "%.1f s", made))
        let daemon = try DaemonRun(home: dir + "/mail/daemon", config: #"{"mail": {"me": ["\#(me)"]}}"#)
        defer { daemon.stop() }
        var ctlEnv = env
        ctlEnv["CONTACTSD_SOCKET"] = daemon.socket
        var summary = ""
        let ours = try timed {
            summary = try run(
                ctl, ["mail", "harvest", "--all", "--json", mail + "/INBOX", mail + "/Lists", mail + "/Archive"], environment: ctlEnv)
            _ = try run(ctl, ["mail", "harvest", "--sent", mail + "/Sent"], environment: ctlEnv)
        }
        let parsed = try? JSONParser.parse(Array(summary.utf8))
        out.row(
            "mail: contactsctl mail harvest of \(messages) messages",
            String(
                format: "%.2f s (%d collected, %d counted before, %d unreadable)", ours, parsed?["collected"]?.intValue ?? 0,
                parsed?["repeated"]?.intValue ?? 0, parsed?["unreadable"]?.intValue ?? 0))
        out.figures["mailHarvestSeconds"] = ours
        out.figures["mailHarvestRSSMiB"] = ServiceBench.rssMiB(daemon.process.processIdentifier)
        guard let notmuch = ServiceBench.which("notmuch") else {
            out.row("mail: notmuch new + notmuch address", "skipped: notmuch is not installed")
            return
        }
        let config = dir + "/mail/notmuch-config"
        try "[database]\npath=\(mail)\n[user]\nprimary_email=\(me)\n[new]\ntags=new\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        var nmEnv = env
        nmEnv["NOTMUCH_CONFIG"] = config
        var listed = ""
        let theirs = try timed {
            _ = try run(notmuch, ["new", "--quiet"], environment: nmEnv)
            listed = try run(
                notmuch, ["address", "--output=sender", "--output=recipients", "--deduplicate=address", "*"], environment: nmEnv)
        }
        let lines = listed.split(separator: "\n").count
        out.row(
            "mail: notmuch new + notmuch address, the same maildir", String(format: "%.2f s (%d addresses)", theirs, lines))
        out.row("mail: notmuch / contactsctl harvest", String(format: "%.1fx", theirs / max(ours, 0.001)))
        out.figures["mailNotmuchSeconds"] = theirs
        out.figures["mailHarvestRatio"] = theirs / max(ours, 0.001)
    }

    /// `collected` people of the corpus (each with an address) collected from mail.
    static func people(_ contacts: [Contact], _ collected: Int) -> [(name: String, address: String)] {
        contacts.prefix(collected).enumerated().map { i, c in
            (c.name, c.emails.first?.value ?? "person\(i)@example.org")
        }
    }

    static func query(_ contacts: [Contact], collected: Int, scratch dir: String, into out: inout Report) throws {
        let people = people(contacts, collected)
        let home = dir + "/mail/query"
        var daemon = try DaemonRun(home: home)
        let client = try RPCClient(path: daemon.socket)
        for start in stride(from: 0, to: people.count, by: 1000) {
            let batch: [JSONValue] = people[start..<min(people.count, start + 1000)].enumerated().map { i, p in
                [
                    "id": .string("bench-\(start + i)@example.org"), "date": .int(1_760_000_000_000 + (start + i) * 60_000),
                    "from": [["address": .string(p.address), "name": .string(p.name)]],
                ]
            }
            _ = try client.call("mail.add", ["messages": .array(batch)])
        }
        // At rest after a restart: the ranks are read at the first query, not before.
        daemon.stop()
        daemon = try DaemonRun(home: home)
        defer { daemon.stop() }
        _ = try RPCClient(path: daemon.socket).call("contacts.query", ["limit": 10])
        usleep(UInt32((Double(ProcessInfo.processInfo.environment["BENCH_IDLE_SECONDS"] ?? "") ?? 3) * 1_000_000))
        let atRest = ServiceBench.rssMiB(daemon.process.processIdentifier)
        // The most frequent surname among them, as a person types it.
        var counts: [String: Int] = [:]
        for p in people { if let last = p.name.split(separator: " ").last { counts[last.lowercased(), default: 0] += 1 } }
        let text = counts.filter { $0.key.count >= 4 && $0.key.allSatisfy(\.isLetter) }.max { $0.value < $1.value }?.key ?? "smith"
        var env = ProcessInfo.processInfo.environment
        env["CONTACTSD_SOCKET"] = daemon.socket
        // The peers hold the same people: lbdb's m_inmail database (what lbdb-fetchaddr fills)
        // and an abook address book.
        var peers: [(row: String, figure: String, path: String, args: [String], env: [String: String])] = []
        if let lbdbq = ServiceBench.which("lbdbq") {
            let lbdbHome = dir + "/mail/lbdb"
            try FileManager.default.createDirectory(atPath: lbdbHome + "/.lbdb", withIntermediateDirectories: true)
            try "METHODS=\"m_inmail\"\n".write(toFile: lbdbHome + "/.lbdb/lbdbrc", atomically: true, encoding: .utf8)
            let lines = people.map { "\($0.address)\t\($0.name)\t2026-01-01 10:00\n" }.joined()
            try lines.write(toFile: lbdbHome + "/.lbdb/m_inmail.utf-8", atomically: true, encoding: .utf8)
            var lbdbEnv = ProcessInfo.processInfo.environment
            lbdbEnv["HOME"] = lbdbHome
            peers.append(("lbdbq '\(text)' (m_inmail, the same people)", "mailLbdbq", lbdbq, [text], lbdbEnv))
        }
        if let abook = ServiceBench.which("abook") {
            let book = dir + "/mail/abook.addressbook"
            let asContacts = people.map { p -> Contact in
                var c = Contact(name: p.name)
                c.emails = [LabeledValue(value: p.address)]
                return c
            }
            try ServiceBench.writeAbook(asContacts, to: book)
            var abookEnv = ProcessInfo.processInfo.environment
            abookEnv["HOME"] = dir + "/mail"
            peers.append(
                (
                    "abook --mutt-query '\(text)' (the same people)", "mailAbook", abook, ["--datafile", book, "--mutt-query", text],
                    abookEnv
                ))
        }
        // Each measured twice, best of 20 each time. In a row: the runs of one after another,
        // as a benchmark tool runs them, the machine warm. In turns: one run of each, then
        // again, as a mail client runs one after a person has typed: on this kind of VM, a
        // core that was idle (or busy with another program) runs the first milliseconds of
        // work two to three times slower, which a 13 ms shell pipeline hardly notices and a
        // query answered in one does.
        let commands: [(path: String, args: [String], env: [String: String])] =
            [(ctl, ["query-email", text], env)] + peers.map { ($0.path, $0.args, $0.env) }
        let inARow = commands.map { ServiceBench.commandMillis($0.path, $0.args, environment: $0.env, runs: 20) }
        var inTurns = [Double](repeating: .infinity, count: commands.count)
        for _ in 0..<20 {
            for (k, c) in commands.enumerated() {
                inTurns[k] = min(inTurns[k], ServiceBench.commandMillis(c.path, c.args, environment: c.env, runs: 1))
            }
        }
        let afterQueries = ServiceBench.rssMiB(daemon.process.processIdentifier)
        let found = ServiceBench.output(ctl, ["query-email", text], environment: env).split(separator: "\n").count - 1
        out.row(
            "mail: query-email '\(text)' with \(people.count) collected addresses, in a row / in turns (best of 20)",
            String(format: "%.1f / %.1f ms (%d addresses)", inARow[0], inTurns[0], found))
        out.row("mail: daemon RSS at rest with them / after queries", String(format: "%.1f / %.1f MiB", atRest, afterQueries))
        out.figures["mailQueryEmailMs"] = inARow[0]
        out.figures["mailQueryEmailInTurnsMs"] = inTurns[0]
        out.figures["mailRSSAtRestMiB"] = atRest
        for (k, p) in peers.enumerated() {
            let (row, turns) = (inARow[k + 1], inTurns[k + 1])
            out.row(
                "mail: \(p.row), in a row / in turns",
                String(format: "%.1f ms (%.1fx) / %.1f ms (%.1fx)", row, row / max(inARow[0], 0.001), turns, turns / max(inTurns[0], 0.001))
            )
            out.figures[p.figure + "Ms"] = row
            out.figures[p.figure + "Ratio"] = row / max(inARow[0], 0.001)
            out.figures[p.figure + "InTurnsRatio"] = turns / max(inTurns[0], 0.001)
        }
    }
}
