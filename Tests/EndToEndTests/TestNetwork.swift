import Foundation
import XCTest

/// Two network namespaces joined by a veth pair, made by a test and removed after it: the
/// server's at 198.18.0.1, the client's at 198.18.0.2 (RFC 2544's range for test networks).
/// Nothing a test runs in them reaches any other address, and nothing they listen on is
/// reachable from the machine's own interfaces.
final class TestNetwork {
    static let ip =
        ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "ip"

    let server: String
    let client: String
    let serverAddress = "198.18.0.1"
    let clientAddress = "198.18.0.2"

    /// Makes the namespaces, or skips the test (saying why) where they cannot be made.
    init() throws {
        let tag = UUID().uuidString.prefix(6).lowercased()
        server = "cd-s-" + tag
        client = "cd-c-" + tag
        let steps: [[String]] = [
            ["netns", "add", server], ["netns", "add", client],
            ["link", "add", "cds" + tag, "type", "veth", "peer", "name", "cdc" + tag],
            ["link", "set", "cds" + tag, "netns", server], ["link", "set", "cdc" + tag, "netns", client],
            ["-n", server, "addr", "add", serverAddress + "/30", "dev", "cds" + tag],
            ["-n", client, "addr", "add", clientAddress + "/30", "dev", "cdc" + tag],
            ["-n", server, "link", "set", "lo", "up"], ["-n", client, "link", "set", "lo", "up"],
            ["-n", server, "link", "set", "cds" + tag, "up"], ["-n", client, "link", "set", "cdc" + tag, "up"],
        ]
        for (i, step) in steps.enumerated() {
            let r = try runProgram(Self.ip, step, environment: ProcessInfo.processInfo.environment)
            if r.status != 0 {
                remove()
                if i == 0 {
                    throw XCTSkip(
                        "network namespaces cannot be made here (ip netns add: \(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))); the LAN tests need CAP_NET_ADMIN"
                    )
                }
                throw NSError(
                    domain: "netns", code: 1, userInfo: [NSLocalizedDescriptionKey: "ip \(step.joined(separator: " ")): \(r.stderr)"])
            }
        }
    }

    /// Runs a program inside the client's namespace.
    func inClient(
        _ program: String, _ args: [String], environment: [String: String] = ProcessInfo.processInfo.environment, stdin: String? = nil,
        timeout: Double = 60
    ) throws -> ProcessResult {
        try runProgram(Self.ip, ["netns", "exec", client, program] + args, environment: environment, stdin: stdin, timeout: timeout)
    }

    /// Runs a program inside the server's namespace.
    func inServer(
        _ program: String, _ args: [String], environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Double = 60
    ) throws -> ProcessResult {
        try runProgram(Self.ip, ["netns", "exec", server, program] + args, environment: environment, timeout: timeout)
    }

    /// Removes both namespaces (and the veth pair with them).
    func remove() {
        for ns in [server, client] { _ = try? runProgram(Self.ip, ["netns", "del", ns], environment: ProcessInfo.processInfo.environment) }
    }
}
