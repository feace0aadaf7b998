import ContactsCore
import ContactsSupport
import Foundation
import Glibc
import JSONRPC

/// The daemon's one logger: one line per event on stderr, with `<N>` syslog priority
/// prefixes when stderr is connected to the journal (`JOURNAL_STREAM`), plain otherwise.
public final class Logger: @unchecked Sendable {
    /// The transport's levels are the daemon's: one set of severities end to end.
    public typealias Level = LogLevel

    /// The level; lines are written under its lock too, whole and one at a time.
    private let currentLevel: Locked<Level>
    /// The lowest level written; may change while running (SIGHUP).
    public var level: Level {
        get { currentLevel.withLock { $0 } }
        set { currentLevel.withLock { $0 = newValue } }
    }
    private let toJournal: Bool

    public init(level: Level = .info, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.currentLevel = Locked(level)
        self.toJournal = Self.stderrIsJournal(environment["JOURNAL_STREAM"])
    }

    /// `JOURNAL_STREAM` is `DEVICE:INODE` of the journal's stream; it counts only if stderr is
    /// still that stream (not redirected by a wrapper).
    static func stderrIsJournal(_ value: String?) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        var st = stat()
        guard fstat(2, &st) == 0 else { return false }
        return UInt64(st.st_dev) == dev && UInt64(st.st_ino) == ino
    }

    public func log(_ level: Level, _ message: String) {
        guard level >= self.level else { return }
        let line = message.replacingOccurrences(of: "\n", with: " ")
        let text = toJournal ? "<\(level.syslogPriority)>\(line)\n" : "contactsd: \(level.word): \(line)\n"
        // Nowhere to tell of a log that cannot be written.
        currentLevel.withLock { _ in try? FileIO.writeAll(2, Array(text.utf8)) }
    }

    /// The message is made only when debug lines are written (some take work to make).
    public func debug(_ m: @autoclosure () -> String) {
        guard LogLevel.debug >= level else { return }
        log(.debug, m())
    }
    public func info(_ m: String) { log(.info, m) }
    public func notice(_ m: String) { log(.notice, m) }
    public func warning(_ m: String) { log(.warning, m) }
    public func error(_ m: String) { log(.error, m) }

    /// The transport's log hook.
    public var rpcLogger: RPCServer.Logger { { [self] level, message in log(level, message) } }
}

extension LogLevel {
    public init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "notice": self = .notice
        case "warning", "warn": self = .warning
        case "error", "err": self = .error
        default: return nil
        }
    }

    var syslogPriority: Int {
        switch self {
        case .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        }
    }

    public var word: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }
}
