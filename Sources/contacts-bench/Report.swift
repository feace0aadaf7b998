import Foundation

/// What a run of the bench found: the table it prints, and the figures `--json` writes.
struct Report {
    var rows: [(String, String)] = []
    var figures: [String: Double] = [:]

    mutating func row(_ label: String, _ value: String) { rows.append((label, value)) }

    mutating func merge(_ other: Report) {
        rows += other.rows
        figures.merge(other.figures) { $1 }
    }

    func print(title: String) {
        let width = rows.map { $0.0.count }.max() ?? 0
        Swift.print(title)
        for (k, v) in rows { Swift.print(k.padding(toLength: width + 2, withPad: " ", startingAt: 0) + v) }
    }

    func writeJSON(to path: String) throws {
        let text = "{" + figures.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

func now() -> Double { Date().timeIntervalSince1970 }

/// The median and 99th percentile, in milliseconds, of `rounds` runs of `body` over `inputs`.
func millisPercentiles<T>(rounds: Int, over inputs: [T], _ body: (T) throws -> Void) rethrows -> (p50: Double, p99: Double) {
    var samples: [Double] = []
    for _ in 0..<rounds {
        for x in inputs {
            let s = now()
            try body(x)
            samples.append((now() - s) * 1000)
        }
    }
    samples.sort()
    guard !samples.isEmpty else { return (0, 0) }
    return (samples[samples.count / 2], samples[min(samples.count - 1, samples.count * 99 / 100)])
}

/// With BENCH_PAUSE=SECONDS, keeps the daemon running that long before it stops: for a look
/// at its memory (/proc/PID/smaps) or a profiler attached to it.
func pauseIfAsked(_ daemon: DaemonRun) {
    guard let pause = ProcessInfo.processInfo.environment["BENCH_PAUSE"].flatMap(Double.init) else { return }
    print("daemon pid \(daemon.process.processIdentifier) (socket \(daemon.socket)); pausing \(pause) s")
    fflush(nil)
    usleep(UInt32(pause * 1_000_000))
}
