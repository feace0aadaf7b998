import Foundation
import Glibc
import JSONCore
import XCTest

/// A daemon at rest sleeps until its next due event: no thread of it wakes while there is
/// nothing to do (no watchdog asked for), after it has imported, searched and served. (With
/// Dispatch's worker threads, libdispatch's pool monitor woke it every second.)
final class RestTests: DaemonTestCase {
    /// Context switches of every thread of `pid`: each is a wakeup.
    func wakeups(_ pid: Int32) -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var out: [String: Int] = [:]
        for t in tasks {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(t)/status", encoding: .utf8)) ?? ""
            let name =
                text.split(separator: "\n").first { $0.hasPrefix("Name:") }.map {
                    String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces)
                } ?? "?"
            out["\(t) \(name)"] =
                text.split(separator: "\n").filter {
                    $0.hasPrefix("voluntary_ctxt_switches:") || $0.hasPrefix("nonvoluntary_ctxt_switches:")
                }
                .compactMap { Int($0.split(separator: "\t").last ?? "") }.reduce(0, +)
        }
        return out
    }

    func testADaemonAtRestDoesNotWake() throws {
        #if CONTACTSD_SANITIZED
            // The sanitizer's own background thread wakes the process ten times a second.
            throw XCTSkip("a sanitized daemon is woken by its sanitizer")
        #endif
        let sample = Products.repository.appendingPathComponent("examples/sample-contacts.vcf").path
        XCTAssertEqual(try daemon.ctl("import", sample).status, 0)
        XCTAssertEqual(try daemon.ctl("search", "kate").status, 0)
        XCTAssertEqual(try daemon.ctl("edit", "kate", "--title", "Producer").status, 0)
        XCTAssertEqual(try daemon.ctl("export", "--format", "json").status, 0)
        let pid = try XCTUnwrap(daemon.process?.processIdentifier)
        // What follows a request settles within a few seconds (the store's rest after a
        // second of quiet, the memory given back after half a second), and the history's
        // first pruning comes 5 s after the start (then every hour).
        sleep(7)
        let before = wakeups(pid)
        sleep(5)
        let woken = wakeups(pid).filter { $0.value != before[$0.key] }
        XCTAssertEqual(woken.values.reduce(0, +) - woken.keys.compactMap { before[$0] }.reduce(0, +), 0, "woken at rest: \(woken)")
    }
}
