import Foundation
import JSONCore
import TestSupport
import XCTest

/// A server that answers 503 with Retry-After is not asked again before the time it named:
/// not by the schedule, not after a local change, not by a sync someone asks for; and
/// `sync status` says when the next attempt is.
final class RetryAfterTests: DaemonTestCase {
    func nextAttempt() throws -> Date? {
        let status = try daemon.client().call("sync.status", ["account": "home"])
        return status["accounts"]?.arrayValue?.first?["nextAttempt"]?.stringValue.flatMap { ISO8601DateFormatter().date(from: $0) }
    }

    func testRetryAfterHoldsEveryAttemptAskedForOrScheduled() throws {
        let server = try DAVServer(.radicale)
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        try server.put("kate.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nEND:VCARD\r\n")
        let added = try daemon.ctl(
            "account", "add", "home", proxy.url(server.root).absoluteString, "--user", "kate", "--password-command", "printf 'secret'")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(try daemon.ctl("sync", "home").status, 0)
        proxy.inject(.unavailable(method: "REPORT", retryAfter: "7"))
        let asked = Date()
        let refused = try daemon.ctl("sync", "home")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("503"), refused.stderr)
        let next = try XCTUnwrap(try nextAttempt(), "the next attempt is scheduled")
        XCTAssertGreaterThanOrEqual(next.timeIntervalSince(asked), 6, "not before the server said: \(next) after \(asked)")
        XCTAssertLessThan(next.timeIntervalSince(asked), 15, "and not much later")
        // A local change wants a sync in two seconds: it waits too.
        XCTAssertEqual(try daemon.ctl("edit", "kate", "--title", "Producer").status, 0)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(try nextAttempt()).timeIntervalSince(asked), 6)
        // Asked for again at once, it is refused without a request (the fault was used up:
        // a request would have gone through).
        let again = try daemon.ctl("sync", "home")
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("Retry-After") && again.stderr.contains("nothing was sent"), again.stderr)
        // Then the waiting sync goes, and sends the edit.
        let deadline = Date().addingTimeInterval(20)
        var sent = false
        while Date() < deadline && !sent {
            usleep(300_000)
            let card = try server.request("GET", server.addressBook.appendingPathComponent("kate.vcf"))
            sent = String(decoding: card.body, as: UTF8.self).contains("TITLE:Producer")
        }
        XCTAssertTrue(sent, "the scheduled sync ran once the wait was over")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(asked), 6.5)
    }
}
