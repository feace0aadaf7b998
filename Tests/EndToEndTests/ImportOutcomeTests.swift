import Foundation
import Glibc
import JSONCore
import XCTest

/// What `contactsctl import` says and leaves: Ctrl-C cancels an import and nothing of it
/// stays; a file with nothing to import is an error naming it; a CSV is known by its content.
final class ImportOutcomeTests: DaemonTestCase {
    func total() throws -> Int {
        try JSONParser.parse(try daemon.ctl("list", "--json", "--limit", "0").stdout)["total"]?.intValue ?? -1
    }

    func testCtrlCCancelsTheImportAndNothingOfItStays() throws {
        // Large enough that a debug or release daemon is still at it a moment after it starts.
        var text = ""
        text.reserveCapacity(150_000 * 120)
        for i in 0..<150_000 {
            text += "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:big-\(i)\r\nFN:Person \(i)\r\nTEL:+1 555 \(100_000 + i)\r\nEND:VCARD\r\n"
        }
        let file = daemon.dataDir + "/big.vcf"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Products.path("contactsctl"))
        p.arguments = ["import", file]
        p.environment = daemon.environment
        let stderr = Pipe()
        p.standardError = stderr
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // The daemon has begun: its log says so at debug level; a moment is enough at any level.
        usleep(700_000)
        XCTAssertTrue(p.isRunning, "the import ended before it could be interrupted; make the file larger")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        let said = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(said.contains("interrupted: contactsd cancels the import of \(file) and keeps nothing of it"), said)
        // The daemon notices at its next batch and rolls back; then nothing is there, and stays so.
        let deadline = Date().addingTimeInterval(20)
        while !daemon.log.contains("cancelled, its client left") && Date() < deadline { usleep(100_000) }
        XCTAssertTrue(daemon.log.contains("cancelled, its client left"), daemon.log)
        XCTAssertEqual(try total(), 0)
        sleep(1)
        XCTAssertEqual(try total(), 0)
        XCTAssertEqual(try daemon.ctl("status").status, 0, "the daemon goes on")
    }

    func testAFileWithNothingToImportIsAnErrorNamingIt() throws {
        let plain = daemon.dataDir + "/plain.vcf"
        try "just some words\nand no card\n".write(toFile: plain, atomically: true, encoding: .utf8)
        let r = try daemon.ctl("import", plain)
        XCTAssertEqual(r.status, 1, r.stdout)
        XCTAssertTrue(r.stderr.contains("plain.vcf") && r.stderr.contains("no vCard, CSV or JSON found"), r.stderr)
        // Among other files, it is said and the others are imported.
        let good = daemon.dataDir + "/good.vcf"
        try "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Good Card\r\nEND:VCARD\r\n".write(toFile: good, atomically: true, encoding: .utf8)
        let both = try daemon.ctl("import", plain, good)
        XCTAssertEqual(both.status, 1)
        XCTAssertTrue(both.stdout.contains("good.vcf: 1 created"), both.stdout + both.stderr)
        XCTAssertTrue(both.stderr.contains("plain.vcf"), both.stderr)
        let empty = daemon.dataDir + "/empty.vcf"
        try "\n  \n".write(toFile: empty, atomically: true, encoding: .utf8)
        let e = try daemon.ctl("import", empty)
        XCTAssertEqual(e.status, 1)
        XCTAssertTrue(e.stderr.contains("empty.vcf: the file is empty"), e.stderr)
        let stdin = try daemon.ctl("import", "-", stdin: "")
        XCTAssertEqual(stdin.status, 1)
        XCTAssertTrue(stdin.stderr.contains("standard input is empty"), stdin.stderr)
    }

    func testAGoogleCSVIsKnownByItsContentWhateverItsName() throws {
        let csv = "Name,Given Name,Family Name,E-mail 1 - Value\nKate Bell,Kate,Bell,kate@example.com\n"
        for name in ["google.txt", "google"] {
            let path = daemon.dataDir + "/" + name
            try csv.write(toFile: path, atomically: true, encoding: .utf8)
            let r = try daemon.ctl("import", path)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains(name == "google.txt" ? "1 created" : "1 unchanged"), r.stdout)
        }
        XCTAssertEqual(try total(), 1)
    }
}
