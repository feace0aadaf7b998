import Foundation
import XCTest

/// `contactsctl` answers query-email itself, without the full client, and prints what the
/// full client prints; everything else goes to `contactsctl-full` with the same arguments.
final class SmallClientTests: DaemonTestCase {
    /// The small client copied alone into a directory of its own: no full client to run.
    func alone() throws -> String {
        let dir = daemon.home + "/alone"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let copy = dir + "/contactsctl"
        try FileManager.default.copyItem(atPath: try Products.path("contactsctl"), toPath: copy)
        return copy
    }

    func testQueryEmailIsAnsweredWithoutTheFullClient() throws {
        _ = try daemon.ctl("add", "Kate Bell", "--email", "work:kate@mac.com")
        let small = try alone()
        let r = try runProgram(small, ["query-email", "kate"], environment: daemon.environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "Searching contactsd for 'kate'... 1 found.\nkate@mac.com\tKate Bell\twork\n")
        let aerc = try runProgram(
            small, ["--socket", daemon.socketPath, "query-email", "-n", "5", "--no-header", "--", "mac"], environment: [:])
        XCTAssertEqual(aerc.stdout, "kate@mac.com\tKate Bell\twork\n", aerc.stderr)
        // What it cannot answer goes to the full client, and without one it says so.
        let list = try runProgram(small, ["list"], environment: daemon.environment)
        XCTAssertEqual(list.status, 127)
        XCTAssertTrue(list.stderr.contains("contactsctl-full"), list.stderr)
        XCTAssertEqual(list.stdout, "")
    }

    func testTheSmallAndTheFullClientPrintTheSame() throws {
        _ = try daemon.ctl("add", "Kate Bell", "--email", "work:kate@mac.com", "--email", "kate@home.example")
        _ = try daemon.ctl("add", "Anna Haro", "--email", "anna@mac.com")
        _ = try daemon.ctl("add", "Zoë Ångström", "--email", "zoe@mac.com")
        let small = try Products.path("contactsctl")
        let full = try Products.path("contactsctl-full")
        let lines: [[String]] = [
            ["query-email", "mac"], ["query-email", "--no-header", "mac"], ["query-email", "--limit", "2", "mac"],
            ["query-email", "--limit=1", "kate"], ["query-email", "zoe"], ["query-email", "nobody"],
            ["query-email", "--no-header", "nobody"], ["--json", "query-email", "mac"], ["query-email", "--limit", "0", "mac"],
            ["query-email"], ["query-email", "a", "b"], ["--socket", daemon.home + "/none.sock", "query-email", "kate"],
        ]
        for args in lines {
            let a = try runProgram(small, args, environment: daemon.environment)
            let b = try runProgram(full, args, environment: daemon.environment)
            XCTAssertEqual(a.status, b.status, "\(args)")
            XCTAssertEqual(a.stdout, b.stdout, "\(args)")
            XCTAssertEqual(a.stderr, b.stderr, "\(args)")
        }
        XCTAssertEqual(
            try runProgram(small, ["query-email", "zoe"], environment: daemon.environment).stdout.split(separator: "\n").count, 2)
    }
}
