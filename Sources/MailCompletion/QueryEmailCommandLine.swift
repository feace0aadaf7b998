/// A `contactsctl query-email` command line read as the full client reads it, for the forms a
/// mail client gives: the verb, one TEXT, `--no-header`, `--limit N` (`-n N`, `--limit=N`),
/// `--socket PATH`, `--no-color`, `--` before a TEXT that starts with a dash. Anything else
/// (`--json`, `--help`, a mistake) is nil: the full client answers it, and says what is wrong.
public struct QueryEmailCommandLine: Equatable, Sendable {
    public var query: QueryEmail
    /// `--socket`, when given.
    public var socket: String?

    public init?(_ args: ArraySlice<String>) {
        var verb = false
        var text: String?
        var limit: Int?
        var header = true
        var socket: String?
        var onlyOperands = false
        var rest = args
        // Whether `arg` is the option `name` (`name VALUE` or `name=VALUE`), and then its value
        // (nil: none followed).
        func value(_ name: String, _ arg: String) -> String?? {
            if arg == name { return .some(rest.popFirst()) }
            if arg.hasPrefix(name + "=") { return .some(String(arg.dropFirst(name.count + 1))) }
            return .none
        }
        while let arg = rest.popFirst() {
            if onlyOperands || arg == "-" || !arg.hasPrefix("-") {
                if !verb && !onlyOperands {
                    guard arg == "query-email" else { return nil }
                    verb = true
                } else {
                    guard verb, text == nil else { return nil }
                    text = arg
                }
            } else if arg == "--" {
                guard verb else { return nil }
                onlyOperands = true
            } else if arg == "--no-header", verb {
                header = false
            } else if arg == "--no-color" {
                continue
            } else if let given = value("--socket", arg) {
                guard socket == nil, let path = given else { return nil }
                socket = path
            } else if let given = arg == "-n" ? .some(rest.popFirst()) : value("--limit", arg), verb {
                guard limit == nil, let n = given.flatMap({ Int($0) }), n > 0 else { return nil }
                limit = n
            } else {
                return nil
            }
        }
        guard let text else { return nil }
        self.query = QueryEmail(text: text, limit: limit ?? QueryEmail.defaultLimit, header: header)
        self.socket = socket
    }
}
