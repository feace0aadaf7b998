import Foundation
import Glibc
import JSONCore
import JSONRPC
import TestSupport
import XCTest

/// The built contactsd, driven through its socket.
final class ServiceTests: DaemonTestCase {
    func testReadiness_isAnnouncedWithAStatusLineAndTheSocketIsTheOwnersAlone() throws {
        XCTAssertTrue(daemon.notify?.messages.contains { $0.contains("READY=1") && $0.contains("STATUS=") } ?? false)
        var st = stat()
        XCTAssertEqual(stat(daemon.socketPath, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(stat(daemon.dataDir, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        for file in ["contacts.sqlite3", "contacts.sqlite3-wal", "contactsd.lock"] {
            XCTAssertEqual(stat(daemon.dataDir + "/" + file, &st), 0, file)
            XCTAssertEqual(st.st_mode & 0o777, 0o600, file)
        }
    }

    func testJemallocServesTheDaemonsHeap() throws {
        // A sanitizer's build has the sanitizer's allocator.
        if try Products.path("contactsd").contains("/.build-") { throw XCTSkip("a sanitizer build allocates with the sanitizer") }
        daemon.stop()
        try daemon.start(extraArgs: ["--log-level", "debug"])
        XCTAssertTrue(daemon.log.contains("heap: jemalloc 5."), daemon.log)
    }

    func testTheJSONRPCConformanceSuitePasses() throws {
        let script = try SharedMaterial.file("conformance/jsonrpc_conformance.py").path
        let r = try runProgram("/usr/bin/env", ["python3", script, daemon.socketPath], environment: daemon.environment, timeout: 60)
        print(r.stdout)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains(" 0 failed"), r.stdout)
        XCTAssertFalse(r.stdout.contains("validation skipped"), "jsonschema must be installed so that rpc.discover is validated")
    }

    func testApplicationErrorsCarryTheirCodesAndSayWhere() throws {
        let c = try daemon.client()
        func code(_ method: String, _ params: JSONObject) -> (Int, JSONValue?) {
            do {
                _ = try c.call(method, params)
                return (0, nil)
            } catch let e as RPCError {
                return (e.code.rawValue, e.data)
            } catch {
                return (-1, nil)
            }
        }
        XCTAssertEqual(code("contacts.create", ["contact": ["name": "  "]]).0, -32003)
        XCTAssertEqual(
            code("contacts.create", ["contact": ["name": "A", "phones": [["value": 5]]]]).1?["field"], "contact.phones[0].value")
        XCTAssertEqual(code("contacts.create", ["contact": ["name": "A", "phones": [["value": 5]]]]).0, -32602)
        XCTAssertEqual(code("contacts.create", [:]).0, -32602)
        XCTAssertEqual(code("contacts.get", ["id": "nope"]).0, -32001)
        XCTAssertEqual(code("contacts.query", ["limit": -1]).0, -32602)
        XCTAssertEqual(code("contacts.query", ["limit": "ten"]).0, -32602)
        XCTAssertEqual(code("contacts.query", ["sort": [["field": "age"]]]).0, -32602)
        let created = try c.call("contacts.create", ["contact": ["name": "Kate Bell"]])
        let id = created["id"] ?? .null
        XCTAssertEqual(code("contacts.update", ["id": id, "changes": ["title": "CEO"], "ifRevision": 7]).0, -32002)
        XCTAssertEqual(code("contacts.update", ["id": id, "changes": ["title": "CEO"], "ifRevision": 1]).0, 0)
        XCTAssertEqual(code("groups.create", ["name": "Work"]).0, 0)
        XCTAssertEqual(code("groups.create", ["name": "WORK"]).0, -32002)
        XCTAssertEqual(code("groups.delete", ["id": "nope"]).0, -32001)
        XCTAssertEqual(try c.call("contacts.get", ["id": id])["title"], "CEO")
    }

    func testSubscribersHearOfChangesMadeOnOtherConnections() throws {
        let subscriber = try daemon.client()
        XCTAssertEqual(try subscriber.call("events.subscribe")["subscribed"], true)
        let writer = try daemon.client()
        let created = try writer.call("contacts.create", ["contact": ["name": "Anna Haro", "groups": ["Friends"]]])
        var seen: [String: JSONValue] = [:]
        while seen.count < 2 {
            let m = try subscriber.readMessage()
            if let method = m["method"]?.stringValue { seen[method] = m["params"] }
        }
        let change = seen["contacts.changed"]?["changes"]?.arrayValue?.first
        XCTAssertEqual(change?["id"], created["id"])
        XCTAssertEqual(change?["change"], "created")
        XCTAssertEqual(change?["revision"], 1)
        XCTAssertEqual(seen["groups.changed"]?["changes"]?.arrayValue?.first?["name"], "Friends")
    }

    func testSIGTERMStopsCleanlyAndARestartKeepsEverything() throws {
        let c = try daemon.client()
        for i in 0..<20 {
            _ = try c.call("contacts.create", ["contact": ["name": .string("Person \(i)"), "email": .string("p\(i)@example.com")]])
        }
        _ = try c.call("contacts.create", ["contact": ["name": "Zoë Ångström", "favorite": true, "groups": ["Family"]]])
        let started = Date()
        XCTAssertEqual(daemon.stop(), 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertTrue(daemon.notify?.wait(for: "STOPPING=1", timeout: 1) ?? false)
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.socketPath), "the socket file is removed")
        try daemon.start()
        let c2 = try daemon.client()
        XCTAssertEqual(try c2.call("contacts.query", [:])["total"], 21)
        let zoe = try c2.call("contacts.query", ["text": "zoe"])["contacts"]?.arrayValue?.first
        XCTAssertEqual(zoe?["favorite"], true)
        XCTAssertEqual(zoe?["groups"], ["Family"])
    }

    func testASecondDaemonOnTheSameDataExitsAtOnceNamingTheFirst() throws {
        let r = try runProgram(
            try Products.path("contactsd"), ["--socket", daemon.home + "/run/other.sock"], environment: daemon.environment, timeout: 10)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("pid \(daemon.process?.processIdentifier ?? -1)"), r.stderr)
        XCTAssertEqual(try daemon.client().call("daemon.status")["contacts"], 0, "the first keeps serving")
    }

    func testSocketActivation_servesOnThePassedSocket() throws {
        let activate = "/usr/bin/systemd-socket-activate"
        guard FileManager.default.isExecutableFile(atPath: activate) else { throw XCTSkip("systemd-socket-activate is not installed") }
        daemon.stop()
        let path = daemon.home + "/run/activated.sock"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: activate)
        p.arguments = [
            "-l", path, try Products.path("contactsd"), "--socket", daemon.home + "/run/unused.sock", "--data-dir", daemon.dataDir,
        ]
        p.environment = daemon.environment
        FileManager.default.createFile(atPath: daemon.logPath, contents: nil)
        p.standardError = FileHandle(forWritingAtPath: daemon.logPath)
        try p.run()
        defer {
            let t = Date()
            p.terminate()
            p.waitUntilExit()
            print("socket-activated daemon stopped in \(Date().timeIntervalSince(t)) s; status \(p.terminationStatus)")
            print(daemon.log)
        }
        var client: RPCClient?
        for _ in 0..<100 where client == nil {
            client = try? RPCClient(path: path)
            if client == nil { usleep(50_000) }
        }
        let status = try XCTUnwrap(client).call("daemon.status")
        XCTAssertEqual(status["contacts"], 0)
        XCTAssertEqual(status["socket"]?.stringValue, path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.home + "/run/unused.sock"), "no socket of its own")
    }

    func testGarbageAndOversizedInputNeverHurtTheDaemon() throws {
        daemon.stop()
        try daemon.start(extraArgs: ["--max-line-bytes", "4096"])
        let bad = try daemon.client()
        try bad.sendRaw([0xFF, 0xFE, 0x00, 0x7B, 0x0A])
        XCTAssertEqual(try bad.readMessage()["error"]?["code"], -32700)
        try bad.sendRaw(Array((String(repeating: "[", count: 3000) + "\n").utf8))
        XCTAssertEqual(try bad.readMessage()["error"]?["code"], -32700)
        try bad.sendRaw(Array(String(repeating: "x", count: 10_000).utf8))
        XCTAssertEqual(try bad.readMessage()["error"]?["code"], -32600)
        XCTAssertThrowsError(try bad.readMessage())
        XCTAssertEqual(try daemon.client().call("daemon.status")["contacts"], 0)
    }
}
