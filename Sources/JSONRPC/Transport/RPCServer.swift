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

/// Serves an `RPCEngine` on a listening Unix socket, a reader thread per connection and a
/// writer thread when one is needed (blocking I/O measured fastest on this kind of machine).
public final class RPCServer: @unchecked Sendable {
    public typealias Logger = @Sendable (LogLevel, String) -> Void

    let engine: RPCEngine
    let listenFD: Int32
    let log: Logger
    private let currentConfig: Locked<RPCServerConfiguration>

    /// The limits in force; a change applies to connections accepted from then on.
    public var config: RPCServerConfiguration {
        get { currentConfig.withLock { $0 } }
        set { currentConfig.withLock { $0 = newValue } }
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
        self.currentConfig = Locked(configuration)
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
        let reply = RPCEngine.errorResponse(RPCError(.serverRefused, message), id: .null)
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
