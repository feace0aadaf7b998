import Foundation
import XCTest

/// Avahi in both namespaces of a `TestNetwork`, each with a D-Bus system bus of its own (a
/// private `dbus-daemon`, found through `DBUS_SYSTEM_BUS_ADDRESS`) and its own
/// `/run/avahi-daemon` (a mount namespace), so that it neither sees nor disturbs an Avahi of
/// the machine's.
final class TestAvahi {
    let directory: String
    let clientNamespace: String
    /// The helpers' pids: started through a shell that leaves them behind with no descriptor but
    /// the three standard ones. (Foundation's `Process` learns that a child ended when a socket
    /// it shares with the child closes; a long-lived helper that inherited such a socket would
    /// keep Foundation from seeing other children end.)
    private var pids: [Int32] = []

    var serverBus: String { "unix:path=\(directory)/server.bus" }
    var clientBus: String { "unix:path=\(directory)/client.bus" }

    static let tools = [
        "/usr/sbin/avahi-daemon", "/usr/bin/avahi-browse", "/usr/bin/avahi-publish", "/usr/bin/dbus-daemon", "/usr/bin/unshare",
    ]

    /// Starts it, or skips the test (saying why) where Avahi is not installed.
    init(_ network: TestNetwork) throws {
        if let missing = Self.tools.first(where: { !FileManager.default.isExecutableFile(atPath: $0) }) {
            throw XCTSkip("\(missing) is missing (scripts/install-deps.sh installs avahi-daemon, avahi-utils and dbus-daemon)")
        }
        directory = NSTemporaryDirectory() + "avahi-" + UUID().uuidString.prefix(6)
        clientNamespace = network.client
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try """
        [server]
        use-ipv4=yes
        use-ipv6=no
        enable-dbus=yes
        [publish]
        publish-hinfo=no
        publish-workstation=no
        """.write(toFile: directory + "/avahi.conf", atomically: true, encoding: .utf8)
        for (side, namespace) in [("server", network.server), ("client", network.client)] {
            let bus = "\(directory)/\(side).bus"
            try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>system</type><listen>unix:path=\(bus)</listen><auth>EXTERNAL</auth>
            <policy context="default"><allow user="*"/><allow own="*"/><allow send_type="method_call"/>
            <allow send_type="signal"/><allow send_requested_reply="true"/><allow receive_type="method_call"/>
            <allow receive_type="signal"/><allow receive_requested_reply="true"/></policy></busconfig>
            """.write(toFile: "\(directory)/\(side).conf", atomically: true, encoding: .utf8)
            try run(["netns", "exec", namespace, "/usr/bin/dbus-daemon", "--nofork", "--config-file=\(directory)/\(side).conf"], [:])
            guard waitForFile(bus, timeout: 10) else { throw XCTSkip("dbus-daemon made no bus at \(bus)") }
            try run(
                [
                    "netns", "exec", namespace, "/usr/bin/unshare", "-m", "/bin/sh", "-c",
                    "mkdir -p /run/avahi-daemon && mount -t tmpfs none /run/avahi-daemon && exec /usr/sbin/avahi-daemon -f \"$0\" --no-drop-root --no-chroot --no-rlimits",
                    directory + "/avahi.conf",
                ], ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(bus)"])
        }
    }

    private func run(_ args: [String], _ environment: [String: String]) throws {
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["ARGS_IP"] = TestNetwork.ip
        let r = try runProgram(
            "/bin/bash",
            [
                "-c",
                "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done; \"$ARGS_IP\" \"$@\" >/dev/null 2>&1 </dev/null & echo $!",
                "sh",
            ] + args, environment: env, timeout: 10)
        guard let pid = Int32(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw XCTSkip("could not start \(args.joined(separator: " ")): \(r.stderr)")
        }
        pids.append(pid)
    }

    /// What `avahi-browse` in the client's namespace resolves of a service type (its parsable lines).
    func browse(_ type: String) throws -> String {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SYSTEM_BUS_ADDRESS"] = clientBus
        return try runProgram(
            TestNetwork.ip, ["netns", "exec", clientNamespace, "/usr/bin/avahi-browse", "-rtp", type], environment: env, timeout: 20
        ).stdout
    }

    func stop() {
        for pid in pids.reversed() { kill(pid, SIGTERM) }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
