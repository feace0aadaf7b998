import ContactsCore
import ContactsSupport
import Foundation
import Glibc
import JSONCore
import JSONRPC
import Thumbnails
import VipsImages
import XCTest

/// Broken storage: a full disk, a damaged store.
final class StorageTests: FixtureTestCase {
    /// Puts the data directory on a small tmpfs; the returned closure stops the daemon and
    /// unmounts it.
    func dataDirectoryOnSmallDisk(_ size: String) throws -> () -> Void {
        let mountpoint = daemon.dataDir
        try FileManager.default.createDirectory(atPath: mountpoint, withIntermediateDirectories: true)
        let mount = try runProgram(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", mountpoint], environment: daemon.environment)
        guard mount.status == 0 else { throw XCTSkip("cannot mount a small tmpfs here: \(mount.stderr)") }
        return { [daemon] in
            daemon?.stop()
            _ = try? runProgram("/bin/umount", [mountpoint], environment: daemon?.environment ?? [:])
        }
    }

    func testAFullDiskFailsTheWriteClearlyAndTheStoreStaysUsable() throws {
        let mountpoint = daemon.dataDir
        let unmount = try dataDirectoryOnSmallDisk("4M")
        defer { unmount() }
        // A filler that can be removed later to make room again.
        let filler = mountpoint + "/filler"
        _ = FileManager.default.createFile(atPath: filler, contents: Data(repeating: 0, count: 1 << 20))
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

    func testAPhotoThatDoesNotFitFailsClearlyAndTheOldOneStays() throws {
        let mountpoint = daemon.dataDir
        let unmount = try dataDirectoryOnSmallDisk("3M")
        defer { unmount() }
        try daemon.start()
        let c = try daemon.client()
        let id = try XCTUnwrap(try c.call("contacts.create", ["contact": ["name": "Kate Bell"]])["id"]?.stringValue)
        let small = try Images.synthesize(width: 64, height: 64)
        let hash = try c.call("contacts.setPhoto", ["id": .string(id), "data": .string(Data(small).base64EncodedString())])["photo"]?[
            "hash"]
        // Fill what is left, then offer a photo bigger than the room.
        let filler = mountpoint + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 1, count: 1 << 12)
        var written = 0
        while true {
            let n = write(fd, block, block.count)
            if n <= 0 { break }
            written += n
        }
        // Leave 100 KiB: room for the store's own small writes, not for the photo.
        XCTAssertEqual(ftruncate(fd, off_t(max(0, written - (100 << 10)))), 0)
        close(fd)
        let big = try Images.synthesize(width: 1000, height: 800, format: .png)
        XCTAssertGreaterThan(big.count, 200 << 10)
        do {
            _ = try c.call("contacts.setPhoto", ["id": .string(id), "data": .string(Data(big).base64EncodedString())])
            XCTFail("the photo fitted")
        } catch let e as RPCError {
            XCTAssertEqual(e.code.rawValue, -32006, e.message)
            XCTAssertTrue(e.message.contains("disk is full"), e.message)
        }
        XCTAssertEqual(try c.call("contacts.get", ["id": .string(id)])["photo"]?["hash"], hash)
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: mountpoint + "/photos").filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [], "no half-written file stays behind")
        try FileManager.default.removeItem(atPath: filler)
        XCTAssertEqual(
            try c.call("contacts.setPhoto", ["id": .string(id), "data": .string(Data(big).base64EncodedString())])["photo"]?["hash"]?
                .stringValue,
            "sha256:" + SHA256.hex(big))
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
