import ContactsSupport
import Foundation
import Glibc
import JSONCore

/// How the server treats its clients.
public struct RPCServerConfiguration: Sendable {
    /// The longest message accepted; a longer one gets one -32600 error and the connection closes.
    public var maxLineBytes = 64 << 20
    /// Connections served at once; one more is told so and closed.
    public var maxConnections = 256
    /// Bytes of replies and notifications a client may leave unread. Past it, replies wait
    /// (the client is not reading) and a subscriber is dropped.
    public var maxOutboxBytes = 16 << 20
    /// Peers whose uid is not one of these are refused.
    public var allowedUIDs: Set<UInt32> = [getuid(), 0]

    public init() {}
}

/// Serves an `RPCEngine` on a listening Unix socket, one reader and one writer thread per
/// connection (blocking I/O measured fastest on this kind of machine).
public final class RPCServer: @unchecked Sendable {
    public typealias Logger = @Sendable (LogLevel, String) -> Void

    let engine: RPCEngine
    let listenFD: Int32
    let log: Logger
    private let configLock = NSLock()
    private var currentConfig: RPCServerConfiguration

    /// The limits in force; a change applies to connections accepted from then on.
    public var config: RPCServerConfiguration {
        get {
            configLock.lock()
            defer { configLock.unlock() }
            return currentConfig
        }
        set {
            configLock.lock()
            currentConfig = newValue
            configLock.unlock()
        }
    }

    private let lock = NSCondition()
    private var connections: [Int: ServerConnection] = [:]
    private var nextID = 1
    private var stopping = false
    private var acceptThreadDone = false
    private var wakePipe: [Int32] = [-1, -1]

    /// Called after a message of `largeMessageBytes` or more has gone out (its buffers are
    /// about to be freed): the daemon gives memory back then.
    let afterLargeMessage: (@Sendable () -> Void)?
    static let largeMessageBytes = 1 << 20

    /// `listenFD` must be a listening stream socket; the server owns it from now on.
    public init(
        engine: RPCEngine, listenFD: Int32, configuration: RPCServerConfiguration = RPCServerConfiguration(), log: @escaping Logger,
        afterLargeMessage: (@Sendable () -> Void)? = nil
    ) {
        self.engine = engine
        self.listenFD = listenFD
        self.currentConfig = configuration
        self.log = log
        self.afterLargeMessage = afterLargeMessage
    }

    public var connectionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return connections.count
    }

    public func start() throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        try retryingSyscall("pipe") { pipe(&fds) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wakePipe = fds
        let t = Thread { [self] in acceptLoop() }
        t.name = "rpc-accept"
        t.start()
    }

    private func acceptLoop() {
        var pfds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0)]
        while true {
            do {
                try retryingSyscall("poll", detail: "on the listening socket") { poll(&pfds, 2, -1) }
            } catch {
                log(.error, "\(error)")
                break
            }
            if pfds[1].revents != 0 { break }
            if pfds[0].revents & Int16(POLLIN) == 0 { continue }
            let fd: Int32
            do {
                fd = try retryingSyscall("accept") { accept(listenFD, nil, nil) }
            } catch {
                if error.errno == EAGAIN || error.errno == ECONNABORTED { continue }
                log(.warning, "\(error)")
                if error.errno == EMFILE || error.errno == ENFILE { usleep(50_000) }
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            admit(fd)
        }
        lock.lock()
        acceptThreadDone = true
        lock.broadcast()
        lock.unlock()
    }

    private func admit(_ fd: Int32) {
        let config = self.config
        guard let cred = UnixSocket.peerCredentials(fd), config.allowedUIDs.contains(cred.uid) else {
            let who = UnixSocket.peerCredentials(fd).map { "uid \($0.uid), pid \($0.pid)" } ?? "unknown peer"
            log(.warning, "refused a connection from \(who): only the owner may connect")
            close(fd)
            return
        }
        lock.lock()
        if stopping {
            lock.unlock()
            refuse(fd, message: "the server is shutting down")
            return
        }
        if connections.count >= config.maxConnections {
            lock.unlock()
            log(.warning, "refused a connection: \(config.maxConnections) connections already open")
            refuse(fd, message: "too many connections (the limit is \(config.maxConnections))")
            return
        }
        let id = nextID
        nextID += 1
        let conn = ServerConnection(id: id, fd: fd, peer: cred, server: self, limits: config)
        connections[id] = conn
        lock.unlock()
        log(.debug, "connection \(id) from pid \(cred.pid)")
        conn.start()
    }

    private func refuse(_ fd: Int32, message: String) {
        let reply = RPCEngine.errorResponse(RPCError(RPCError.Code(rawValue: -32000), message), id: .null)
        var bytes = JSONWriter.serialize(reply)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { try? UnixSocket.sendAll(fd, $0) }
        close(fd)
    }

    func connectionDidClose(_ id: Int) {
        lock.lock()
        connections[id] = nil
        lock.broadcast()
        lock.unlock()
        log(.debug, "connection \(id) closed")
    }

    var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Stops accepting, stops reading new requests, lets the requests in progress finish and
    /// their replies go out, then closes every connection. Returns when all are closed or the
    /// grace period is over (the rest are then cut off).
    public func shutdown(grace: Double = 5) {
        lock.lock()
        if stopping {
            lock.unlock()
            return
        }
        stopping = true
        let open = Array(connections.values)
        lock.unlock()
        var one: UInt8 = 1
        _ = write(wakePipe[1], &one, 1)
        for c in open { c.stopReading() }
        let deadline = Date().addingTimeInterval(grace)
        lock.lock()
        while !(connections.isEmpty && acceptThreadDone) {
            if !lock.wait(until: deadline) { break }
        }
        let stragglers = Array(connections.values)
        lock.unlock()
        for c in stragglers { c.forceClose() }
        close(listenFD)
        close(wakePipe[0])
        close(wakePipe[1])
    }
}

