/// `--help` text, generated from the command tree.
enum Help {
    static func text(for command: CommandSpec, path: [String]) -> String {
        var lines: [String] = []
        let name = Parser.commandName(path)
        var usage = "Usage: \(name)"
        if !command.subcommands.isEmpty && command.run == nil { usage += " COMMAND" }
        if !command.options.isEmpty || path.isEmpty { usage += " [OPTIONS]" }
        for a in command.arguments {
            let n = a.variadic ? "\(a.name)..." : a.name
            usage += a.optional ? " [\(n)]" : " \(n)"
        }
        lines.append(usage)
        lines.append("")
        lines.append(command.summary)
        if !command.aliases.isEmpty {
            lines.append("Also: " + command.aliases.map { Parser.commandName(path.dropLast() + [$0]) }.joined(separator: ", ") + ".")
        }
        let visible = command.subcommands.filter { !$0.hidden }
        if !visible.isEmpty {
            lines.append("")
            lines.append("Commands:")
            let names = visible.map { ([$0.name] + $0.aliases).joined(separator: ", ") }
            let width = (names.map(\.count).max() ?? 0) + 2
            for (s, name) in zip(visible, names) { lines.append("  " + name.padding(width) + s.summary) }
        }
        if !command.arguments.isEmpty {
            lines.append("")
            lines.append("Arguments:")
            let width = (command.arguments.map { $0.name.count }.max() ?? 0) + 2
            for a in command.arguments { lines.append("  " + a.name.padding(width) + a.help) }
        }
        let opts = command.options + Parser.globalOptions
        lines.append("")
        lines.append(
            command.options.isEmpty
                ? "Options:" : "Options (\(Parser.globalOptions.map { "--" + $0.name }.joined(separator: ", ")) work everywhere):")
        let rendered = opts.map { o -> (String, String) in
            var s = o.short.map { "-\($0), " } ?? "    "
            s += "--\(o.name)"
            if let v = o.valueName { s += " \(v)" }
            return (s, o.help + (o.repeats ? " (repeatable)" : ""))
        }
        let width = (rendered.map { $0.0.count }.max() ?? 0) + 2
        for (l, r) in rendered { lines.append("  " + l.padding(width) + r) }
        if path.isEmpty {
            lines.append("")
            lines.append("Where an ID is expected, a unique name or part of a name works too.")
            lines.append("Exit status: 0 success, 1 failure, 64 usage error, 69 daemon unreachable.")
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
