import Glibc

/// The process's environment.
public enum ProcessEnvironment {
    /// Read from `environ` as it is (Foundation's ProcessInfo takes some hundred microseconds
    /// more to set itself up, of a start mail clients wait for); of a name given twice, the
    /// first, as getenv finds it.
    public static func current() -> [String: String] {
        var out: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.utf8.firstIndex(of: UInt8(ascii: "=")), case let name = String(s[..<eq]), out[name] == nil {
                out[name] = String(s[s.index(after: eq)...])
            }
            p += 1
        }
        return out
    }

    /// One variable, as getenv finds it.
    @Sendable public static func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// The command line, read from argv as it is (CommandLine.arguments builds it with generic
    /// code that looks up types and conformances at run time, on the first use in a process).
    public static func arguments() -> [String] {
        var out: [String] = []
        for i in 0..<Int(CommandLine.argc) {
            if let arg = CommandLine.unsafeArgv[i] { out.append(String(cString: arg)) }
        }
        return out
    }
}
