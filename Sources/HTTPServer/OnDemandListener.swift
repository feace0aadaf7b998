import ContactsSupport
import Foundation
import Glibc

/// A listening socket served by an `HTTPListener` made when the first connection arrives:
/// until a client comes, libmicrohttpd (and the TLS libraries it brings) is not loaded and
/// its threads are not started, so that serving costs a daemon nothing while no one uses it.
/// A connection that arrives first waits in the socket's backlog and is served at once.
public final class OnDemandListener: Sendable {
    public typealias Make = @Sendable (Int32) throws -> HTTPListener

    private struct State {
        /// The listening socket; -1 once stopped.
        var fd: Int32
        /// The write end of a pipe whose closing ends the wait for the first connection; -1
        /// when no one waits. (A thread waits in poll, not a Dispatch source: a process that
        /// used Dispatch's worker threads wakes every second for the rest of its life.)
        var wakeFD: Int32 = -1
        /// Signalled when the thread waiting for the first connection has left its poll.
        var waiterDone: DispatchSemaphore?
        var listener: HTTPListener?
    }
    private let state: Locked<State>
    /// The port the socket is bound to.
    public let port: UInt16

    /// Binds and listens on `host` (an IPv4 or IPv6 address) and `port` (0: any free one).
    public convenience init(host: String, port: UInt16) throws {
        var storage = sockaddr_storage()
        guard HTTPListener.address(host, port, into: &storage) else { throw HTTPListenerError.badAddress(host) }
        let family = Int32(storage.ss_family)
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPListenerError.cannotListen(errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 { setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
        let bound = withUnsafePointer(to: &storage) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 64) == 0 else {
            let e = errno
            close(fd)
            throw HTTPListenerError.cannotListen(e)
        }
        self.init(socket: fd)
    }

    /// Watches a socket already listening (passed by systemd, or bound above).
    public init(socket fd: Int32) {
        // The connections it accepts inherit this: a response goes out as it is written, not
        // held back for the client's acknowledgement of the last piece (TLS writes a response
        // as several records, each of which would otherwise wait for a delayed ACK).
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        state = Locked(State(fd: fd))
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &bound) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port =
            named == 0
            ? withUnsafePointer(to: &bound) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { PeerOwner.endpoint($0)?.port ?? 0 }
            }
            : 0
    }

    deinit { stop() }

    /// Whether a connection has come and the listener serves it.
    public var isServing: Bool { state.withLock { $0.listener != nil } }

    /// Waits for the first connection, then serves the socket with the listener `make`
    /// makes; `failed` hears why it could not be made (the socket is closed then).
    public func start(_ make: @escaping Make, failed: @escaping @Sendable (Error) -> Void) {
        let done = DispatchSemaphore(value: 0)
        let ends: (listening: Int32, wake: Int32)? = state.withLock { s in
            guard s.wakeFD < 0, s.listener == nil, s.fd >= 0 else { return nil }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                failed(HTTPListenerError.cannotListen(errno))
                return nil
            }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            s.wakeFD = ends[1]
            s.waiterDone = done
            return (s.fd, ends[0])
        }
        guard let (listening, wake) = ends else { return }
        let t = Thread { [weak self] in
            var fds = [pollfd(fd: listening, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            _ = try? retryingSyscall("poll") { poll(&fds, 2, -1) }
            close(wake)
            done.signal()
            // Stopped: the pipe's write end was closed.
            guard fds[1].revents == 0 else { return }
            self?.firstConnection(make, failed)
        }
        t.name = "serve-wait"
        t.start()
    }

    private func firstConnection(_ make: Make, _ failed: (Error) -> Void) {
        state.withLock { s in
            guard s.wakeFD >= 0, s.fd >= 0 else { return }
            close(s.wakeFD)
            s.wakeFD = -1
            do {
                s.listener = try make(s.fd)
            } catch {
                close(s.fd)
                s.fd = -1
                failed(error)
            }
        }
    }

    /// Stops listening: the socket is closed, and the listener, if one was made, stops. When
    /// it returns the port is free to be bound again.
    public func stop() {
        let (waiting, listening, listener) = state.withLock { s in
            defer {
                s.wakeFD = -1
                s.waiterDone = nil
                s.fd = -1
                s.listener = nil
            }
            if s.wakeFD >= 0 { close(s.wakeFD) }
            return (s.wakeFD >= 0 ? s.waiterDone : nil, s.fd, s.listener)
        }
        if let listener {
            // It closes the socket it was given.
            listener.stop()
        } else if listening >= 0 {
            // A thread in poll holds the socket open (closing the descriptor would not end
            // its listening, and the port could not be bound again) until it has woken.
            waiting?.wait()
            close(listening)
        }
    }
}
