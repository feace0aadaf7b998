import ContactsSupport
import Foundation
import Glibc

/// The write end of the self-pipe; set once, before any handler can run.
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

/// Turns signals into calls on an ordinary thread through a self-pipe: the handler only
/// writes the signal number (async-signal-safe), and a watcher thread acts on it. Installed
/// first thing at start, so that a SIGTERM that arrives early is never lost.
public enum SignalWatcher {
    public static func install(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        signalPipeWriteFD = fds[1]
        let readFD = fds[0]
        for sig in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                var byte = UInt8(truncatingIfNeeded: sig)
                _ = write(signalPipeWriteFD, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
        let t = Thread {
            var byte: UInt8 = 0
            while true {
                guard let n = try? retryingSyscall("read", { read(readFD, &byte, 1) }), n > 0 else { return }
                handler(Int32(byte))
            }
        }
        t.name = "signals"
        t.start()
    }
}
