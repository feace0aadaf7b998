import ContactsSupport
import Foundation
import Glibc
import JSONCore

/// One client connection: a reader thread that parses and handles requests in order and sends
/// each reply itself when the socket takes it at once, and a writer thread, started when first
/// needed, that drains what waits (replies a slow reader leaves, notifications to a
/// subscriber), so that a slow reader never blocks anyone else.
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
    /// Called once what waits to go out has gone (`offerNotification`).
    private var drainActions: [@Sendable () -> Void] = []
    private var keepOpenForNotifications = false
    /// The writer has been started (it then ends the connection, not the reader).
    private var writerStarted = false

    init(id: Int, fd: Int32, peer: PeerCredentials, server: RPCServer, limits: RPCServerConfiguration) {
        self.limits = limits
        self.sessionID = id
        self.fd = fd
        self.peer = peer
        self.server = server
    }

    /// Its reader on a thread of its own, a parked one when one waits (a client that connects
    /// for one request does not wait for a thread to be made); the writer only when something
    /// waits to go out (a client that asks and reads wakes no second thread).
    func start() {
        ParkedThreads.shared.run("rpc-read-\(sessionID)") { [self] in readLoop() }
    }

    private func startWriterLocked() {
        guard !writerStarted && !closed else { return }
        writerStarted = true
        ParkedThreads.shared.run("rpc-write-\(sessionID)") { [self] in writeLoop() }
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
        // A client that closed its end altogether (not only its writing half) reads nothing
        // more: the connection ends now, not at the next notification that fails.
        if peerHungUp() { shutdownSocketLocked() }
        // A subscriber stays for its notifications: the writer keeps the connection then.
        if keepOpenForNotifications { startWriterLocked() }
        let writerEnds = writerStarted
        if !writerEnds { closed = true }
        cond.broadcast()
        cond.unlock()
        if !writerEnds { finish() }
    }

    var clientHasGone: Bool { peerHungUp() }

    private func peerHungUp() -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&p, 1, 0) == 1 && p.revents & Int16(POLLHUP | POLLERR) != 0
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
                startWriterLocked()
            }
            // Wake the writer only when it has work: a needless wake-up per request costs more
            // than the rest of a small request.
            if !outbox.isEmpty { cond.broadcast() }
            if sent >= RPCServer.largeMessageBytes && sent == line.count { server.afterLargeMessage?() }
            return true
        }
        outboxBytes += line.count
        outbox.append(line)
        startWriterLocked()
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
            let drained = ok && outbox.isEmpty ? drainActions : []
            if !drained.isEmpty { drainActions.removeAll() }
            cond.unlock()
            if !ok { break }
            for action in drained { action() }
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

    var peerProcess: Int32? { peer.pid }

    @discardableResult
    func sendNotification(method: String, params: JSONValue) -> Bool {
        enqueue(Self.notification(method, params), isReply: false)
    }

    func offerNotification(method: String, params: JSONValue, whenDrained: @escaping @Sendable () -> Void) -> Bool {
        var line = Self.notification(method, params)
        line.append(0x0A)
        cond.lock()
        defer { cond.unlock() }
        if closed { return false }
        if outboxBytes > 0 && outboxBytes + line.count > limits.maxOutboxBytes / 2 {
            drainActions.append(whenDrained)
            return false
        }
        outboxBytes += line.count
        outbox.append(line)
        startWriterLocked()
        cond.broadcast()
        return true
    }

    func sendPart(method: String, params: JSONValue) -> Bool {
        enqueue(Self.notification(method, params), isReply: true)
    }

    private static func notification(_ method: String, _ params: JSONValue) -> [UInt8] {
        JSONWriter.serialize(.object(["jsonrpc": "2.0", "method": .string(method), "params": params]))
    }

    func onClose(_ action: @escaping @Sendable () -> Void) {
        cond.lock()
        if closed && inputDone {
            cond.unlock()
            action()
            return
        }
        keepOpenForNotifications = true
        startWriterLocked()
        closeActions.append(action)
        cond.unlock()
    }
}
