/// Reads a command line against the declared tree.
enum Parser {
    static let globalOptions: [OptionSpec] = [
        OptionSpec("json", help: "print machine-readable JSON"),
        OptionSpec(
            "socket", value: "PATH", help: "the daemon's socket (default $CONTACTSD_SOCKET, then $XDG_RUNTIME_DIR/contactsd.sock)",
            completion: .files(extensions: [])),
        OptionSpec("no-color", help: "never colour the output"),
        OptionSpec("help", short: "h", help: "show help"),
    ]

    struct Result {
        var command: CommandSpec
        var invocation: Invocation
        var wantsHelp: Bool
    }

    static func parse(_ args: [String], root: CommandSpec, socketDefault: String, environment: [String: String], output: (Bool) -> Output)
        throws -> Result
    {
        var command = root
        var path: [String] = []
        var options: [String: [String]] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                if positionals.isEmpty && !onlyPositionals, let sub = command.subcommand(arg) {
                    command = sub
                    path.append(arg)
                } else {
                    positionals.append(arg)
                }
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inline: String?
            if arg.hasPrefix("--") {
                name = String(arg.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else {
                guard arg.count == 2, let c = arg.last,
                    let spec = (command.options + globalOptions).first(where: { $0.short == c })
                else {
                    throw UsageError(message: "unknown option '\(arg)'", command: commandName(path))
                }
                name = spec.name
            }
            guard let spec = (command.options + globalOptions).first(where: { $0.name == name }) else {
                throw UsageError(message: "unknown option '--\(name)'\(suggestion(name, command))", command: commandName(path))
            }
            if spec.takesValue {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard i < args.count else {
                        throw UsageError(message: "--\(name) needs a value (\(spec.valueName ?? "VALUE"))", command: commandName(path))
                    }
                    value = args[i]
                    i += 1
                }
                if case .choices(let allowed) = spec.completion, !allowed.contains(value) {
                    throw UsageError(
                        message: "--\(name) must be one of \(allowed.joined(separator: ", ")), not '\(value)'", command: commandName(path))
                }
                if !spec.repeats && options[name] != nil {
                    throw UsageError(message: "--\(name) given twice", command: commandName(path))
                }
                options[name, default: []].append(value)
            } else {
                if inline != nil { throw UsageError(message: "--\(name) takes no value", command: commandName(path)) }
                flags.insert(name)
            }
        }
        let wantsHelp = flags.contains("help")
        let out = output(flags.contains("no-color"))
        var inv = Invocation(path: path, socketPath: options["socket"]?.last ?? socketDefault, environment: environment, output: out)
        inv.options = options
        inv.flags = flags
        inv.arguments = positionals
        inv.json = flags.contains("json")
        if !wantsHelp {
            try checkArguments(positionals, command: command, path: path)
        }
        return Result(command: command, invocation: inv, wantsHelp: wantsHelp)
    }

    static func checkArguments(_ positionals: [String], command: CommandSpec, path: [String]) throws {
        if command.run == nil {
            if let first = positionals.first {
                throw UsageError(message: "unknown command '\(first)'\(suggestion(first, command))", command: commandName(path))
            }
            return
        }
        let required = command.arguments.filter { !$0.optional }.count
        let variadic = command.arguments.contains { $0.variadic }
        if positionals.count < required {
            let missing = command.arguments.filter { !$0.optional }[positionals.count].name
            throw UsageError(message: "missing \(missing)", command: commandName(path))
        }
        if !variadic && positionals.count > command.arguments.count {
            throw UsageError(message: "unexpected argument '\(positionals[command.arguments.count])'", command: commandName(path))
        }
    }

    static func commandName(_ path: [String]) -> String { (["contactsctl"] + path).joined(separator: " ") }

    /// A close name to propose for a word that names nothing; never one that undoes what the
    /// word asks for (`undelete` for `delete`, `unassign` for `assign`), whatever its distance.
    /// An option is proposed as it is typed, with its dashes (`--favorites`).
    static func suggestion(_ word: String, _ command: CommandSpec) -> String {
        let candidates = command.visibleNames.map { ($0.name, $0.name) } + command.options.map { ($0.name, "--" + $0.name) }
        let safe = candidates.filter { !reverses($0.0, word) }
        guard let best = safe.min(by: { distance($0.0, word) < distance($1.0, word) }), distance(best.0, word) <= 2 else { return "" }
        return "; did you mean '\(best.1)'?"
    }

    static func reverses(_ candidate: String, _ word: String) -> Bool {
        ["un", "no-"].contains { negation in
            func strip(_ s: String) -> String? { s.hasPrefix(negation) ? String(s.dropFirst(negation.count)) : nil }
            if let base = strip(candidate), strip(word) == nil { return distance(base, word) <= 1 }
            if let base = strip(word), strip(candidate) == nil { return distance(base, candidate) <= 1 }
            return false
        }
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var prev = row[0]
            row[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cur = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                prev = cur
            }
        }
        return row[b.count]
    }
}
