import Foundation
import Glibc
import JSONCore
import JSONRPC
import XCTest

/// The transport over a real Unix socket in a temporary directory.
final class RPCServerTests: XCTestCase {
    var dir = ""
    var socketPath: String { dir + "/test.sock" }
    var server: RPCServer?
    let sessions = SessionList()
    let largeMessages = Counter()

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() { lock.lock(); n += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
    }

    final class SessionList: @unchecked Sendable {
        let lock = NSLock()
        var sessions: [RPCSession] = []
        var failedSends = 0
        func add(_ s: RPCSession) { lock.lock(); sessions.append(s); lock.unlock() }
        func all() -> [RPCSession] { lock.lock(); defer { lock.unlock() }; return sessions }
        func failed() { lock.lock(); failedSends += 1; lock.unlock() }
    }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "rpc-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.shutdown(grace: 2)
        try? FileManager.default.removeItem(atPath: dir)
    }

    func start(_ configure: (inout RPCServerConfiguration) -> Void = { _ in }) throws {
        let sessions = self.sessions
        let engine = RPCEngine(
            info: RPCServiceInfo(title: "t", version: "1", description: "t"),
            methods: [
                RPCMethod("echo", summary: "echo", params: [RPCParam("v", "v", schema: [:])], resultSchema: [:]) { call in
                    call.params["v"] ?? .null
                },
                RPCMethod("sleep", summary: "sleep", params: [RPCParam("ms", "ms", schema: [:])], resultSchema: [:]) { call in
                    usleep(UInt32((call.params["ms"]?.intValue ?? 0) * 1000))
                    return "slept"
                },
                RPCMethod("subscribe", summary: "s", resultSchema: [:]) { call in
                    if let s = call.session { sessions.add(s) }
                    return true
                },
                RPCMethod("emit", summary: "e", params: [RPCParam("count", "n", schema: [:])], resultSchema: [:]) { call in
                    let payload = JSONValue.string(String(repeating: "x", count: 1000))
                    for _ in 0..<(call.params["count"]?.intValue ?? 1) {
                        for s in sessions.all() where !s.sendNotification(method: "tick", params: ["p": payload]) { sessions.failed() }
                    }
                    return true
                },
            ])
        var config = RPCServerConfiguration()
        configure(&config)
        let fd = try UnixSocket.listen(path: socketPath)
        let largeMessages = self.largeMessages
        let server = RPCServer(
            engine: engine, listenFD: fd, configuration: config, log: { _, _ in }, afterLargeMessage: { largeMessages.add() })
        try server.start()
        self.server = server
    }

    func request(_ id: Int, _ method: String, _ params: JSONValue = [:]) -> String {
        JSONWriter.string(["jsonrpc": "2.0", "method": .string(method), "params": params, "id": .int(id)])
    }

    func testSocketFileIsTheOwnersAlone() throws {
        try start()
        var st = stat()
        XCTAssertEqual(stat(socketPath, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
    }

    func testPipelinedRequestsAreAllAnsweredInOrder() throws {
        try start()
        let c = try RPCClient(path: socketPath)
        try c.sendRaw(Array((1...200).map { request($0, "echo", ["v": .int($0)]) + "\n" }.joined().utf8))
        for i in 1...200 {
            let m = try c.readMessage()
            XCTAssertEqual(m["id"], .int(i))
            XCTAssertEqual(m["result"], .int(i))
        }
    }

    func testAnOversizedLineGetsOneErrorAndTheConnectionCloses() throws {
        try start { $0.maxLineBytes = 1024 }
        let other = try RPCClient(path: socketPath)
        let c = try RPCClient(path: socketPath)
        try c.sendRaw(Array(("{\"jsonrpc\":\"2.0\",\"method\":\"echo\",\"params\":{\"v\":\"" + String(repeating: "a", count: 5000)).utf8))
        let m = try c.readMessage()
        XCTAssertEqual(m["error"]?["code"], -32600)
        XCTAssertEqual(m["id"], .null)
        XCTAssertThrowsError(try c.readMessage(), "the connection is closed")
        XCTAssertEqual(try other.call("echo", ["v": "still here"]), "still here")
    }

    func testAHalfSentRequestBlocksNobodyElse() throws {
        try start()
        let stalled = try RPCClient(path: socketPath)
        try stalled.sendRaw(Array("{\"jsonrpc\":\"2.0\",\"method\":\"ec".utf8))
        let c = try RPCClient(path: socketPath)
        XCTAssertEqual(try c.call("echo", ["v": 1]), 1)
        try stalled.sendRaw(Array("ho\",\"params\":{\"v\":2},\"id\":1}\n".utf8))
        XCTAssertEqual(try stalled.readMessage()["result"], 2)
    }

    func testPeersOfAnotherUserAreRefused() throws {
        try start { $0.allowedUIDs = [getuid() + 4242] }
        let c = try RPCClient(path: socketPath)
        XCTAssertThrowsError(try c.call("echo", ["v": 1]))
    }

    func testConnectionsOverTheCapAreToldSoAndClosed() throws {
        try start { $0.maxConnections = 2 }
        let a = try RPCClient(path: socketPath)
        let b = try RPCClient(path: socketPath)
        XCTAssertEqual(try a.call("echo", ["v": 1]), 1)
        XCTAssertEqual(try b.call("echo", ["v": 1]), 1)
        let c = try RPCClient(path: socketPath)
        let m = try c.readMessage()
        XCTAssertEqual(m["error"]?["code"], -32000)
        XCTAssertTrue(m["error"]?["message"]?.stringValue?.contains("too many connections") ?? false)
    }

    func testAClientThatLeavesMidRequestHarmsNobody() throws {
        try start()
        do {
            let c = try RPCClient(path: socketPath)
            try c.send(["jsonrpc": "2.0", "method": "sleep", "params": ["ms": 200], "id": 1])
        }  // closed here, before the reply
        let d = try RPCClient(path: socketPath)
        XCTAssertEqual(try d.call("echo", ["v": "ok"]), "ok")
        usleep(300_000)
        XCTAssertEqual(try d.call("echo", ["v": "ok"]), "ok")
    }

    func testASubscriberThatNeverReadsIsDroppedWithoutSlowingOthers() throws {
        try start { $0.maxOutboxBytes = 256 << 10 }
        let lazy = try RPCClient(path: socketPath)
        XCTAssertEqual(try lazy.call("subscribe"), true)
        let writer = try RPCClient(path: socketPath)
        let started = Date()
        XCTAssertEqual(try writer.call("emit", ["count": 5000]), true)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        XCTAssertGreaterThan(sessions.failedSends, 0, "the lazy subscriber was dropped")
        XCTAssertEqual(try writer.call("echo", ["v": 1]), 1)
    }

    func testShutdownLetsTheRequestInProgressFinish() throws {
        try start()
        let c = try RPCClient(path: socketPath)
        try c.send(["jsonrpc": "2.0", "method": "sleep", "params": ["ms": 300], "id": 1])
        usleep(50_000)
        let s = server
        let stopper = Thread { s?.shutdown(grace: 5) }
        stopper.start()
        XCTAssertEqual(try c.readMessage()["result"], "slept")
        server = nil
    }

    func testAStaleSocketFileIsReplacedButALiveOneIsNot() throws {
        try start()
        XCTAssertThrowsError(try UnixSocket.listen(path: socketPath)) { e in
            XCTAssertTrue("\(e)".contains("another process"))
        }
        let long = "/tmp/" + String(repeating: "d", count: 120) + ".sock"
        XCTAssertThrowsError(try UnixSocket.listen(path: long)) { e in
            XCTAssertTrue("\(e)".contains("at most 107"))
        }
    }

    func testTheServerSaysWhenALargeReplyHasGoneOut() throws {
        try start()
        let c = try RPCClient(path: socketPath)
        _ = try c.call("echo", ["v": "small"])
        XCTAssertEqual(largeMessages.value, 0)
        let big = String(repeating: "y", count: 3 << 20)
        XCTAssertEqual(try c.call("echo", ["v": .string(big)]).stringValue?.count, big.count)
        let deadline = Date().addingTimeInterval(5)
        while largeMessages.value == 0 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(largeMessages.value, 1, "once the 3 MiB reply was sent, and not for the small one")
    }
}
