import Glibc

/// What Ctrl-C during a long request says before the client exits: closing the connection is
/// what cancels the request in the daemon, and the line tells the person so.
enum InterruptNotice {
    /// The line written on SIGINT; set before the handler is installed.
    nonisolated(unsafe) private static var line: [CChar] = []

    /// Until `clear`, SIGINT writes `message` to standard error and exits with 130.
    static func install(_ message: String) {
        line = Array(("\ncontactsctl: " + message + "\n").utf8CString.dropLast())
        signal(SIGINT) { _ in
            InterruptNotice.line.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count) }
            _exit(130)
        }
    }

    static func clear() { signal(SIGINT, SIG_DFL) }
}
