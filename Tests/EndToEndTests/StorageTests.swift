import Foundation
import Glibc
import JSONCore
import JSONRPC
import XCTest

/// Broken storage: a full disk, a damaged store.
final class StorageTests: FixtureTestCase {
    func testAFullDiskFailsTheWriteClearlyAndTheStoreStaysUsable() throws {
        let mountpoint = daemon.dataDir
        try FileManager.default.createDirectory(atPath: mountpoint, withIntermediateDirectories: true)
        let mount = try runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=4M,mode=0700", "tmpfs", mountpoint], environment: daemon.environment)
        guard mount.status == 0 else { throw XCTSkip("cannot mount a small tmpfs here: \(mount.stderr)") }
        defer {
            daemon.stop()
            _ = try? runProgram("/bin/umount", [mountpoint], environment: daemon.environment)
        }
        // A filler that can be removed later to make room again.
        let filler = mountpoint + "/filler"
        FileManager.default.createFile(atPath: filler, contents: Data(repeating: 0, count: 1 << 20))
        try daemon.start()
        let c = try daemon.client()
        var stored = 0
        var failure: RPCError?
        let note = String(repeating: "n", count: 60_000)
        for i in 0..<400 {
            do {
                _ = try c.call("contacts.create", ["contact": ["name": .string("Person \(i)"), "note": .string(note)]])
                stored += 1
            } catch let e as RPCError {
                failure = e
                break
            }
        }
        let e = try XCTUnwrap(failure, "the disk never filled")
        XCTAssertEqual(e.code.rawValue, -32006)
        XCTAssertTrue(e.message.contains("disk is full"), e.message)
        XCTAssertEqual(try c.call("contacts.query", ["limit": 0])["total"]?.intValue, stored, "every acknowledged write is there")
        try FileManager.default.removeItem(atPath: filler)
        _ = try c.call("contacts.create", ["contact": ["name": "After the space came back"]])
        XCTAssertEqual(try c.call("contacts.query", ["text": "space came back"])["total"], 1)
    }

    func testADamagedStoreStopsTheStartAndIsLeftAsItWas() throws {
        try FileManager.default.createDirectory(atPath: daemon.dataDir, withIntermediateDirectories: true)
        let db = daemon.dataDir + "/contacts.sqlite3"
        let junk = Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try junk.write(to: URL(fileURLWithPath: db))
        let r = try runProgram(try Products.path("contactsd"), [], environment: daemon.environment, timeout: 10)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("not a contacts database or is damaged"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: db)), junk)
    }
}
