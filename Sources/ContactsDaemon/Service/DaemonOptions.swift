import ContactsCore

/// The daemon's settings after the command line is read.
public struct DaemonOptions: Sendable {
    public var socketPath: String?
    public var dataDirectory: String?
    public var logLevel: Logger.Level = .info
    public var maxLineBytes = 64 << 20
    public var maxConnections = 256

    public enum Parsed {
        case run(DaemonOptions)
        case help
        case version
    }

    public struct UsageError: Error, CustomStringConvertible {
        public var description: String
    }

    public static let usage = """
        Usage: contactsd [OPTIONS]

        The personal contacts service: owns the contact store and serves JSON-RPC 2.0 on a
        Unix socket. Usually started by systemd (contactsd.socket / contactsd.service).

        Options:
          --socket PATH        listen on PATH (default $XDG_RUNTIME_DIR/contactsd.sock)
          --data-dir DIR       keep the store in DIR (default $XDG_DATA_HOME/contactsd)
          --log-level LEVEL    debug, info, notice, warning or error (default info)
          --max-line-bytes N   longest accepted request line (default 67108864)
          --max-connections N  connections served at once (default 256)
          -h, --help           show this help
          --version            show the version
        """

    public static func parse(_ args: [String]) throws(UsageError) -> Parsed {
        var o = DaemonOptions()
        var i = 0
        func value(_ name: String) throws(UsageError) -> String {
            i += 1
            guard i < args.count else { throw UsageError(description: "\(name) needs a value") }
            return args[i]
        }
        func number(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
            let v = try value(name)
            guard let n = Int(v), range.contains(n) else {
                throw UsageError(description: "\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(v)'")
            }
            return n
        }
        while i < args.count {
            var arg = args[i]
            // --name=value is accepted too.
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                var rest = args
                rest.replaceSubrange(i...i, with: [String(arg[..<eq]), String(arg[arg.index(after: eq)...])])
                return try parse(rest)
            }
            switch arg {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--socket": o.socketPath = try value(arg)
            case "--data-dir": o.dataDirectory = try value(arg)
            case "--log-level":
                let v = try value(arg)
                guard let l = Logger.Level(name: v) else {
                    throw UsageError(description: "--log-level must be debug, info, notice, warning or error, not '\(v)'")
                }
                o.logLevel = l
            case "--max-line-bytes": o.maxLineBytes = try number(arg, 1024...(1 << 40))
            case "--max-connections": o.maxConnections = try number(arg, 1...65536)
            default:
                arg = arg.hasPrefix("-") ? "unknown option '\(arg)'" : "unexpected argument '\(arg)'"
                throw UsageError(description: arg)
            }
            i += 1
        }
        return .run(o)
    }
}
