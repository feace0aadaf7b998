import ContactsSupport
import Foundation
import Glibc
import JSONCore
import JSONRPC
import XCTest

/// Exports through the real daemon and contactsctl: a large one arrives in `export.chunk`
/// notifications or is written by the daemon into a file, never as one string; a path is
/// checked as a backup's is; a write that fails leaves what was there.
final class ExportTests: DaemonTestCase {
    /// 1,500 people whose notes make an export of about 2.5 MiB, the first with two emails.
    func importPeople(_ count: Int = 1_500) throws {
        let note = String(repeating: "A line of notes that goes on. ", count: 50)
        let people: [JSONValue] = (0..<count).map { i in
            var emails: [JSONValue] = [["value": .string("person\(i)@example.org")]]
            if i == 0 { emails.append(["value": "second@example.org", "label": "work"]) }
            return ["name": .string("Person \(String(format: "%05d", i))"), "emails": .array(emails), "note": .string(note)]
        }
        let report = try daemon.client().call("contacts.import", ["json": .array(people)])
        XCTAssertEqual(report["created"]?.intValue, count)
    }

    /// The export's chunks in the order they came, and its reply.
    func chunkedExport(_ params: JSONObject) throws -> (chunks: [JSONObject], reply: JSONValue) {
        let c = try daemon.client()
        var chunks: [JSONObject] = []
        c.onNotification = { n in
            if n["method"]?.stringValue == "export.chunk", let p = n["params"]?.objectValue { chunks.append(p) }
        }
        let reply = try c.call("contacts.export", params)
        return (chunks, reply)
    }

