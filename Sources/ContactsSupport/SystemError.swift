import Glibc

/// A failed system call: which call, on what, and the `errno` it left.
public struct SystemError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Int32
    public var detail: String?

    public init(_ call: String, errno: Int32, detail: String? = nil) {
        self.call = call
        self.errno = errno
        self.detail = detail
    }

    public var reason: String { String(cString: strerror(errno)) }

    public var description: String {
        if let detail { return "\(call) \(detail): \(reason)" }
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
