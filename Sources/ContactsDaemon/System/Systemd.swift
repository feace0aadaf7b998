import CSystemd
import Foundation

/// The service manager's side channel: readiness, status, watchdog and passed sockets.
/// Every call is a no-op when not started by systemd (no `NOTIFY_SOCKET`).
public enum Systemd {
    /// Sends a state string such as `READY=1\nSTATUS=...` (`sd_notify`).
    @discardableResult
    public static func notify(_ state: String) -> Bool {
        sd_notify(0, state) > 0
    }

    public static func status(_ line: String) { notify("STATUS=\(line)") }

    /// The listening sockets passed by socket activation (`sd_listen_fds`), if any.
    /// The environment variables are removed so that children do not inherit them.
    public static func listenFDs() -> [Int32] {
        let n = sd_listen_fds(1)
        guard n > 0 else { return [] }
        return (0..<n).map { SD_LISTEN_FDS_START + $0 }
    }

    /// True when the descriptor is a listening TCP socket (IPv4 or IPv6).
    public static func isTCPListener(_ fd: Int32) -> Bool {
        sd_is_socket_inet(fd, 0, Int32(SOCK_STREAM.rawValue), 1, 0) > 0
    }

    /// True when the descriptor is a listening Unix stream socket.
    public static func isUnixStreamListener(_ fd: Int32) -> Bool {
        sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0
    }

    /// The watchdog interval in microseconds when the manager asks for keep-alive pings.
    public static func watchdogInterval() -> UInt64? {
        var usec: UInt64 = 0
        return sd_watchdog_enabled(0, &usec) > 0 && usec > 0 ? usec : nil
    }
}
