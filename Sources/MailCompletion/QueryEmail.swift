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
    public func output(_ addresses: [JSONValue]) -> (text: String, status: Int32) {
        let found = addresses.compactMap(Self.line)
        guard !found.isEmpty else { return (header ? "No matches for '\(text)'.\n" : "", 1) }
        var out = header ? "Searching contactsd for '\(text)'... \(found.count) found.\n" : ""
        for line in found {
            out += line
            out += "\n"
        }
        return (out, 0)
    }

    /// One address's line, without its newline (nil: an entry without an address). A tab in
    /// a name or label would start a column of its own: it becomes a space.
    public static func line(_ a: JSONValue) -> String? {
        guard let address = a["address"]?.stringValue else { return nil }
        return "\(address)\t\((a["name"]?.stringValue ?? "").replacingTabs())\t\((a["label"]?.stringValue ?? "").replacingTabs())"
    }
}

extension String {
    fileprivate func replacingTabs() -> String { utf8.contains(0x09) ? split(separator: "\t").joined(separator: " ") : self }
}
