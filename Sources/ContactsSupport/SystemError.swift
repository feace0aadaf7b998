import Glibc

/// A failed system call: which call, on what (a path, a descriptor's role), and the `errno`
/// it left. The one error the project's system calls throw.
public struct SystemError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Int32
    public var detail: String?

    public init(_ call: String, errno: Int32 = Glibc.errno, detail: String? = nil) {
        self.call = call
        self.errno = errno
        self.detail = detail
    }

    public var reason: String { String(cString: strerror(errno)) }

    /// The disk or the user's quota is full: nothing was lost, but nothing more can be written.
    public var isDiskFull: Bool { errno == ENOSPC || errno == EDQUOT }

    /// The other end of a socket or pipe went away.
    public var isDisconnected: Bool { errno == EPIPE || errno == ECONNRESET }

    public var description: String {
        if let detail { return "cannot \(call) \(detail): \(reason)" }
        return "\(call): \(reason)"
    }
}

/// Runs a system call, retrying on EINTR and turning a -1 result into a `SystemError`.
/// Every system call of the project goes through here.
@discardableResult
public func retryingSyscall<T: FixedWidthInteger>(_ call: String, detail: String? = nil, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let r = body()
        if r != -1 { return r }
        let e = Glibc.errno
        if e == EINTR { continue }
        throw SystemError(call, errno: e, detail: detail)
    }
}