    func testALargeExportArrivesInChunksOrAsAFileTheDaemonWrites() throws {
        try importPeople()
        let (chunks, reply) = try chunkedExport(["format": "vcard4"])
        XCTAssertGreaterThanOrEqual(chunks.count, 2)
        XCTAssertEqual(chunks.map { $0["index"]?.intValue }, (0..<chunks.count).map { $0 })
        XCTAssertNil(reply["data"], "the text came in the chunks")
        XCTAssertEqual(reply["count"]?.intValue, 1_500)
        XCTAssertEqual(reply["chunks"]?.intValue, chunks.count)
        let text = chunks.compactMap { $0["data"]?.stringValue }.joined()
        XCTAssertEqual(reply["bytes"]?.intValue, text.utf8.count)
        XCTAssertEqual(text.components(separatedBy: "BEGIN:VCARD").count - 1, 1_500)
        XCTAssertTrue(text.hasPrefix("BEGIN:VCARD") && text.contains("FN:Person 00000\r\n") && text.hasSuffix("END:VCARD\r\n"))
        // Cards are whole in order: Person 00000 first, 01499 last.
        XCTAssertLessThan(
            try XCTUnwrap(text.range(of: "FN:Person 00000")).lowerBound, try XCTUnwrap(text.range(of: "FN:Person 01499")).lowerBound)

        // The same text in a file the daemon writes, readable by its owner alone.
        let path = daemon.home + "/everyone.vcf"
        let written = try daemon.client().call("contacts.export", ["format": "vcard4", "path": .string(path)])
        XCTAssertEqual(written["path"]?.stringValue, path)
        XCTAssertEqual(written["count"]?.intValue, 1_500)
        XCTAssertEqual(written["bytes"]?.intValue, text.utf8.count)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text)
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)

        // contactsctl: to standard output as the chunks come, and into a file named relative
        // to where it runs.
        let out = try daemon.ctl("export")
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertEqual(out.stdout, text)
        let toFile = try runProgram(
            "/bin/sh", ["-c", "cd \"$HOME\" && \"$CTL\" --json export --format json --output people.json"],
            environment: daemon.environment.merging(["CTL": try Products.path("contactsctl")]) { $1 })
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        XCTAssertEqual(try JSONParser.parse(toFile.stdout)["count"], 1_500)
        let people = try JSONParser.parse(try FileIO.readRegularFile(daemon.home + "/people.json", limit: 1 << 30))
        XCTAssertEqual(people.arrayValue?.count, 1_500)
        XCTAssertEqual(people.arrayValue?.first?["emails"]?.arrayValue?.count, 2)

        // CSV, read twice from one snapshot: the header is as wide as the widest contact.
        let csv = try chunkedExport(["format": "csv"])
        let csvText = csv.chunks.compactMap { $0["data"]?.stringValue }.joined() + (csv.reply["data"]?.stringValue ?? "")
        let header = try XCTUnwrap(csvText.split(separator: "\r\n").first)
        XCTAssertTrue(header.hasSuffix("E-mail 2 - Type,E-mail 2 - Value"), String(header))
        XCTAssertTrue(csvText.contains(",Work,second@example.org\r\n"))
        XCTAssertEqual(csvText.components(separatedBy: "@example.org").count - 1, 1_501)
    }

    func testASmallExportIsOneReply() throws {
        _ = try daemon.ctl("add", "Ada Lovelace", "--email", "ada@example.org")
        let (chunks, reply) = try chunkedExport(["format": "vcard3"])
        XCTAssertEqual(chunks.count, 0)
        let data = try XCTUnwrap(reply["data"]?.stringValue)
        XCTAssertTrue(data.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\n") && data.contains("ada@example.org"), data)
        XCTAssertEqual(reply["count"]?.intValue, 1)
        XCTAssertEqual(reply["bytes"]?.intValue, data.utf8.count)
    }

    func testExportPathsAreCheckedAsABackupsAre() throws {
        _ = try daemon.ctl("add", "Ada Lovelace")
        let c = try daemon.client()
        try "keep".write(toFile: daemon.home + "/target", atomically: false, encoding: .utf8)
        symlink(daemon.home + "/target", daemon.home + "/link.vcf")
        mkdir(daemon.home + "/folder.vcf", 0o700)
        let refused = [
            ("relative.vcf", "not an absolute path"), (daemon.home + "/link.vcf", "symbolic link"),
            (daemon.home + "/folder.vcf", "is a directory"), (daemon.home + "/missing/out.vcf", "does not exist"),
        ]
        for (path, why) in refused {
            XCTAssertThrowsError(try c.call("contacts.export", ["path": .string(path)]), path) { e in
                let error = e as? RPCError
                XCTAssertEqual(error?.code.rawValue, -32003, path)
                XCTAssertTrue(error?.message.contains(why) == true, "\(path): \(error?.message ?? "")")
            }
        }
        XCTAssertEqual(try String(contentsOfFile: daemon.home + "/target", encoding: .utf8), "keep")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: daemon.home + "/folder.vcf"), [])
    }

    /// A full disk (a 64 KiB tmpfs; mounting one needs root) fails the export with the reason,
    /// and the file that was there stays as it was, with no temporary file beside it.
    func testAFullDiskLeavesTheFileThatWasThere() throws {
        try importPeople(200)
        let small = daemon.home + "/small"
        mkdir(small, 0o700)
        guard mount("tmpfs", small, "tmpfs", 0, "size=64k") == 0 else {
            throw XCTSkip("a tmpfs cannot be mounted here (\(String(cString: strerror(errno)))): the full-disk case is not run")
        }
        defer { umount(small) }
        let path = small + "/contacts.vcf"
        try "an older export".write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try daemon.client().call("contacts.export", ["path": .string(path)])) { e in
            let error = e as? RPCError
            XCTAssertEqual(error?.code.rawValue, -32003)
            XCTAssertTrue(error?.message.contains("No space left on device") == true, error?.message ?? "")
            XCTAssertEqual(error?.data?["path"]?.stringValue, path)
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "an older export")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: small), ["contacts.vcf"])
        // The daemon goes on.
        XCTAssertEqual(try daemon.client().call("daemon.status")["contacts"]?.intValue, 200)
    }

    /// A client that goes away in the middle of a chunked export costs the daemon nothing.
    func testAClientThatLeavesDuringAnExportDoesNotHurtTheDaemon() throws {
        try importPeople()
        for _ in 0..<3 {
            let fd = try UnixSocket.connect(path: daemon.socketPath)
            let request = #"{"jsonrpc":"2.0","id":1,"method":"contacts.export","params":{"format":"json"}}"# + "\n"
            _ = request.withCString { send(fd, $0, strlen($0), 0) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            XCTAssertGreaterThan(recv(fd, &buffer, buffer.count, 0), 0, "the first chunk starts")
            close(fd)
        }
        let status = try daemon.client().call("daemon.status")
        XCTAssertEqual(status["contacts"]?.intValue, 1_500)
        let again = try chunkedExport(["format": "json"])
        XCTAssertEqual(again.reply["count"]?.intValue, 1_500)
    }
}
