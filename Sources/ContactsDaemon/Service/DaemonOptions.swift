import ContactsCore

/// What the command line says. Every value is optional: what is not given comes from the
/// configuration file, then from the defaults.
public struct DaemonOptions: Sendable {
    public var socketPath: String?
    public var dataDirectory: String?
    public var inbox: String?
    public var configPath: String?
    public var logLevel: Logger.Level?
    public var maxLineBytes: Int?
    public var maxConnections: Int?

    public init() {}

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
        Unix socket. Usually started by systemd (contactsd.socket and contactsd.service).

        Options:
          --socket PATH        listen on PATH (default $XDG_RUNTIME_DIR/contactsd.sock)
          --data-dir DIR       keep the store in DIR (default $XDG_DATA_HOME/contactsd)
          --inbox DIR          import .vcf files dropped in DIR (default DATA-DIR/inbox)
          --config FILE        read settings from FILE (default $XDG_CONFIG_HOME/contactsd/config.json)
          --log-level LEVEL    debug, info, notice, warning or error (default info)
          --max-line-bytes N   longest accepted request line (default 67108864)
          --max-connections N  connections served at once (default 256)
          -h, --help           show this help
          --version            show the version

        Options given here override the configuration file. SIGHUP re-reads the file;
        SIGTERM and SIGINT stop the daemon cleanly.
        """

    public static func parse(_ args: [String]) throws(UsageError) -> Parsed {
        var o = DaemonOptions()
        var args = args
        // --name=value is accepted too.
        args = args.flatMap { a -> [String] in
            guard a.hasPrefix("--"), let eq = a.firstIndex(of: "=") else { return [a] }
            return [String(a[..<eq]), String(a[a.index(after: eq)...])]
        }
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
            let arg = args[i]
            switch arg {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--socket": o.socketPath = try value(arg)
            case "--data-dir": o.dataDirectory = try value(arg)
            case "--inbox": o.inbox = try value(arg)
            case "--config": o.configPath = try value(arg)
            case "--log-level":
                let v = try value(arg)
                guard let l = Logger.Level(name: v) else {
                    throw UsageError(description: "--log-level must be debug, info, notice, warning or error, not '\(v)'")
                }
                o.logLevel = l
            case "--max-line-bytes": o.maxLineBytes = try number(arg, Settings.lineLimitRange)
            case "--max-connections": o.maxConnections = try number(arg, Settings.connectionRange)
            default:
                throw UsageError(description: arg.hasPrefix("-") ? "unknown option '\(arg)'" : "unexpected argument '\(arg)'")
            }
            i += 1
        }
        return .run(o)
    }
}
