import ContactsSupport
import Glibc

/// The credentials of the process at the other end of a Unix socket.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
}

/// Unix-domain stream socket helpers: addresses, listening, connecting, peer credentials.
public enum UnixSocket {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    public static let maxPathBytes = 107

    public static func address(_ path: String) throws(SystemError) -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty else { throw SystemError("socket path", errno: EINVAL, detail: "is empty") }
        guard bytes.count <= maxPathBytes else {
            throw SystemError(
                "socket path", errno: ENAMETOOLONG,
                detail: "\(path) is \(bytes.count) bytes; a Unix socket path may have at most \(maxPathBytes)")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return addr
    }

    static func newSocket() throws(SystemError) -> Int32 {
        try retryingSyscall("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// Connects to the socket at `path`.
    public static func connect(path: String) throws(SystemError) -> Int32 {
        var addr = try address(path)
        let fd = try newSocket()
        do {
            try retryingSyscall("connect", detail: "to \(path)") {
                withUnsafePointer(to: &addr) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Creates, binds and listens on a socket at `path` with mode 0600.
    ///
    /// A stale socket file left by a crashed process is replaced; a socket that still accepts
    /// connections is not, and neither is a file that is not a socket.
    public static func listen(path: String, backlog: Int32 = 128) throws(SystemError) -> Int32 {
        var addr = try address(path)
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw SystemError("bind", errno: EEXIST, detail: "\(path) exists and is not a socket")
            }
            if let probe = try? connect(path: path) {
                close(probe)
                throw SystemError("bind", errno: EADDRINUSE, detail: "\(path) is served by another process")
            }
            unlink(path)
        }
        let fd = try newSocket()
        do {
            // The umask makes the socket file 0600 from the moment it exists.
            let old = umask(0o177)
            defer { umask(old) }
            try retryingSyscall("bind", detail: "to \(path)") {
                withUnsafePointer(to: &addr) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
            try retryingSyscall("chmod", detail: path) { chmod(path, 0o600) }
            try retryingSyscall("listen", detail: "on \(path)") { Glibc.listen(fd, backlog) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The path a Unix socket is bound to (for a socket passed by the service manager).
    public static func boundPath(_ fd: Int32) -> String? {
        var addr = sockaddr_un()
        var len = socklen_t(MemoryLayout<sockaddr_un>.size)
        let r = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        guard r == 0, addr.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let path = withUnsafeBytes(of: &addr.sun_path) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return path.isEmpty ? nil : path
    }

    /// `SO_PEERCRED` through a layout-compatible struct (`struct ucred` needs `_GNU_SOURCE`).
    public static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
        var cred = PeerCredentials(pid: 0, uid: 0, gid: 0)
        var len = socklen_t(MemoryLayout<PeerCredentials>.size)
        let soPeerCred: Int32 = 17  // SO_PEERCRED on Linux
        let r = getsockopt(fd, SOL_SOCKET, soPeerCred, &cred, &len)
        return r == 0 ? cred : nil
    }

    /// Writes all of `bytes`, without raising SIGPIPE if the peer has gone.
    public static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            // offset < count, so the buffer is non-empty and has a base address.
            // swift-format-ignore: NeverForceUnwrap
            let n = try retryingSyscall("send") {
                send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            offset += n
        }
    }
}
