import ContactsSupport
import Glibc
import JSONCore

/// Where the client writes: stdout and stderr, with the terminal's width and whether colour
/// is wanted (a terminal, and no `NO_COLOR`).
public final class Output {
    public let isTerminal: Bool
    public let useColor: Bool
    public let width: Int?
    private var buffer: [UInt8] = []

    public init(environment: [String: String], forceNoColor: Bool = false) {
        isTerminal = isatty(1) != 0
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        useColor = isTerminal && !noColor && !forceNoColor && environment["TERM"] != "dumb"
        var ws = winsize()
        if isTerminal, ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 {
            width = Int(ws.ws_col)
        } else if let cols = environment["COLUMNS"].flatMap(Int.init), cols > 0, isTerminal {
            width = cols
        } else {
            width = nil
        }
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    public func line(_ text: String = "") { write(text + "\n") }

    /// Writes now; used where a line must reach a pipe at once (`watch`).
    public func flush() {
        // A reader that went away (`| head`) is no error of ours.
        try? FileIO.writeAll(1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    public func error(_ text: String) {
        flush()
        let line = "contactsctl: \(text)\n"
        _ = line.withCString { Glibc.write(2, $0, strlen($0)) }
    }

    public func json(_ value: JSONValue) {
        line(PrettyJSON.format(value, indent: isTerminal))
    }

    // MARK: Styling

    public func bold(_ s: String) -> String { useColor ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    public func dim(_ s: String) -> String { useColor ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    public func accent(_ s: String) -> String { useColor ? "\u{1B}[33m\(s)\u{1B}[0m" : s }
}

/// JSON for people: indented on a terminal, one compact line otherwise.
enum PrettyJSON {
    static func format(_ value: JSONValue, indent: Bool) -> String {
        guard indent else { return JSONWriter.string(value) }
        var out = ""
        write(value, level: 0, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, level: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: level + 1)
        let closePad = String(repeating: "  ", count: level)
        switch value {
        case .array(let a) where !a.isEmpty:
            out += "[\n"
            for (i, e) in a.enumerated() {
                out += pad
                write(e, level: level + 1, into: &out)
                out += i == a.count - 1 ? "\n" : ",\n"
            }
            out += closePad + "]"
        case .object(let o) where !o.isEmpty:
            out += "{\n"
            for (i, m) in o.members.enumerated() {
                out += pad + JSONWriter.string(.string(m.key)) + ": "
                write(m.value, level: level + 1, into: &out)
                out += i == o.count - 1 ? "\n" : ",\n"
            }
            out += closePad + "}"
        default:
            out += JSONWriter.string(value)
        }
    }
}