/// One client connection: a reader thread that parses and handles requests in order, and a
/// writer thread that drains replies and notifications, so that a slow reader never blocks
/// anyone else.
final class ServerConnection: RPCSession, @unchecked Sendable {
    let sessionID: Int
    let fd: Int32
    let peer: PeerCredentials
    unowned let server: RPCServer
    let limits: RPCServerConfiguration

    private let cond = NSCondition()
    private var outbox: [[UInt8]] = []
    private var outboxBytes = 0
    /// A thread is writing to the socket now (the writer, or the reader answering directly).
    private var sending = false
    private var inputDone = false
    private var closed = false
    private var closeActions: [@Sendable () -> Void] = []
    private var keepOpenForNotifications = false

    init(id: Int, fd: Int32, peer: PeerCredentials, server: RPCServer, limits: RPCServerConfiguration) {
        self.limits = limits
        self.sessionID = id
        self.fd = fd
        self.peer = peer
        self.server = server
    }

    func start() {
        let reader = Thread { [self] in readLoop() }
        reader.stackSize = 4 << 20
        reader.name = "rpc-read-\(sessionID)"
        let writer = Thread { [self] in writeLoop() }
        writer.name = "rpc-write-\(sessionID)"
        reader.start()
        writer.start()
    }

    private func readLoop() {
        var framer = LineFramer(maxLineBytes: limits.maxLineBytes)
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { chunk.deallocate() }
        reading: while true {
            // A reset or any other failure ends the connection as its end does.
            // sent < line.count, so the line is not empty and has a base address.
            // swift-format-ignore: NeverForceUnwrap
            guard let n = try? retryingSyscall("recv", { recv(fd, chunk.baseAddress, chunk.count, 0) }), n > 0 else { break }
            framer.append(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
            while true {
                switch framer.next() {
                case .needMore:
                    continue reading
                case .tooLong:
                    server.log(.warning, "connection \(sessionID): message over \(limits.maxLineBytes) bytes; closing")
                    let e = RPCError.invalidRequest("message longer than the limit of \(limits.maxLineBytes) bytes")
                    enqueue(JSONWriter.serialize(RPCEngine.errorResponse(e, id: .null)), isReply: true)
                    break reading
                case .line(let line):
                    if server.isStopping { break reading }
                    let reply = line.withUnsafeBytes { server.engine.handle($0, session: self) }
                    if let reply, !enqueue(reply, isReply: true) { break reading }
                }
            }
        }
        cond.lock()
        inputDone = true
        cond.broadcast()
        cond.unlock()
    }

    /// Queues one message. Replies wait while the client is far behind; notifications to a
    /// client that far behind drop the connection instead.
    @discardableResult
    private func enqueue(_ message: [UInt8], isReply: Bool) -> Bool {
        var line = message
        line.append(0x0A)
        cond.lock()
        defer { cond.unlock() }
        if isReply {
            while !closed && outboxBytes > limits.maxOutboxBytes { cond.wait() }
        } else if outboxBytes + line.count > limits.maxOutboxBytes {
            if !closed {
                server.log(.warning, "connection \(sessionID): subscriber \(outboxBytes) bytes behind; dropping it")
                shutdownSocketLocked()
            }
            return false
        }
        if closed { return false }
        if isReply && outbox.isEmpty && !sending {
            // Nothing is waiting to go out: the reader sends its reply itself, without waking
            // the writer (a round trip then costs no thread hand-off). What the socket does not
            // take at once is queued for the writer, ahead of anything queued meanwhile.
            sending = true
            cond.unlock()
            let (sent, failed) = sendNow(line)
            cond.lock()
            sending = false
            if failed {
                shutdownSocketLocked()
                return false
            }
            if sent < line.count {
                let rest = Array(line[sent...])
                outboxBytes += rest.count
                outbox.insert(rest, at: 0)
            }
            // Wake the writer only when it has work: a needless wake-up per request costs more
            // than the rest of a small request.
            if !outbox.isEmpty { cond.broadcast() }
            if sent >= RPCServer.largeMessageBytes && sent == line.count { server.afterLargeMessage?() }
            return true
        }
        outboxBytes += line.count
        outbox.append(line)
        cond.broadcast()
        return true
    }

    /// Sends what the socket takes of `line` at once, without waiting: how much it took, and
    /// whether it failed for another reason than being full (the connection is then gone).
    private func sendNow(_ line: [UInt8]) -> (sent: Int, failed: Bool) {
        var sent = 0
        while sent < line.count {
            do {
                // sent < line.count, so the line is not empty and has a base address.
                // swift-format-ignore: NeverForceUnwrap
                let n = try retryingSyscall("send") {
                    line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                }
                if n == 0 { return (sent, false) }
                sent += n
            } catch {
                return (sent, error.errno != EAGAIN && error.errno != EWOULDBLOCK)
            }
        }
        return (sent, false)
    }

    /// The writer has nothing to do until a message is queued, the connection closes, or the
    /// client's input ends (unless it stays for notifications and the server is not stopping).
    private var writerMustWait: Bool {
        (outbox.isEmpty || sending) && !closed && !(inputDone && !keepOpenForNotifications) && !(inputDone && server.isStopping)
    }

    private func writeLoop() {
        var batch: [UInt8] = []
        while true {
            cond.lock()
            while writerMustWait { cond.wait() }
            while sending && !closed { cond.wait() }
            if outbox.isEmpty || closed {
                cond.unlock()
                break
            }
            let items = outbox
            outbox.removeAll(keepingCapacity: true)
            sending = true
            cond.unlock()
            batch.removeAll(keepingCapacity: true)
            var total = 0
            for item in items {
                batch.append(contentsOf: item)
                total += item.count
            }
            let ok = batch.withUnsafeBytes { buffer in (try? UnixSocket.sendAll(fd, buffer)) != nil }
            // A large reply (an export) must not stay with the connection as spare capacity.
            if batch.capacity > 1 << 20 { batch = [] }
            if ok && total >= RPCServer.largeMessageBytes { server.afterLargeMessage?() }
            cond.lock()
            sending = false
            outboxBytes -= total
            cond.broadcast()
            if !ok { shutdownSocketLocked() }
            cond.unlock()
            if !ok { break }
        }
        finish()
    }

    private func shutdownSocketLocked() {
        closed = true
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
        cond.broadcast()
    }

    private func finish() {
        cond.lock()
        closed = true
        cond.broadcast()
        // Wait for the reader before the descriptor can be reused.
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
        while !inputDone { cond.wait() }
        let actions = closeActions
        closeActions.removeAll()
        cond.unlock()
        close(fd)
        for a in actions { a() }
        server.connectionDidClose(sessionID)
    }

    func stopReading() {
        Glibc.shutdown(fd, Int32(SHUT_RD))
        cond.lock()
        cond.broadcast()
        cond.unlock()
    }

    func forceClose() {
        cond.lock()
        shutdownSocketLocked()
        cond.unlock()
    }

    // MARK: RPCSession

    @discardableResult
    func sendNotification(method: String, params: JSONValue) -> Bool {
        let message: JSONValue = .object(["jsonrpc": "2.0", "method": .string(method), "params": params])
        return enqueue(JSONWriter.serialize(message), isReply: false)
    }

    func onClose(_ action: @escaping @Sendable () -> Void) {
        cond.lock()
        if closed && inputDone {
            cond.unlock()
            action()
            return
        }
        keepOpenForNotifications = true
        closeActions.append(action)
        cond.unlock()
    }
}
