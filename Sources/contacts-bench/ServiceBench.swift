import Foundation
import Glibc
import JSONCore
import JSONRPC

/// Measurements through the socket of a real contactsd holding the corpus.
enum ServiceBench {
    static func rssMiB(_ pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Double(line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0) / 1024
    }

    /// Sequential, pipelined and multi-connection `contacts.get` calls per second.
    static func getThroughput(socket: String, ids: [String], calls: Int) throws -> (sequential: Double, pipelined: Double, parallel: Double) {
        let c = try RPCClient(path: socket)
        var t = Date()
        for i in 0..<calls { _ = try c.call("contacts.get", ["id": .string(ids[i % ids.count])]) }
        let sequential = Double(calls) / Date().timeIntervalSince(t)

        var batch: [UInt8] = []
        for i in 0..<calls {
            batch += JSONWriter.serialize(["jsonrpc": "2.0", "method": "contacts.get", "params": ["id": .string(ids[i % ids.count])], "id": .int(i)])
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

    /// Wall time of a whole command, best of `runs`, in milliseconds.
    static func commandMillis(_ path: String, _ args: [String], environment: [String: String], runs: Int) -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: path)
            p.arguments = args
            p.environment = environment
            p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            let t = Date()
            guard (try? p.run()) != nil else { return .nan }
            p.waitUntilExit()
            best = min(best, Date().timeIntervalSince(t) * 1000)
        }
        return best
    }
}
