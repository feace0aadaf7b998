import ContactsCore
import Foundation
import Glibc
import JSONCore
import JSONRPC
import Thumbnails
import VipsImages

/// Measurements through the socket of a real contactsd holding the corpus.
enum ServiceBench {
    /// Starts the process's peak resident memory (`VmHWM`) again from what it holds now.
    static func resetPeakRSS(_ pid: Int32) {
        let fd = open("/proc/\(pid)/clear_refs", O_WRONLY)
        guard fd >= 0 else { return }
        _ = write(fd, "5", 1)
        close(fd)
    }

    /// Resident memory now (`VmRSS`) or at its peak (`VmHWM`), in MiB.
    static func rssMiB(_ pid: Int32, field: String = "VmRSS") -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") })
        else { return 0 }
        return Double(line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0) / 1024
    }

    /// The context switches of every thread of `pid` so far: each is a wakeup.
    static func contextSwitches(_ pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var total = 0
        for t in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(t)/status", encoding: .utf8) else { continue }
            for line in text.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                total += Int(line.split(separator: "\t").last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
            }
        }
        return total
    }

    /// Sequential, pipelined and multi-connection `contacts.get` calls per second.
    static func getThroughput(socket: String, ids: [String], calls: Int) throws -> (sequential: Double, pipelined: Double, parallel: Double)
    {
        let c = try RPCClient(path: socket)
        var t = Date()
        for i in 0..<calls { _ = try c.call("contacts.get", ["id": .string(ids[i % ids.count])]) }
        let sequential = Double(calls) / Date().timeIntervalSince(t)

        var batch: [UInt8] = []
        for i in 0..<calls {
            batch += JSONWriter.serialize([
                "jsonrpc": "2.0", "method": "contacts.get", "params": ["id": .string(ids[i % ids.count])], "id": .int(i),
            ])
            batch.append(0x0A)
        }
        // One connection: a second descriptor writes the whole batch while this one reads.
        let p = try RPCClient(path: socket)
        let fd = p.descriptor
        let payload = batch
        t = Date()
        let sender = Thread {
            payload.withUnsafeBytes { b in _ = try? UnixSocket.sendAll(fd, b) }
        }
        sender.start()
        for _ in 0..<calls { _ = try p.readLine() }
        let pipelined = Double(calls) / Date().timeIntervalSince(t)

        let workers = 4
        t = Date()
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            guard let c = try? RPCClient(path: socket) else { return }
            for i in 0..<(calls / workers) { _ = try? c.call("contacts.get", ["id": .string(ids[(i * workers + w) % ids.count])]) }
        }
        let parallel = Double(calls) / Date().timeIntervalSince(t)
        return (sequential, pipelined, parallel)
    }

    /// Where `name` is on PATH, if it is.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The corpus as an abook address book (its own key=value format, one section a
    /// contact), for `abook --mutt-query` to search the same people.
    static func writeAbook(_ contacts: [ContactsCore.Contact], to path: String) throws {
        var text = "# abook addressbook file\n\n[format]\nprogram=abook\nversion=0.6.1\n\n"
        for (i, c) in contacts.enumerated() {
            text += "[\(i)]\nname=\(c.name)\n"
            if !c.emails.isEmpty { text += "email=" + c.emails.map(\.value).joined(separator: ",") + "\n" }
            if let phone = c.phones.first { text += "phone=\(phone.value)\n" }
            text += "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// What a command writes to standard output.
    static func output(_ path: String, _ args: [String], environment: [String: String]) -> String {
        (try? run(path, args, environment: environment).stdout) ?? ""
    }

    /// A command's exit status and what it writes to standard output.
    static func run(_ path: String, _ args: [String], environment: [String: String]) throws -> (status: Int32, stdout: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.environment = environment
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Wall time of a whole command, best of `runs`, in milliseconds. posix_spawn, not
    /// Foundation's Process, whose own set-up costs tens of milliseconds per launch here.
    static func commandMillis(_ path: String, _ args: [String], environment: [String: String], runs: Int) -> Double {
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var best = Double.infinity
        for _ in 0..<runs {
            var pid: pid_t = 0
            let t = Date()
            guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return .nan }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            best = min(best, Date().timeIntervalSince(t) * 1000)
        }
        return best
    }

    /// A 12-megapixel photo set through the socket, then thumbnails: the first request of a
    /// size nobody asked for, and cached ones.
    static func photos(socket: String, id: String) throws -> (set: Double, cold: Double, cachedP50: Double, cachedP99: Double) {
        let c = try RPCClient(path: socket)
        let jpeg = try Images.synthesize(width: 4000, height: 3000)
        let params: JSONObject = ["id": .string(id), "data": .string(Data(jpeg).base64EncodedString())]
        var t = Date()
        _ = try c.call("contacts.setPhoto", params)
        let set = Date().timeIntervalSince(t)
        // Let the thumbnails made ahead finish, so that they do not share the cores with the next figure.
        usleep(1_500_000)
        t = Date()
        _ = try c.call("contacts.thumbnail", ["id": .string(id), "size": 300])
        let cold = Date().timeIntervalSince(t)
        var cached: [Double] = []
        for _ in 0..<500 {
            t = Date()
            _ = try c.call("contacts.thumbnail", ["id": .string(id), "size": 256])
            cached.append(Date().timeIntervalSince(t))
        }
        cached.sort()
        return (set, cold, cached[cached.count / 2], cached[cached.count * 99 / 100])
    }
}
