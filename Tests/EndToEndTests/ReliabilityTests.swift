import Foundation
import Glibc
import JSONCore
import JSONRPC
import XCTest

/// Tests that try to break the daemon: crashes mid-import, racing writers, hostile clients,
/// and backups taken while it serves.
final class ReliabilityTests: DaemonTestCase {
    func cards(_ n: Int, prefix: String = "Person") -> String {
        var text = ""
        text.reserveCapacity(n * 120)
        for i in 0..<n {
            text +=
                "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:\(prefix)-\(i)\r\nFN:\(prefix) \(i)\r\nEMAIL:p\(i)@example.com\r\nEND:VCARD\r\n"
        }
        return text
    }

    func count() throws -> Int { try daemon.client().call("daemon.status")["contacts"]?.intValue ?? -1 }

    func waitFor(_ path: String, timeout: Double = 60) -> Bool { waitForFile(path, timeout: timeout) }

    func testKillingTheDaemonMidImportLosesNothingAndImportsTheFileExactlyOnce() throws {
        let inbox = daemon.dataDir + "/inbox"
        let staging = daemon.home + "/big.vcf"
        try cards(20_000).write(toFile: staging, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(staging, inbox + "/big.vcf"), 0)
        usleep(150_000)  // the import is under way (it takes seconds in a debug build)
        daemon.stop(signal: SIGKILL, timeout: 5)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: inbox + "/big.vcf")
                || FileManager.default.fileExists(atPath: inbox + "/imported/big.vcf"),
            "the file is in the inbox or imported, never lost")
        try daemon.start()
        XCTAssertTrue(waitFor(inbox + "/imported/big.vcf"))
        XCTAssertEqual(try count(), 20_000)
        XCTAssertFalse(FileManager.default.fileExists(atPath: inbox + "/imported/big (2).vcf"), "imported once")
    }

    func testKillingTheDaemonMidUndoLeavesAllOfItOrNone() throws {
        let c = try daemon.client()
        _ = try c.call("contacts.import", ["vcard": .string(cards(20_000))])
        XCTAssertEqual(try count(), 20_000)
        // The undo of the import, killed while it runs (it takes seconds in a debug build).
        let undoing = try daemon.client()
        try undoing.send(["jsonrpc": "2.0", "method": "changes.undo", "id": 1])
        usleep(300_000)
        daemon.stop(signal: SIGKILL, timeout: 5)
        try daemon.start()
        let live = try count()
        let trashed = try daemon.client().call("contacts.trash", ["limit": 0])["total"]?.intValue ?? -1
        XCTAssertTrue(
            (live, trashed) == (20_000, 0) || (live, trashed) == (0, 20_000), "all or none: \(live) live, \(trashed) in the trash")
        print("after a kill mid-undo: \(live) live, \(trashed) in the trash")
        if live == 20_000 {
            // Not undone: it can be undone now, whole.
            _ = try daemon.client().call("changes.undo")
            XCTAssertEqual(try count(), 0)
        }
    }

    func testSIGTERMMidImportStopsCleanlyAndTheImportCompletesAfterARestart() throws {
        let inbox = daemon.dataDir + "/inbox"
        let staging = daemon.home + "/big.vcf"
        try cards(20_000).write(toFile: staging, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(staging, inbox + "/big.vcf"), 0)
        usleep(150_000)
        XCTAssertEqual(daemon.stop(signal: SIGTERM, timeout: 30), 0)
        try daemon.start()
        XCTAssertTrue(waitFor(inbox + "/imported/big.vcf"))
        XCTAssertEqual(try count(), 20_000)
    }

    func testFortyWritersAtOnceLoseNothing() throws {
        let socket = daemon.socketPath
        final class Errors: @unchecked Sendable {
            let lock = NSLock()
            var list: [String] = []
            func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
        }
        let errors = Errors()
        DispatchQueue.concurrentPerform(iterations: 40) { w in
            do {
                let c = try RPCClient(path: socket)
                for i in 0..<25 {
                    _ = try c.call("contacts.create", ["contact": ["name": .string("Writer \(w) contact \(i)")]])
                }
            } catch {
                errors.add("\(error)")
            }
        }
        XCTAssertEqual(errors.list, [])
        XCTAssertEqual(try count(), 1000)
        XCTAssertEqual(try daemon.client().call("contacts.query", ["text": "writer 39 contact 24"])["total"], 1)
    }

    func testRacingUpdatesWithTheSameRevisionHaveExactlyOneWinner() throws {
        let created = try daemon.client().call("contacts.create", ["contact": ["name": "Contested"]])
        let id = created["id"] ?? .null
        let socket = daemon.socketPath
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var wins = 0, conflicts = 0, other = 0
        }
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: 20) { w in
            guard let c = try? RPCClient(path: socket) else { return }
            do {
                _ = try c.call("contacts.update", ["id": id, "changes": ["title": .string("Writer \(w)")], "ifRevision": 1])
                tally.lock.lock(); tally.wins += 1; tally.lock.unlock()
            } catch let e as RPCError where e.code.rawValue == -32002 {
                tally.lock.lock(); tally.conflicts += 1; tally.lock.unlock()
            } catch {
                tally.lock.lock(); tally.other += 1; tally.lock.unlock()
            }
        }
        XCTAssertEqual(tally.wins, 1)
        XCTAssertEqual(tally.conflicts, 19)
        XCTAssertEqual(tally.other, 0)
        XCTAssertEqual(try daemon.client().call("contacts.get", ["id": id])["revision"], 2)
    }

    func testHostileClientsGetErrorsOrClosedConnectionsAndEveryoneElseIsServed() throws {
        // Thousands of connections opened and dropped.
        for _ in 0..<2000 {
            let fd = try UnixSocket.connect(path: daemon.socketPath)
            close(fd)
        }
        // Random bytes, NUL bytes, invalid UTF-8, huge numbers, wrong types.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let c = try daemon.client()
            var junk = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }.filter { $0 != 0x0A }
            junk.append(0x0A)
            try c.sendRaw(junk)
            XCTAssertNotNil(try c.readMessage()["error"])
        }
        let c = try daemon.client()
        try c.sendRaw(Array("{\"jsonrpc\":\"2.0\",\"method\":\"contacts.get\",\"params\":{\"id\":\"a\u{0}b\"},\"id\":1}\n".utf8))
        XCTAssertEqual(try c.readMessage()["error"]?["code"], -32700, "a raw NUL in a string is not JSON")
        try c.sendRaw(Array(#"{"jsonrpc":"2.0","method":"contacts.create","params":{"contact":{"name":"a\u0000b"}},"id":1}"#.utf8) + [0x0A])
        XCTAssertEqual(try c.readMessage()["error"]?["code"], -32003, "an escaped NUL in a name is refused")
        try c.sendRaw(Array("{\"jsonrpc\":\"2.0\",\"method\":\"contacts.query\",\"params\":{\"limit\":1e999999},\"id\":2}\n".utf8))
        XCTAssertEqual(try c.readMessage()["error"]?["code"], -32602)
        // Every method, with every declared parameter given a value of the wrong type.
        let doc = try c.call("rpc.discover")
        for m in doc["methods"]?.arrayValue ?? [] {
            guard let name = m["name"]?.stringValue, name != "rpc.discover" else { continue }
            for p in m["params"]?.arrayValue ?? [] {
                guard let param = p["name"]?.stringValue else { continue }
                for wrong: JSONValue in [42, "text", true, ["a": 1], [1, 2], .number("-1e400")] {
                    do {
                        _ = try c.call(name, [param: wrong])
                    } catch let e as RPCError {
                        XCTAssertNotEqual(e.code.rawValue, -32603, "\(name).\(param) = \(wrong): \(e.message)")
                    }
                }
            }
        }
        XCTAssertEqual(try daemon.client().call("daemon.status")["version"]?.stringValue?.isEmpty, false)
    }

    func testABackupTakenWhileServingRestoresEverything() throws {
        let c = try daemon.client()
        _ = try c.call("contacts.import", ["vcard": .string(cards(300))])
        _ = try c.call("contacts.create", ["contact": ["name": "Zoë Ångström", "groups": ["Family"], "favorite": true]])
        let file = daemon.home + "/backup.sqlite3"
        let r = try daemon.ctl("backup", file)
        XCTAssertEqual(r.status, 0, r.stderr)
        var st = stat()
        XCTAssertEqual(stat(file, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        // Lose things, then restore.
        let zoe = try XCTUnwrap(try c.call("contacts.query", ["text": "zoe"])["contacts"]?.arrayValue?.first)
        _ = try c.call("contacts.delete", ["ids": [zoe["id"] ?? .null]])
        _ = try c.call("contacts.create", ["contact": ["name": "Added after the backup"]])
        let subscriber = try daemon.client()
        _ = try subscriber.call("events.subscribe")
        XCTAssertEqual(try daemon.ctl("restore", "--yes", file).status, 0)
        XCTAssertEqual(try count(), 301)
        let back = try c.call("contacts.query", ["text": "zoe"])["contacts"]?.arrayValue?.first
        XCTAssertEqual(back?["groups"], ["Family"])
        XCTAssertEqual(back?["favorite"], true)
        XCTAssertEqual(try c.call("contacts.query", ["text": "after the backup"])["total"], 0)
        XCTAssertEqual(try subscriber.readMessage()["method"], "contacts.reset")
    }

    func testBackupAndRestorePathsAreCheckedWithCare() throws {
        let c = try daemon.client()
        func code(_ method: String, _ path: String) -> Int {
            do {
                _ = try c.call(method, ["path": .string(path)])
                return 0
            } catch let e as RPCError {
                return e.code.rawValue
            } catch {
                return -1
            }
        }
        let target = daemon.home + "/precious.txt"
        try "do not overwrite".write(toFile: target, atomically: true, encoding: .utf8)
        let link = daemon.home + "/link.sqlite3"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        XCTAssertEqual(code("contacts.backup", link), -32003, "a symlink is not followed")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "do not overwrite")
        XCTAssertEqual(code("contacts.backup", daemon.home), -32003, "a directory")
        XCTAssertEqual(code("contacts.backup", "relative.sqlite3"), -32003)
        XCTAssertEqual(code("contacts.backup", daemon.home + "/missing/dir/x.sqlite3"), -32003)
        XCTAssertEqual(code("contacts.restore", target), -32003, "not a contacts backup")
        XCTAssertEqual(code("contacts.restore", "/dev/zero"), -32003, "not a regular file")
        XCTAssertEqual(code("contacts.import", "/dev/zero"), -32003)
        XCTAssertEqual(code("contacts.import", link), -32003)
        XCTAssertEqual(try count(), 0)
    }
}
