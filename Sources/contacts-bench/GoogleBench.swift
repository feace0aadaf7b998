import CardDAV
import ContactsCore
import ContactsStore
import ContactsSync
import Foundation
import GooglePeople
import JSONCore

/// A Google account through the People API, played by the tests' fake
/// (`Tests/fakes/people_fake.py`, faithful to Google's paging and batch limits), synced by the
/// daemon's engine and backend with a real store: the goals are request counts, which no
/// machine's noise moves. A first download of the corpus's people (10,000 at most), a sync
/// with nothing new, and 1,000 contacts made here going up.
enum GoogleBench {
    static var fake: String {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Tests/fakes/people_fake.py").path
    }

    static func measure(_ contacts: [Contact], scratch dir: String) throws -> Report {
        var out = Report()
        guard FileManager.default.fileExists(atPath: fake) else {
            out.row("Google (People API)", "skipped: run from the repository (\(fake) is missing)")
            return out
        }
        let people = Array(contacts.prefix(10_000))
        let server = try FakeServer(script: fake)
        defer { server.stop() }
        for start in stride(from: 0, to: people.count, by: 2000) {
            _ = try server.post("/_test/seed", ["people": .array(people[start..<min(people.count, start + 2000)].map(person))])
        }
        let store = try ContactStore(path: dir + "/google.sqlite3")
        defer { store.close() }
        var account = SyncAccount(name: "google", url: "bench@example.com", addressBookURL: server.root)
        account.peopleAPI = true
        try store.addAccount(account)
        guard let root = URL(string: server.root) else { return out }
        let backend = {
            PeopleBackend(
                client: PeopleClient(root: root, http: HTTPClient(credentials: .bearer("good-token"), for: root)),
                labelsFile: dir + "/google.labels.json")
        }
        let engine = SyncEngine(store: store)
        func sync() throws -> SyncReport { try engine.sync(try store.account(named: "google"), with: backend()) }
        func requests() throws -> [String: Int] {
            var counts: [String: Int] = [:]
            for m in try server.get("/_test/requests").objectValue ?? JSONObject() { counts[m.key] = m.value.intValue ?? 0 }
            return counts
        }
        func delta(_ keys: [String], _ a: [String: Int], _ b: [String: Int]) -> Int {
            keys.reduce(0) { $0 + (b[$1] ?? 0) - (a[$1] ?? 0) }
        }
        let before = try requests()
        let first = try sync()
        let lists = delta(["GET connections"], before, try requests())
        out.row(
            "Google: first download of \(people.count) people: list requests (goal ≤ \(people.count / 1000 + 1)), all requests",
            "\(lists), \(first.requests)")
        out.figures["googleFirstDownloadListRequests"] = Double(lists)
        out.figures["googleFirstDownloadRequests"] = Double(first.requests)
        let noOp = try sync().requests
        out.row("Google: a sync with nothing new: requests (goal 1)", "\(noOp)")
        out.figures["googleNoOpRequests"] = Double(noOp)
        var made: [Contact] = []
        for i in 0..<1000 {
            var c = Contact(name: "\(contacts[(people.count + i) % contacts.count].name) \(i)")
            c.emails = contacts[(people.count + i) % contacts.count].emails
            made.append(c)
        }
        let stored = try store.create(made)
        _ = try store.addToAccount("google", ids: stored.map(\.id)) { PeopleBackend.hrefForNewCard(uid: $0.uid) }
        let beforeUp = try requests()
        let up = try sync()
        let writes = delta(
            ["POST people:batchCreateContacts", "POST people:batchUpdateContacts", "POST people:batchDeleteContacts"], beforeUp,
            try requests())
        out.row(
            "Google: \(made.count) contacts made here reach Google: write requests (goal ≤ 5), all requests",
            "\(writes), \(up.requests) (\(up.uploaded.created) made)")
        out.figures["googleWriteRequestsFor1000"] = Double(writes)
        return out
    }

    /// A contact as the phone made it on Google.
    static func person(_ c: Contact) -> JSONValue {
        var p: JSONObject = [:]
        let s = c.structuredName
        p["names"] = [["givenName": .string(s?.given ?? c.name), "familyName": .string(s?.family ?? "")]]
        if !c.emails.isEmpty { p["emailAddresses"] = .array(c.emails.map { ["value": .string($0.value), "type": "home"] }) }
        if !c.phones.isEmpty { p["phoneNumbers"] = .array(c.phones.map { ["value": .string($0.value), "type": "mobile"] }) }
        if let o = c.organization { p["organizations"] = [["name": .string(o)]] }
        return .object(p)
    }

    /// The fake, on a port of 127.0.0.1.
    final class FakeServer {
        let process = Process()
        let port = Int.random(in: 20000...60000)
        var root: String { "http://127.0.0.1:\(port)/" }

        init(script: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [script, String(port)]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(20)
            while (try? get("/_test/requests")) == nil {
                guard Date() < deadline, process.isRunning else {
                    throw NSError(domain: "bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "the People API fake did not start"])
                }
                usleep(50_000)
            }
        }

        func stop() {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }

        func get(_ path: String) throws -> JSONValue { try request("GET", path, nil) }
        func post(_ path: String, _ body: JSONObject) throws -> JSONValue { try request("POST", path, body) }

        private func request(_ method: String, _ path: String, _ body: JSONObject?) throws -> JSONValue {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            p.arguments = [
                "-sf", "-X", method, "-H", "Content-Type: application/json", "--data-binary", "@-", root + String(path.dropFirst()),
            ]
            let input = Pipe()
            let output = Pipe()
            p.standardInput = input
            p.standardOutput = output
            p.standardError = FileHandle.nullDevice
            try p.run()
            input.fileHandleForWriting.write(Data(JSONWriter.string(.object(body ?? JSONObject())).utf8))
            try input.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else { throw NSError(domain: "bench", code: Int(p.terminationStatus)) }
            return try JSONParser.parse([UInt8](data))
        }
    }
}
