import JSONCore

/// `contactsctl query-email`, as mutt's `query_command` and aerc's `address-book-cmd` run it:
/// what it asks the daemon and what it prints. The one definition the small `contactsctl` and
/// the full client share, so that both print the same bytes.
public struct QueryEmail: Equatable, Sendable {
    /// The request's method (the daemon's `mail.query`).
    public static let method = "mail.query"
    /// Mail clients show a short list; more than a hundred matches helps nobody choose.
    public static let defaultLimit = 100
    /// What a mail client prints of each address: not its counts and dates.
    public static let fields = ["address", "name", "label"]

    /// What was typed.
    public var text: String
    public var limit: Int
    /// The header line mutt skips (aerc wants none: `--no-header`).
    public var header: Bool

    public init(text: String, limit: Int = QueryEmail.defaultLimit, header: Bool = true) {
        self.text = text
        self.limit = limit
        self.header = header
    }

    public var params: JSONValue {
        ["text": .string(text), "limit": .int(limit), "fields": .array(Self.fields.map { .string($0) })]
    }

    /// What is printed for the addresses of a `mail.query` result, and the exit status (1
    /// when none matched): a header line unless left out, then `address<TAB>name<TAB>label`.
    /// (Bytes appended, not strings joined: a mail client waits for them.)
    public func output(_ addresses: [JSONValue]) -> (bytes: [UInt8], status: Int32) {
        var lines: [UInt8] = []
        lines.reserveCapacity(addresses.count * 64)
        var found = 0
        for a in addresses where Self.append(a, to: &lines) { found += 1 }
        guard found > 0 else { return (header ? Array("No matches for '\(text)'.\n".utf8) : [], 1) }
        guard header else { return (lines, 0) }
        return (Array("Searching contactsd for '\(text)'... \(found) found.\n".utf8) + lines, 0)
    }

    /// One address's line, without its newline (nil: an entry without an address).
    public static func line(_ a: JSONValue) -> String? {
        var bytes: [UInt8] = []
        guard append(a, to: &bytes) else { return nil }
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// Appends an address's line and its newline; false for an entry without an address. A
    /// tab in a name or label would start a column of its own: it becomes a space (a run of
    /// them one space, none at either end).
    static func append(_ a: JSONValue, to out: inout [UInt8]) -> Bool {
        guard let address = a["address"]?.stringValue else { return false }
        func column(_ value: String) {
            out.append(0x09)
            if value.utf8.contains(0x09) {
                out.append(contentsOf: value.split(separator: "\t").joined(separator: " ").utf8)
            } else {
                out.append(contentsOf: value.utf8)
            }
        }
        out.append(contentsOf: address.utf8)
        column(a["name"]?.stringValue ?? "")
        column(a["label"]?.stringValue ?? "")
        out.append(0x0A)
        return true
    }
}
