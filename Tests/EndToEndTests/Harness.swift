import ContactsSupport
import Foundation
import Glibc
import JSONCore
import JSONRPC
import XCTest

/// Paths of the built products and of the repository.
enum Products {
    static var directory: URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // swift test runs .build/<config>/<package>PackageTests.xctest; the binaries sit beside it.
        return runner.deletingLastPathComponent()
    }

    static func path(_ name: String) throws -> String {
        let p = directory.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: p) else {
            throw XCTSkip("\(name) is not built at \(p); run 'swift build' first (scripts/test.sh does)")
        }
        return p
    }

    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}

/// A datagram socket that receives sd_notify messages, as systemd's NOTIFY_SOCKET does.
final class NotifyReceiver {
    let path: String
    let fd: Int32
    private(set) var messages: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var addr = try UnixSocket.address(path)
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard r == 0 else { throw SystemError("bind", errno: errno, detail: path) }
    }

    deinit { close(fd) }

    /// Waits until `count` messages containing `text` have arrived.
    @discardableResult
    func wait(for text: String, count: Int = 1, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if messages.filter({ $0.contains(text) }).count >= count { return true }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 100) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 { messages.append(String(decoding: buffer[0..<n], as: UTF8.self)) }
            }
        }
        return messages.filter({ $0.contains(text) }).count >= count
    }
}

/// What a finished process left.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program to completion with the given environment and standard input.
func runProgram(_ path: String, _ args: [String], environment: [String: String], stdin: String? = nil, timeout: Double = 30) throws
    -> ProcessResult
{
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.environment = environment
    let out = Pipe(), err = Pipe(), input = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = input
    try p.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    final class Box: @unchecked Sendable { var data = Data() }
    let errBox = Box()
    let errDone = DispatchSemaphore(value: 0)
    let errHandle = err.fileHandleForReading
    DispatchQueue.global().async {
        errBox.data = errHandle.readDataToEndOfFile()
        errDone.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    errDone.wait()
    let errData = errBox.data
    let deadline = Date().addingTimeInterval(timeout)
    while p.isRunning && Date() < deadline { usleep(10_000) }
    if p.isRunning {
        p.terminate()
        throw XCTSkip("\(path) did not finish within \(timeout) s")
    }
    return ProcessResult(
        status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
}

/// A real contactsd in a scratch home: its own data directory, socket and NOTIFY_SOCKET.
final class DaemonFixture {
    let home: String
    let socketPath: String
    let dataDir: String
    var process: Process?
    var notify: NotifyReceiver?
    var logPath: String { home + "/daemon.log" }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    /// What earlier runs of the daemon in this fixture wrote before a restart cleared the log.
    private(set) var earlierLogs = ""

    init() throws {
        home = NSTemporaryDirectory() + "contactsd-e2e-" + UUID().uuidString.prefix(8)
        socketPath = home + "/run/contactsd.sock"
        dataDir = home + "/data/contactsd"
        for d in ["run", "data", "config", "cache"] {
            try FileManager.default.createDirectory(
                atPath: home + "/" + d, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        env["XDG_RUNTIME_DIR"] = home + "/run"
        env["XDG_DATA_HOME"] = home + "/data"
        env["XDG_CONFIG_HOME"] = home + "/config"
        env["XDG_CACHE_HOME"] = home + "/cache"
        env["CONTACTSD_SOCKET"] = socketPath
        env["NO_COLOR"] = "1"
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "LISTEN_FDS")
        env.removeValue(forKey: "LISTEN_PID")
        // No region for phone numbers unless a test gives one (the machine's locale would).
        for name in ["LANG", "LC_ALL", "LC_TELEPHONE"] { env.removeValue(forKey: name) }
        return env
    }

    /// Starts the daemon and waits for READY=1.
    /// With `namespace`, the daemon runs inside that network namespace (`ip netns exec`, which
    /// becomes the daemon: its pid is the daemon's).
    func start(
        extraArgs: [String] = [], extraEnvironment: [String: String] = [:], keepLog: Bool = false, namespace: String? = nil
    ) throws {
        let receiver = try NotifyReceiver(path: home + "/notify-\(UUID().uuidString.prefix(4)).sock")
        notify = receiver
        let p = Process()
        if let namespace {
            p.executableURL = URL(fileURLWithPath: TestNetwork.ip)
            p.arguments = ["netns", "exec", namespace, try Products.path("contactsd")] + extraArgs
        } else {
            p.executableURL = URL(fileURLWithPath: try Products.path("contactsd"))
            p.arguments = extraArgs
        }
        var env = environment
        env["NOTIFY_SOCKET"] = receiver.path
        env.merge(extraEnvironment) { $1 }
        p.environment = env
        if !keepLog {
            earlierLogs += log
            FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        p.standardError = FileHandle(forWritingAtPath: logPath)
        try p.run()
        process = p
        guard receiver.wait(for: "READY=1") else {
            p.terminate()
            throw NSError(domain: "e2e", code: 1, userInfo: [NSLocalizedDescriptionKey: "contactsd sent no READY=1"])
        }
    }

    /// The files the running daemon maps (`/proc/PID/maps`), read to its end: a file of /proc
    /// tells no size, and `String(contentsOfFile:)` reads only its first page.
    func mappedFiles() throws -> String {
        let pid = try XCTUnwrap(process?.processIdentifier, "no daemon process")
        let maps = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"), "no maps for \(pid)")
        defer { try? maps.close() }
        return String(decoding: try maps.readToEnd() ?? Data(), as: UTF8.self)
    }

    /// Sends SIGTERM and waits; returns the exit status.
    @discardableResult
    func stop(signal sig: Int32 = SIGTERM, timeout: Double = 10) -> Int32? {
        guard let p = process else { return nil }
        kill(p.processIdentifier, sig)
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning {
            print("contactsd did not stop within \(timeout) s; killing it. Its log:\n\(log)")
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            return nil
        }
        process = nil
        return p.terminationStatus
    }

    func ctl(_ args: String..., stdin: String? = nil) throws -> ProcessResult { try ctl(args, stdin: stdin) }

    func ctl(_ args: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:]) throws -> ProcessResult {
        try runProgram(try Products.path("contactsctl"), args, environment: environment.merging(extraEnvironment) { $1 }, stdin: stdin)
    }

    func client() throws -> RPCClient { try RPCClient(path: socketPath) }

    func cleanUp() {
        stop()
        // Under a sanitizer the daemon reports into its log: a report fails the test.
        let text = earlierLogs + log
        for marker in ["WARNING: ThreadSanitizer", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer"] {
            if let found = text.range(of: marker) {
                XCTFail("contactsd reported a sanitizer finding:\n\(text[found.lowerBound...].prefix(8000))")
                break
            }
        }
        try? FileManager.default.removeItem(atPath: home)
    }
}

/// A test case with a scratch home for a contactsd that the test starts itself.
class FixtureTestCase: XCTestCase {
    var daemon: DaemonFixture!

    override func setUpWithError() throws {
        daemon = try DaemonFixture()
    }

    override func tearDown() {
        daemon?.cleanUp()
    }
}

/// A test case with a fresh contactsd running in its own scratch home.
class DaemonTestCase: FixtureTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try daemon.start()
    }
}

/// Waits until a file exists.
func waitForFile(_ path: String, timeout: Double = 30) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if FileManager.default.fileExists(atPath: path) { return true }
        usleep(20_000)
    }
    return false
}
