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

    /// Seconds from spawn to READY=1 (through a NOTIFY_SOCKET receiver), when measured.
    private(set) var readySeconds: Double?

    /// `config`: the text of its config.json (none: an empty scratch configuration, never the
    /// user's own).
    /// `binary`: another contactsd than the one built beside this program (an earlier build,
    /// to compare with).
    init(home: String, measureReady: Bool = false, config: String? = nil, binary: String? = nil) throws {
        self.home = home
        let binary =
            binary
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("contactsd").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw NSError(domain: "bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "build contactsd first: \(binary) is missing"])
        }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "--socket", socket, "--data-dir", home + "/data", "--log-level",
            ProcessInfo.processInfo.environment["BENCH_DAEMON_LOG"] ?? "warning",
        ]
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        // Phones read in the US, as in the store-level figures.
        env.removeValue(forKey: "LC_ALL")
        env["LC_TELEPHONE"] = "en_US.UTF-8"
        // Thumbnails go to a scratch cache, so that no run finds another's.
        env["XDG_CACHE_HOME"] = home + "/cache"
        env["XDG_CONFIG_HOME"] = home + "/config"
        if let config {
            try FileManager.default.createDirectory(atPath: home + "/config/contactsd", withIntermediateDirectories: true)
            try config.write(toFile: home + "/config/contactsd/config.json", atomically: true, encoding: .utf8)
        }
        var notifyFD: Int32 = -1
        if measureReady {
            let path = home + "/notify.sock"
            unlink(path)
            notifyFD = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var addr = try UnixSocket.address(path)
            _ = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(notifyFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            env["NOTIFY_SOCKET"] = path
        }
        process.environment = env
        let started = Date()
        try process.run()
        if notifyFD >= 0 {
            defer { close(notifyFD) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                var p = pollfd(fd: notifyFD, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 100) > 0 else { continue }
                let n = recv(notifyFD, &buffer, buffer.count, 0)
                if n > 0, String(decoding: buffer[0..<n], as: UTF8.self).contains("READY=1") {
                    readySeconds = Date().timeIntervalSince(started)
                    break
                }
            }
        }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && (try? RPCClient(path: socket)) == nil { usleep(5_000) }
    }

    /// Seconds from `bytes` arriving in the inbox as `name` (written beside it, then renamed
    /// in) to the file's move to `imported/`; throws when it goes to `failed/`.
    func importThroughInbox(_ bytes: some Sequence<UInt8>, name: String) throws -> Double {
        let staging = home + "/staging-" + name
        try Data(bytes).write(to: URL(fileURLWithPath: staging))
        settleWrites()
        let start = Date()
        guard rename(staging, inbox + "/" + name) == 0 else { throw NSError(domain: "bench", code: 2) }
        while !FileManager.default.fileExists(atPath: inbox + "/imported/" + name) {
            guard !FileManager.default.fileExists(atPath: inbox + "/failed/" + name) else {
                throw NSError(domain: "bench", code: 3, userInfo: [NSLocalizedDescriptionKey: "the drop-folder import of \(name) failed"])
            }
            usleep(2_000)
        }
        return Date().timeIntervalSince(start)
    }

    /// Waits until the daemon is at rest after a large import: its phones read as numbers (in
    /// the background, right after the import), then two seconds without a request, in which
    /// it writes its log back into the database file (a read through a log of a whole import
    /// is slower than one from the file).
    func waitUntilAtRest(timeout: Double = 120) throws {
        let client = try RPCClient(path: socket)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, (try client.call("daemon.status", [:]))["phonesAwaitingNumbers"]?.intValue ?? 0 > 0 {
            usleep(50_000)
        }
        usleep(2_000_000)
    }

    private var stopped = false

    func stop() {
        guard !stopped else { return }
        stopped = true
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}

/// Has the kernel write out what the bench wrote so far (the corpus file, earlier phases'
/// stores and exports: gigabytes at 1M) before an import is timed, so that the import does
/// not wait behind the bench's own writes: with 2 GB waiting to be written, a 1M drop-folder
/// import took 29.2 s against 25.6 s.
func settleWrites() { sync() }

/// Seconds to READY=1 when the daemon was started again on the imported store.
nonisolated(unsafe) var readyAfterImport: Double?

/// The contacts as one vCard 3.0 text.
func vCard3(_ contacts: [Contact]) -> String {
    var text = ""
    text.reserveCapacity(contacts.count * 300)
    for c in contacts { VCardWriter.write(VCard(properties: VCardMapping.properties(for: c)), version: .v3, into: &text) }
    return text
}

/// Imports a generated vCard 3.0 file with `contacts.import {path}` into a fresh daemon;
/// returns the seconds the call took.
func measureImportCall(_ contacts: [Contact], scratch: String) throws -> Double {
    let daemon = try DaemonRun(home: scratch + "/call")
    defer { daemon.stop() }
    let file = scratch + "/call/corpus.vcf"
    try vCard3(contacts).write(toFile: file, atomically: false, encoding: .utf8)
    settleWrites()
    let c = try RPCClient(path: daemon.socket)
    let start = Date()
    let report = try c.call("contacts.import", ["path": .string(file)])
    let seconds = Date().timeIntervalSince(start)
    guard report["created"]?.intValue == contacts.count else {
        throw NSError(
            domain: "bench", code: 3,
            userInfo: [NSLocalizedDescriptionKey: "contacts.import created \(report["created"]?.intValue ?? -1) of \(contacts.count)"])
    }
    return seconds
}

/// How long a drop-folder import of `contacts` takes, until the file is moved, and until its
/// phones are read as numbers too (a large import reads them right after it); meanwhile,
/// caller ID asks for `numbers` every 5 ms, and how long each answer took (ms) is returned.
func measureDropFolderImport(_ contacts: [Contact], scratch: String, numbers: [String], then: ((DaemonRun) throws -> Void)? = nil)
    throws -> (seconds: Double, withNumbers: Double, bytes: Int, lookupsWhileKeying: [Double])
{
    let text = vCard3(contacts)
    let daemon = try DaemonRun(home: scratch + "/drop")
    defer { daemon.stop() }
    let seconds = try daemon.importThroughInbox(text.utf8, name: "big.vcf")
    let imported = Date()
    let client = try RPCClient(path: daemon.socket)
    var lookups: [Double] = []
    while (try client.call("daemon.status", [:]))["phonesAwaitingNumbers"]?.intValue ?? 0 > 0 {
        for n in numbers {
            let asked = Date()
            _ = try client.call("contacts.lookupPhone", ["number": .string(n)])
            lookups.append(Date().timeIntervalSince(asked) * 1000)
            usleep(5_000)
        }
    }
    let withNumbers = seconds + Date().timeIntervalSince(imported)
    try then?(daemon)
    daemon.stop()
    // Start again on the full store: how long until READY=1.
    let again = try DaemonRun(home: scratch + "/drop", measureReady: true)
    again.stop()
    readyAfterImport = again.readySeconds
    return (seconds, withNumbers, text.utf8.count, lookups)
}
