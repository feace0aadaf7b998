import Foundation
import XCTest

@testable import HTTPServer

/// The listener on 127.0.0.1 and ::1, asked by curl as any client would: requests and
/// bodies whole, limits, and who may connect, by the owner of the peer's socket.
final class HTTPListenerTests: XCTestCase {
    /// curl's status line and body; `user` runs it as another uid (setpriv).
    func curl(_ args: [String], user: UInt32? = nil) throws -> (status: Int, body: String) {
        let p = Process()
        var argv = ["-s", "-o", "-", "-w", "\n%{http_code}", "--max-time", "10"] + args
        if let user {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            argv = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "/usr/bin/curl"] + argv
        } else {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        }
        p.arguments = argv
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let status = Int(text.split(separator: "\n").last ?? "") ?? 0
        return (status, String(text.dropLast(String(status).count + 1)))
    }

    func echo() throws -> HTTPListener {
        try HTTPListener(host: "127.0.0.1", port: 0, owner: getuid()) { r in
            HTTPResponse(
                status: 207, headers: [("Content-Type", "text/plain"), ("ETag", "\"3\"")],
                body: Array("\(r.method) \(r.path) \(r.header("Depth") ?? "-") \(r.body.count) \(r.peerUID.map(String.init) ?? "?")".utf8))
        }
    }

    func testARequestReachesTheHandlerWholeWithItsHeadersAndWhoSentIt() throws {
        let listener = try echo()
        defer { listener.stop() }
        XCTAssertGreaterThan(listener.port, 0, "the port the kernel chose")
        let url = "http://127.0.0.1:\(listener.port)/books/local/"
        let r = try curl(["-X", "PROPFIND", "-H", "Depth: 1", url])
        XCTAssertEqual(r.status, 207)
        XCTAssertEqual(r.body, "PROPFIND /books/local/ 1 0 \(getuid())")
        // A body sent in chunks, and one sent after Expect: 100-continue, arrive whole.
        let big = String(repeating: "x", count: 300_000)
        let file = NSTemporaryDirectory() + "http-body-\(UUID().uuidString)"
        try big.write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let chunked = try curl(["-X", "PUT", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + file, url + "a.vcf"])
        XCTAssertEqual(chunked.body, "PUT /books/local/a.vcf - 300000 \(getuid())")
        let expecting = try curl(["-X", "PUT", "-H", "Expect: 100-continue", "--data-binary", "@" + file, url + "b.vcf"])
        XCTAssertEqual(expecting.body, "PUT /books/local/b.vcf - 300000 \(getuid())")
    }

    func testASocketListeningAlreadyIsServedAndItsAddressToldAsLoopbackOrNot() throws {
        // As systemd passes contactsd-carddav.socket: bound and listening before the listener.
        func listening(_ host: String) throws -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_addr.s_addr = inet_addr(host)
            let ok = withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard ok, listen(fd, 16) == 0 else { throw XCTSkip("cannot listen on \(host)") }
            return fd
        }
        let fd = try listening("127.0.0.1")
        let bound = try XCTUnwrap(LoopbackAddress.bound(fd))
        XCTAssertEqual(bound.host, "127.0.0.1")
        let listener = try HTTPListener(socket: fd, owner: getuid()) { r in HTTPResponse(status: 200, text: "passed \(r.path)") }
        defer { listener.stop() }
        XCTAssertEqual(listener.port, bound.port)
        XCTAssertEqual(try curl(["http://127.0.0.1:\(bound.port)/books/"]).body, "passed /books/")
        let wide = try listening("0.0.0.0")
        defer { close(wide) }
        XCTAssertNil(LoopbackAddress.bound(wide), "a socket every machine can reach is not loopback")
    }

    func testAnIPv6LoopbackListenerServesItsOwnerToo() throws {
        let listener = try HTTPListener(host: "[::1]", port: 0, owner: getuid()) { r in
            HTTPResponse(status: 200, text: "\(r.peerUID.map(String.init) ?? "?")")
        }
        defer { listener.stop() }
        XCTAssertEqual(try curl(["http://[::1]:\(listener.port)/"]).body, "\(getuid())")
    }

    func testAnotherUsersConnectionIsRefusedAndNeverReachesTheHandler() throws {
        guard getuid() == 0 else { throw XCTSkip("dropping to another user needs root") }
        let reached = Counter()
        let refusals = Counter()
        let listener = try HTTPListener(host: "127.0.0.1", port: 0, owner: getuid(), refused: { uid in refusals.add(Int(uid ?? 0)) }) { _ in
            reached.add(1)
            return HTTPResponse(status: 200, text: "contacts")
        }
        defer { listener.stop() }
        let other = try curl(["http://127.0.0.1:\(listener.port)/books/"], user: 65534)
        XCTAssertEqual(other.status, 403)
        XCTAssertTrue(other.body.contains("its own user only"), other.body)
        XCTAssertEqual(reached.values, [], "the handler never saw it")
        XCTAssertEqual(refusals.values, [65534], "the refusal is told with who asked")
        XCTAssertEqual(try curl(["http://127.0.0.1:\(listener.port)/books/"]).status, 200, "the owner is served")
        XCTAssertEqual(reached.values, [1])
    }

    func testABodyOverTheLimitIs413AndAnAddressThatIsNoIPIsRefused() throws {
        var limits = HTTPListener.Limits()
        limits.bodyBytes = 1000
        let listener = try HTTPListener(host: "127.0.0.1", port: 0, limits: limits) { _ in HTTPResponse(status: 201) }
        defer { listener.stop() }
        let r = try curl(["-X", "PUT", "--data-binary", String(repeating: "y", count: 5000), "http://127.0.0.1:\(listener.port)/x.vcf"])
        XCTAssertEqual(r.status, 413)
        XCTAssertTrue(r.body.contains("1000 bytes"), r.body)
        XCTAssertThrowsError(try HTTPListener(host: "localhost", port: 0) { _ in HTTPResponse(status: 200) }) { e in
            XCTAssertEqual(e as? HTTPListenerError, .badAddress("localhost"))
        }
    }

    func testTheKernelsSocketTablesAreRead() {
        // As /proc/net/tcp writes 127.0.0.1:40000 → 127.0.0.1:5232 by uid 1000, and tcp6 a
        // v4-mapped peer of a dual-stack socket.
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1470 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000 100 0 0 10 0
               1: 0100007F:9C40 0100007F:1470 01 00000000:00000000 00:00000000 00000000  1000        0 2 1 0000 20 4 30 10 -1
            """
        let peer = PeerOwner.Endpoint(address: [127, 0, 0, 1], port: 40000)
        let server = PeerOwner.Endpoint(address: [127, 0, 0, 1], port: 5232)
        XCTAssertEqual(PeerOwner.find(in: table, local: peer, remote: server), 1000)
        XCTAssertNil(PeerOwner.find(in: table, local: server, remote: peer), "the server's own side is not the peer")
        let mapped = PeerOwner.parse("0000000000000000FFFF00000100007F:9C40")
        XCTAssertEqual(mapped.map { PeerOwner.same($0, peer) }, true)
    }
}

/// Values told from other threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int] = []
    func add(_ v: Int) { lock.withLock { list.append(v) } }
    var values: [Int] { lock.withLock { list } }
}

final class LoopbackAddressTests: XCTestCase {
    func testLoopbackAddressesAreReadAndOthersRefusedWithWhy() throws {
        XCTAssertEqual(try LoopbackAddress.parse("127.0.0.1:5232").get(), LoopbackAddress(host: "127.0.0.1", port: 5232))
        XCTAssertEqual(try LoopbackAddress.parse("[::1]:8443").get().url, "http://[::1]:8443/")
        XCTAssertEqual(try LoopbackAddress.parse("localhost:5232").get().host, "127.0.0.1")
        for (text, why) in [
            ("0.0.0.0:5232", "not a loopback address"), ("192.168.1.5:5232", "served over TLS, each with its own password"),
            ("[::]:5232", "not a loopback"),
            ("127.0.0.1", "HOST:PORT"), ("127.0.0.1:0", "not a port"), ("127.0.0.1:99999", "not a port"), ("example.org:80", "loopback"),
        ] {
            guard case .failure(let e) = LoopbackAddress.parse(text) else {
                XCTFail("\(text) was accepted")
                continue
            }
            XCTAssertTrue(e.description.contains(why), "\(text): \(e)")
        }
    }
}

final class PeerOwnerTests: XCTestCase {
    func testASocketTableIsReadPastItsFirstPage() throws {
        // Enough connections that /proc/net/tcp is longer than a page: each is found.
        let listener = try HTTPListener(host: "127.0.0.1", port: 0, owner: getuid()) { _ in HTTPResponse(status: 200) }
        defer { listener.stop() }
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        for _ in 0..<60 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = listener.port.bigEndian
            a.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            held.append(fd)
        }
        XCTAssertGreaterThan(PeerOwner.readWhole("/proc/net/tcp")?.utf8.count ?? 0, 8192, "the table is longer than two pages")
        // Each connection's owner, asked of the kernel and read from the table, is this user;
        // the same addresses seen as a dual-stack socket sees them too.
        let server = PeerOwner.Endpoint(address: [127, 0, 0, 1], port: listener.port)
        for fd in held.prefix(5) {
            var a = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            let peer = PeerOwner.Endpoint(address: [127, 0, 0, 1], port: UInt16(bigEndian: a.sin_port))
            XCTAssertEqual(PeerOwner.diagnosed(peer: peer, local: server), .found(getuid()))
            XCTAssertEqual(PeerOwner.fromTables(peer: peer, local: server), getuid())
            let mapped = { (e: PeerOwner.Endpoint) in
                PeerOwner.Endpoint(address: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + e.address, port: e.port)
            }
            XCTAssertEqual(PeerOwner.diagnosed(peer: mapped(peer), local: mapped(server)), .found(getuid()))
            XCTAssertEqual(PeerOwner.diagnosed(peer: server, local: peer), .found(getuid()), "the listener's side is this user's too")
        }
        XCTAssertEqual(PeerOwner.diagnosed(peer: PeerOwner.Endpoint(address: [127, 0, 0, 1], port: 1), local: server), .absent)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(listener.port)/"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "200")
    }
}

final class OnDemandListenerTests: XCTestCase {
    func testTheListenerIsMadeWhenTheFirstClientConnectsAndThatClientIsServed() throws {
        let socket = try OnDemandListener(host: "127.0.0.1", port: 0)
        defer { socket.stop() }
        XCTAssertGreaterThan(socket.port, 0)
        socket.start(
            { fd in try HTTPListener(socket: fd, owner: getuid()) { _ in HTTPResponse(status: 200, text: "served\n") } }, failed: { _ in })
        usleep(100_000)
        XCTAssertFalse(socket.isServing, "no client yet: no listener")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = ["-s", "--max-time", "10", "http://127.0.0.1:\(socket.port)/"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "served\n")
        XCTAssertTrue(socket.isServing)
        // The port is taken while it listens.
        XCTAssertThrowsError(try OnDemandListener(host: "127.0.0.1", port: socket.port)) { error in
            XCTAssertEqual(error as? HTTPListenerError, .cannotListen(EADDRINUSE))
        }
    }

    func testAStoppedListenerLeavesItsPortFreeAtOnceWhetherOrNotAClientCame() throws {
        // Stopping while a thread still waits in poll on the socket must not leave it
        // listening: the same port is bound again straight after, as a face restarted with a
        // new certificate does. Many rounds, since the waiting thread wakes when it is scheduled.
        let first = try OnDemandListener(host: "127.0.0.1", port: 0)
        let port = first.port
        first.start({ fd in try HTTPListener(socket: fd, owner: getuid()) { _ in HTTPResponse(status: 200, text: "") } }, failed: { _ in })
        first.stop()
        for round in 0..<300 {
            let again: OnDemandListener
            do {
                again = try OnDemandListener(host: "127.0.0.1", port: port)
            } catch {
                return XCTFail("round \(round): the port is still taken: \(error)")
            }
            again.start(
                { fd in try HTTPListener(socket: fd, owner: getuid()) { _ in HTTPResponse(status: 200, text: "") } }, failed: { _ in })
            again.stop()
        }
    }
}
