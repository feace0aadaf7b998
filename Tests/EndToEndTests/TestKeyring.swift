import Foundation
import XCTest

/// A desktop session's services of the test's own: a private D-Bus session bus with
/// gnome-keyring-daemon on it (the Secret Service), its keyrings in a directory of the test's,
/// unlocked with a password the test knows; other helpers (a GNOME Online Accounts stand-in)
/// may join it (`start`). The daemon under test finds it through `DBUS_SESSION_BUS_ADDRESS`.
final class TestKeyring {
    let directory: String
    /// The helpers' pids (started through a shell that leaves them no descriptor but the
    /// three standard ones, as `TestAvahi` explains).
    private var pids: [Int32] = []

    var bus: String { "unix:path=\(directory)/session.bus" }
    /// Where the keyrings are kept on disk (encrypted).
    var keyrings: String { directory + "/data/keyrings" }

    /// What a program needs to use it.
    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": bus, "XDG_DATA_HOME": directory + "/data", "XDG_RUNTIME_DIR": directory + "/run"]
    }

    static let tools = ["/usr/bin/dbus-daemon", "/usr/bin/gnome-keyring-daemon", "/usr/bin/secret-tool"]

    /// Starts it, or skips the test (saying why) where the tools are not installed.
    init() throws {
        if let missing = Self.tools.first(where: { !FileManager.default.isExecutableFile(atPath: $0) }) {
            throw XCTSkip("\(missing) is missing (scripts/install-deps.sh installs dbus-daemon, gnome-keyring and libsecret-tools)")
        }
        directory = NSTemporaryDirectory() + "keyring-" + UUID().uuidString.prefix(6)
        for sub in ["", "/data", "/run"] {
            try FileManager.default.createDirectory(
                atPath: directory + sub, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>unix:path=\(directory)/session.bus</listen><auth>EXTERNAL</auth>
        <standard_session_servicedirs/>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
        </busconfig>
        """.write(toFile: directory + "/session.conf", atomically: true, encoding: .utf8)
        try start("exec /usr/bin/dbus-daemon --nofork --config-file=\"$DIR/session.conf\"")
        guard waitForFile(directory + "/session.bus", timeout: 10) else { throw XCTSkip("dbus-daemon made no bus in \(directory)") }
        // The login keyring, made and unlocked with this password, as a desktop session does.
        try start("exec /usr/bin/gnome-keyring-daemon --foreground --unlock --components=secrets <<< keyring-password")
        let deadline = Date().addingTimeInterval(10)
        while (try? lookup(account: "-", kind: "-")) == nil && Date() < deadline { usleep(100_000) }
    }

    /// Runs a helper on the bus (left behind by a shell, its pid kept for `stop`).
    func start(_ command: String, environment extra: [String: String] = [:]) throws {
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.merging(extra) { $1 }
        env["DIR"] = directory
        env["HOME"] = directory
        let r = try runProgram(
            "/bin/bash",
            [
                "-c",
                "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done; (eval \"$0\") >/dev/null 2>&1 </dev/null & echo $!",
                command,
            ], environment: env, timeout: 10)
        guard let pid = Int32(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw XCTSkip("could not start \(command): \(r.stderr)")
        }
        pids.append(pid)
    }

    /// What secret-tool finds for an account's secret; nil when there is none; throws when the
    /// keyring does not answer.
    func lookup(account: String, kind: String) throws -> String? {
        let r = try runProgram(
            "/usr/bin/secret-tool", ["lookup", "account", account, "kind", kind],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, timeout: 10)
        if r.status == 0 { return r.stdout }
        if r.stderr.isEmpty { return nil }
        throw NSError(domain: "keyring", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: r.stderr])
    }

    func stop() {
        for pid in pids.reversed() { kill(pid, SIGTERM) }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
