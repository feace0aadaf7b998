/// How severe a log line is; lines below the level in force are not written.
public enum LogLevel: Int, Sendable, Comparable {
    case debug, info, notice, warning, error
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}
