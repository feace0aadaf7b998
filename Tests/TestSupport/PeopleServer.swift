import Foundation

/// `Tests/fakes/people_fake.py`, Google's People API as documented, on a free port of
/// 127.0.0.1, and the requests a test makes of it: as the user's phone (its own token), and
/// to move its clock, inject faults and count what it was asked.
public final class PeopleServer: @unchecked Sendable {
    /// The bearer tokens it takes: contactsd's, and the phone's.
    public let token = "good-token"
    public let phoneToken = "phone-token"
    public let port: Int
    private let process: Process
    private let logPath: String

    public var root: URL {
        var c = URLComponents()
        (c.scheme, c.host, c.port, c.path) = ("http", "127.0.0.1", port, "/")
        return c.url ?? URL(fileURLWithPath: "/")
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `lag`: seconds before a write is seen by sync-token listings.
    public init(lag: Double = 0) throws {
        port = try DAVServer.freePort()
        logPath = NSTemporaryDirectory() + "people-fake-\(port).log"
        FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fakes/people_fake.py").path
        process.arguments = [script, String(port), "--lag", String(lag)]
        let log = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !DAVServer.accepts(port) {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw Failure(description: "the People API fake did not start: \(self.log)")
            }
            usleep(50_000)
        }
    }

    deinit { stop() }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: logPath)
    }

    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// A request as the phone (or, for `/_test/`, to the fake itself); the answer's status and JSON.
    @discardableResult
    public func call(_ method: String, _ path: String, _ body: Any? = nil) throws -> (status: Int, json: Any?) {
        // A fault injected for the sync is met by the phone too: it tries again, as phones do.
        for _ in 0..<5 {
            let r = try once(method, path, body)
            guard r.status == 429 || r.status == 503 else { return r }
        }
        return try once(method, path, body)
    }

    private func once(_ method: String, _ path: String, _ body: Any?) throws -> (status: Int, json: Any?) {
        var args = ["-s", "-X", method, "-H", "Authorization: Bearer \(phoneToken)", "-w", "\n%{http_code}", "--max-time", "20"]
        if let body {
            args += ["-H", "Content-Type: application/json", "--data-binary", "@-"]
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = args + [root.absoluteString + (path.hasPrefix("/") ? String(path.dropFirst()) : path)]
        let out = Pipe()
        let input = Pipe()
        p.standardOutput = out
        p.standardInput = input
        try p.run()
        if let body { input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: body)) }
        try input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let status = Int(text.split(separator: "\n").last ?? "") ?? 0
        let json = text.split(separator: "\n").dropLast().joined(separator: "\n")
        return (status, try? JSONSerialization.jsonObject(with: Data(json.utf8)))
    }

    /// Every person and group the fake holds.
    public func people() throws -> [[String: Any]] {
        ((try call("GET", "/_test/people").json as? [String: Any])?["people"] as? [[String: Any]]) ?? []
    }

    public func groups() throws -> [String: [String: Any]] {
        ((try call("GET", "/_test/people").json as? [String: Any])?["groups"] as? [String: [String: Any]]) ?? [:]
    }

    /// The API requests answered so far, by method and resource (`GET connections`).
    public func requests() throws -> [String: Int] { (try call("GET", "/_test/requests").json as? [String: Int]) ?? [:] }

    /// Moves the fake's clock on.
    public func advance(seconds: Double) throws { try call("POST", "/_test/clock", ["advance": seconds]) }

    /// The next `count` API requests are answered with `status` (and `Retry-After`).
    public func fail(next count: Int, status: Int = 429, retryAfter: Int? = nil) throws {
        var body: [String: Any] = ["status": status, "count": count]
        if let retryAfter { body["retryAfter"] = retryAfter }
        try call("POST", "/_test/faults", body)
    }

    /// The phone makes a person; returns its resource name.
    public func create(_ person: [String: Any]) throws -> String {
        let r = try call(
            "POST", "/v1/people:batchCreateContacts", ["contacts": [["contactPerson": person]], "readMask": "names"])
        let created = ((r.json as? [String: Any])?["createdPeople"] as? [[String: Any]])?.first?["person"] as? [String: Any]
        guard let name = created?["resourceName"] as? String else { throw Failure(description: "not made: \(r)") }
        return name
    }

    /// The phone changes fields of a person (read first for its etag).
    public func update(_ name: String, mask: String, _ fields: [String: Any]) throws {
        let current = try XCTUnwrapPerson(name)
        var person = fields
        person["etag"] = current["etag"]
        let r = try call("POST", "/v1/people:batchUpdateContacts", ["contacts": [name: person], "updateMask": mask, "readMask": "names"])
        guard r.status == 200 else { throw Failure(description: "not updated: \(r)") }
    }

    public func person(_ name: String) throws -> [String: Any]? {
        let r = try call(
            "GET", "/v1/\(name)?personFields=names,emailAddresses,phoneNumbers,memberships,organizations,biographies,clientData")
        return r.status == 200 ? r.json as? [String: Any] : nil
    }

    private func XCTUnwrapPerson(_ name: String) throws -> [String: Any] {
        guard let p = try person(name) else { throw Failure(description: "no \(name)") }
        return p
    }

    public func delete(_ names: [String]) throws {
        let r = try call("POST", "/v1/people:batchDeleteContacts", ["resourceNames": names])
        guard r.status == 200 else { throw Failure(description: "not deleted: \(r)") }
    }
}
