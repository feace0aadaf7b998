import ContactsCore
import Foundation
import Glibc
import JSONCore
import JSONRPC
import VCard

/// A real contactsd (the release build beside this program) in a scratch home.
final class DaemonRun {
    let home: String
    let process = Process()
    var socket: String { home + "/contactsd.sock" }
    var inbox: String { home + "/data/inbox" }

    init(home: String) throws {
        self.home = home
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("contactsd").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw NSError(domain: "bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "build contactsd first: \(binary) is missing"])
        }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--socket", socket, "--data-dir", home + "/data", "--log-level", ProcessInfo.processInfo.environment["BENCH_DAEMON_LOG"] ?? "warning"]
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        process.environment = env
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && (try? RPCClient(path: socket)) == nil { usleep(5_000) }
    }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}

/// Imports a generated vCard 3.0 file through the drop folder; returns seconds.
func measureDropFolderImport(_ contacts: [Contact], scratch: String, then: ((DaemonRun) throws -> Void)? = nil) throws -> (seconds: Double, bytes: Int) {
    var text = ""
    text.reserveCapacity(contacts.count * 300)
    for c in contacts { VCardWriter.write(VCard(properties: VCardMapping.properties(for: c)), version: .v3, into: &text) }
    let daemon = try DaemonRun(home: scratch + "/drop")
    defer { daemon.stop() }
    let staging = scratch + "/drop/staging.vcf"
    try text.write(toFile: staging, atomically: false, encoding: .utf8)
    let start = Date()
    guard rename(staging, daemon.inbox + "/big.vcf") == 0 else { throw NSError(domain: "bench", code: 2) }
    while !FileManager.default.fileExists(atPath: daemon.inbox + "/imported/big.vcf")
        && !FileManager.default.fileExists(atPath: daemon.inbox + "/failed/big.vcf")
    {
        usleep(2_000)
    }
    let seconds = Date().timeIntervalSince(start)
    try then?(daemon)
    return (seconds, text.utf8.count)
}
