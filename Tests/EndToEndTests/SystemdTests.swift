import Foundation
import Glibc
import JSONCore
import JSONRPC
import XCTest

/// Living under systemd: configuration, reload, logging to the journal, watchdog, status.
final class SystemdTests: FixtureTestCase {
    var configPath: String { daemon.home + "/config/contactsd/config.json" }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: daemon.home + "/config/contactsd", withIntermediateDirectories: true)
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    func testABadConfigurationStopsTheStartWithAMessageNamingTheKey() throws {
        try writeConfig(#"{"logLevel": "info", "maxConnections": "many"}"#)
        let r = try runProgram(try Products.path("contactsd"), [], environment: daemon.environment, timeout: 10)
        XCTAssertEqual(r.status, 78)
        XCTAssertTrue(r.stderr.contains("'maxConnections'"), r.stderr)
        XCTAssertTrue(r.stderr.contains(configPath), r.stderr)
        try writeConfig(#"{"inboxx": "/tmp"}"#)
        let unknown = try runProgram(try Products.path("contactsd"), [], environment: daemon.environment, timeout: 10)
        XCTAssertEqual(unknown.status, 78)
        XCTAssertTrue(unknown.stderr.contains("'inboxx' is not a setting"), unknown.stderr)
        try writeConfig("{not json")
        XCTAssertEqual(try runProgram(try Products.path("contactsd"), [], environment: daemon.environment, timeout: 10).status, 78)
    }

    func testCommandLineOptionsWinOverTheFile() throws {
        try writeConfig(#"{"logLevel": "debug", "maxConnections": 3}"#)
        try daemon.start(extraArgs: ["--log-level", "warning"])
        XCTAssertEqual(try daemon.client().call("daemon.status")["logLevel"], "warning")
    }

    func testSIGHUPReloadsTheConfigurationAndABrokenFileChangesNothing() throws {
        try writeConfig(#"{"logLevel": "info"}"#)
        try daemon.start()
        let pid = try XCTUnwrap(daemon.process?.processIdentifier)
        try writeConfig(#"{"logLevel": "debug"}"#)
        kill(pid, SIGHUP)
        XCTAssertTrue(daemon.notify?.wait(for: "RELOADING=1") ?? false)
        XCTAssertTrue(waitUntil { (try? self.daemon.client().call("daemon.status")["logLevel"]) == "debug" })
        XCTAssertTrue(daemon.notify?.wait(for: "READY=1", count: 2) ?? false, "READY=1 again after the reload")
        try writeConfig(#"{"logLevel": 5}"#)
        kill(pid, SIGHUP)
        XCTAssertTrue(waitUntil { self.daemon.log.contains("configuration not reloaded") })
        XCTAssertEqual(try daemon.client().call("daemon.status")["logLevel"], "debug")
    }

    func testLogLinesCarryPriorityPrefixesWhenStderrIsTheJournal() throws {
        // JOURNAL_STREAM names stderr's device and inode; the fixture's stderr is its log file.
        FileManager.default.createFile(atPath: daemon.logPath, contents: nil)
        var st = stat()
        XCTAssertEqual(stat(daemon.logPath, &st), 0)
        try daemon.start(extraEnvironment: ["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)"], keepLog: true)
        XCTAssertTrue(daemon.log.hasPrefix("<6>serving 0 contacts"), daemon.log)
    }

    func testPlainLogLinesOtherwise() throws {
        try daemon.start()
        XCTAssertTrue(daemon.log.hasPrefix("contactsd: info: serving 0 contacts"), daemon.log)
    }

    func testTheWatchdogIsFedWhenAskedFor() throws {
        try daemon.start(extraEnvironment: ["WATCHDOG_USEC": "200000"])
        XCTAssertTrue(daemon.notify?.wait(for: "WATCHDOG=1", timeout: 3) ?? false)
    }

    func testNoWatchdogPingsWhenNotAskedFor() throws {
        try daemon.start()
        usleep(300_000)
        XCTAssertFalse(daemon.notify?.wait(for: "WATCHDOG=1", timeout: 0.5) ?? true)
    }

    func testTheStatusLineFollowsChanges() throws {
        try daemon.start()
        XCTAssertTrue(daemon.notify?.messages.first?.contains("STATUS=Serving 0 contacts in 0 groups") ?? false)
        _ = try daemon.client().call("contacts.create", ["contact": ["name": "Anna Haro", "groups": ["Friends"]]])
        XCTAssertTrue(daemon.notify?.wait(for: "STATUS=Serving 1 contacts in 1 groups", timeout: 5) ?? false)
    }

    func testTheLastImportStaysInTheStatusLineAfterLaterChanges() throws {
        try daemon.start()
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Kate Bell\r\nCATEGORIES:Work\r\nEND:VCARD\r\n"
        try card.write(toFile: daemon.dataDir + "/inbox/people.vcf", atomically: false, encoding: .utf8)
        let line = "last import people.vcf: 1 contacts, 0 failed"
        XCTAssertTrue(daemon.notify?.wait(for: "STATUS=Serving 1 contacts in 1 groups; " + line, timeout: 30) ?? false)
        // The change's own update, a second after the commit, and one after a later edit.
        _ = try daemon.client().call("contacts.create", ["contact": ["name": "Anna Haro"]])
        XCTAssertTrue(daemon.notify?.wait(for: "STATUS=Serving 2 contacts in 1 groups; " + line, timeout: 5) ?? false)
        let statuses = daemon.notify?.messages.filter { $0.contains("STATUS=Serving") } ?? []
        let afterImport = statuses.drop { !$0.contains(line) }
        XCTAssertFalse(afterImport.isEmpty)
        XCTAssertTrue(afterImport.allSatisfy { $0.contains(line) }, "\(statuses)")
    }

    func waitUntil(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
