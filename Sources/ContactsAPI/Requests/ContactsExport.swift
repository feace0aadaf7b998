import JSONCore
import JSONRPC

/// `contacts.export`: everyone, some ids or a query's matches, as a file or in the reply.
public struct ContactsExport: APIRequest {
    /// What the contacts are written as.
    public enum Format: String, CaseIterable, Sendable {
        case vcard3, vcard4, json, csv
        /// The birthdays and dates as yearly events.
        case ics
    }

    public static let about = APIMethod(
        "contacts.export",
        parameters: [
            RPCParam(
                "format", "vcard3, vcard4 (the default), json, csv or ics.",
                schema: ["enum": .array(Format.allCases.map { .string($0.rawValue) })]),
            RPCParam("ids", "Only these contacts.", schema: APISchema.stringArray),
            RPCParam(
                "query", "Only the matches of this contacts.query (text, favoritesOnly, group, account), or of a text alone.",
                schema: ["type": ["object", "string"]]),
            RPCParam(
                "path",
                "An absolute path for the daemon to write the export to (a temporary file beside it, synced and renamed; an existing regular file is replaced, a symlink, directory or device is refused).",
                schema: APISchema.string),
        ], result: "export",
        schema: [
            "type": "object", "required": ["count"],
            "properties": [
                "data": APISchema.string, "path": APISchema.string, "count": APISchema.integer, "bytes": APISchema.integer,
                "chunks": APISchema.integer,
            ],
        ],
        errors: [
            RPCError(.notFound, "No contact with one of the ids"),
            RPCError(.invalidData, "The path cannot be written (not absolute, a symlink or directory, no such directory, a full disk)"),
        ],
        summary:
            "Exports contacts as vCard 3.0, vCard 4.0, JSON, CSV (Google's dialect) or their birthdays and dates as an iCalendar file of yearly events (ics): everyone, the given ids, or the matches of a query. With path, the daemon writes the file (whole or not at all, mode 0600); without it, an export over 1 MiB arrives as export.chunk notifications {data, index} before a reply without data."
    )

    public var format: Format
    /// Only these contacts (with `query`: those of them that match, in this order).
    public var ids: [String]?
    public var query: ContactsQuery?
    /// Where the daemon writes the file; nil: into the reply.
    public var path: String?

    public init(format: Format = .vcard4, ids: [String]? = nil, query: ContactsQuery? = nil, path: String? = nil) {
        (self.format, self.ids, self.query, self.path) = (format, ids, query, path)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        let name = try p.optionalString("format") ?? Format.vcard4.rawValue
        guard let format = Format(rawValue: name) else {
            throw .invalidParams("'format' must be vcard3, vcard4, json, csv or ics", field: "format")
        }
        self.format = format
        ids = p.has("ids") ? try p.stringArray("ids") : nil
        switch p["query"] {
        case nil: query = nil
        case .string(let text)?: query = ContactsQuery(filter: ContactFilter(text: text))
        case .object(let o)?: query = try ContactsQuery(RPCParams(o))
        default: throw .invalidParams("'query' must be an object or a string", field: "query")
        }
        path = try p.optionalString("path")
    }

    public var params: JSONObject {
        .present([
            "format": .string(format.rawValue), "ids": ids.map { .array($0.map { .string($0) }) },
            "query": query.map { .object($0.params) },
            "path": path.map { .string($0) },
        ])
    }
}
