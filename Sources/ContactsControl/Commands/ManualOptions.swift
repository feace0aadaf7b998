import Foundation

/// The man page's list of every command's options, written in roff from the command tree, as
/// the completions are: `contactsctl completions man` prints it, `make completions` puts it
/// between the markers in man/contactsctl.1, and a test holds the two together.
enum ManualOptions {
    static let begin = ".\\\" Generated from the command tree by 'contactsctl completions man': edit CommandTree, then 'make completions'."
    static let end = ".\\\" End of the generated options."

    /// The section, markers included.
    static func roff(_ root: CommandSpec) -> String {
        var out = [begin, ".SH COMMAND OPTIONS"]
        walk(root, path: []) { path, command in
            guard !command.hidden, !command.options.isEmpty else { return }
            out.append(".SS " + escape(path.joined(separator: " ")))
            for o in command.options {
                out.append(".TP")
                var head = o.short.map { "\\fB\\-\(escape(String($0)))\\fR, " } ?? ""
                head += "\\fB\\-\\-\(escape(o.name))\\fR"
                if let v = o.valueName { head += " \\fI\(escape(v))\\fR" }
                out.append(head)
                out.append(escape(o.help) + (o.repeats ? " (repeatable)" : ""))
            }
        }
        out.append(end)
        return out.joined(separator: "\n") + "\n"
    }

    private static func walk(_ c: CommandSpec, path: [String], _ visit: ([String], CommandSpec) -> Void) {
        let here = path + [c.name]
        if !path.isEmpty { visit(here, c) }
        for s in c.subcommands { walk(s, path: here, visit) }
    }

    /// Text as roff reads it: hyphens as minus signs, backslashes doubled, no line starting with
    /// a control character.
    static func escape(_ s: String) -> String {
        var out = s.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
