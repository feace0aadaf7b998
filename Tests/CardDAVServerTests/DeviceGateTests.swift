import Foundation
import HTTPServer
import XCTest

@testable import CardDAVServer

/// The gate every request from the network passes: held back by address, signed in as a
/// device, answered from its view; wrong passwords counted, never logged.
final class DeviceGateTests: XCTestCase {
    final class Directory: DeviceDirectory, @unchecked Sendable {
        private let lock = NSLock()
        private var failures: [String] = []
        private var seenFrom: [String] = []
        var failed: [String] { lock.withLock { failures } }
        var seen: [String] { lock.withLock { seenFrom } }

        func signIn(_ name: String, _ password: String) -> DeviceAccess? {
            name == "phone" && password == "right-one" ? DeviceAccess(name: "phone", books: ["local"], readOnly: false) : nil
        }
        func failedSignIn(_ name: String, from address: String, now: Int64) { lock.withLock { failures.append(name + "@" + address) } }
        func seen(_ name: String, from address: String, now: Int64) { lock.withLock { seenFrom.append(name + "@" + address) } }
    }

    func request(_ gate: DeviceGate, _ credentials: String?, from address: String = "198.18.0.2") -> HTTPResponse {
        var headers = ["Depth": "1"]
        headers["Authorization"] = credentials.map { "Basic " + Data($0.utf8).base64EncodedString() }
        var r = HTTPRequest(method: "PROPFIND", path: "/books/", headers: headers)
        r.peerAddress = address
        return gate.handle(r)
    }

    func testOnlyASignedInDeviceIsAnsweredAndTenWrongPasswordsHoldItsAddressBack() {
        let directory = Directory()
        let lines = LinesBox()
        let gate = DeviceGate(
            books: MemoryBooks(["local": [:], "family": [:]]), devices: directory, limiter: SignInLimiter(), maxResourceSize: 1 << 20,
            clock: { 1000 }, note: { lines.append($0) })
        XCTAssertEqual(request(gate, nil).status, 401)
        XCTAssertTrue(request(gate, nil).headers.contains { $0.0 == "WWW-Authenticate" && $0.1.hasPrefix("Basic") })
        let answered = request(gate, "phone:right-one")
        XCTAssertEqual(answered.status, 207)
        XCTAssertFalse(String(decoding: answered.body, as: UTF8.self).contains("/books/family/"), "its books alone")
        XCTAssertEqual(directory.seen, ["phone@198.18.0.2"])
        for _ in 0..<10 { XCTAssertEqual(request(gate, "phone:wrong-guess").status, 401) }
        XCTAssertEqual(request(gate, "phone:right-one").status, 429, "the right password too, once held back")
        XCTAssertEqual(request(gate, "phone:right-one", from: "198.18.0.3").status, 207, "another address is not")
        XCTAssertEqual(directory.failed.count, 10)
        XCTAssertTrue(lines.all.contains { $0.contains("'phone'") && $0.contains("198.18.0.2") })
        XCTAssertFalse(lines.all.contains { $0.contains("wrong-guess") }, "no password tried is logged")
    }

    final class LinesBox: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        var all: [String] { lock.withLock { lines } }
        func append(_ line: String) { lock.withLock { lines.append(line) } }
    }

    func testTenWrongPasswordsFromAnAddressStopItUntilTheWindowPasses() {
        let limiter = SignInLimiter(limit: 10, windowSeconds: 600)
        for i in 0..<9 { limiter.failed("198.18.0.2", now: 1000 + Int64(i)) }
        XCTAssertNil(limiter.retryAfter("198.18.0.2", now: 1010), "nine are not yet too many")
        limiter.failed("198.18.0.2", now: 1010)
        XCTAssertEqual(limiter.retryAfter("198.18.0.2", now: 1011), 589, "until the first of the ten is ten minutes old")
        XCTAssertNil(limiter.retryAfter("198.18.0.3", now: 1011), "another address is not held back")
        XCTAssertNil(limiter.retryAfter("198.18.0.2", now: 1600), "the window passed")
        let small = SignInLimiter(limit: 2, windowSeconds: 60, capacity: 3)
        for a in 0..<10 { small.failed("10.0.0.\(a)", now: Int64(a)) }
        XCTAssertEqual(small.tracked, 3, "a flood of addresses is kept within its capacity")
        small.failed("10.0.0.9", now: 11)
        XCTAssertNotNil(small.retryAfter("10.0.0.9", now: 12), "the latest addresses are the ones kept")
    }

    func testBasicCredentialsAreReadAsRFC7617Says() {
        let header = "Basic " + Data("phone:pa:ss wörd".utf8).base64EncodedString()
        XCTAssertEqual(BasicCredentials.parse(header)?.name, "phone")
        XCTAssertEqual(BasicCredentials.parse(header)?.password, "pa:ss wörd", "the password is all after the first colon")
        XCTAssertEqual(BasicCredentials.parse("basic " + Data("a:b".utf8).base64EncodedString())?.name, "a")
        for bad in [
            nil, "", "Bearer abc", "Basic !!!", "Basic " + Data("nocolon".utf8).base64EncodedString(), String(repeating: "A", count: 5000),
        ] {
            XCTAssertNil(BasicCredentials.parse(bad), bad ?? "nil")
        }
    }

}
