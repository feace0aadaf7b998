import Foundation

/// Runs a command that prints a password or token (`secret-tool lookup ...`, `pass show ...`)
/// and takes the first line it prints. The command runs without a shell; what it prints is
/// never logged and never in an error.
enum SecretCommand {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ argv: [String], account: String, timeout: TimeInterval = 30) throws -> String {
        guard let program = argv.first, !program.isEmpty else {
            throw Failure(description: "account '\(account)': the password command is empty")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program.contains("/") ? program : "/usr/bin/env")
        p.arguments = program.contains("/") ? Array(argv.dropFirst()) : argv
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch {
            throw Failure(description: "account '\(account)': cannot run \(program): \(error.localizedDescription)")
        }
        let deadline = DispatchTime.now() + timeout
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var data = Data()
        // A thread of its own: the read may wait as long as the timeout, and a wait on the
        // worker pool would hold up the work on every core.
        Thread.detachNewThread {
            data = out.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        if done.wait(timeout: deadline) == .timedOut {
            p.terminate()
            throw Failure(description: "account '\(account)': \(program) printed nothing within \(Int(timeout)) s")
        }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw Failure(description: "account '\(account)': \(program) failed (exit status \(p.terminationStatus))")
        }
        let line =
            String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard !line.isEmpty else { throw Failure(description: "account '\(account)': \(program) printed nothing") }
        return line
    }
}
