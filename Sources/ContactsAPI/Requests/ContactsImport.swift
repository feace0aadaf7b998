import JSONCore
import JSONRPC

/// `contacts.import`: contacts from vCard, CSV, JSON or a file.
public struct ContactsImport: APIRequest {
    static let report: JSONValue = [
        "type": "object", "required": ["created", "updated", "unchanged", "failed", "errors"],
        "properties": [
            "created": APISchema.integer, "updated": APISchema.integer, "unchanged": APISchema.integer, "failed": APISchema.integer,
            "groups": APISchema.integer,
            "errors": [
                "type": "array",
                "items": [
                    "type": "object",
                    "properties": ["index": APISchema.integer, "line": ["type": ["integer", "null"]], "message": APISchema.string],
                ],
            ],
            "warnings": [
                "type": "array", "items": ["type": "object", "properties": ["line": APISchema.integer, "message": APISchema.string]],
            ],
        ],
    ]

    public static let about = APIMethod(
        "contacts.import",
        parameters: [
            RPCParam("vcard", "vCard text.", schema: APISchema.string),
            RPCParam("csv", "A Google or Outlook contacts CSV export, as text.", schema: APISchema.string),
            RPCParam("json", "Contacts in the API's shape.", schema: ["type": "array", "items": ContactShape.input]),
            RPCParam("path", "An absolute path to a .vcf, .csv or .json file.", schema: APISchema.string),
        ], result: "report", schema: report,
        errors: [RPCError(.invalidData, "The input cannot be read"), RPCError(.tooLarge, "The file is too large")],
        summary:
            "Imports contacts from vCard text (2.1, 3.0 or 4.0, any producer), a Google or Outlook CSV export, a JSON array of contacts, or a file. A UID already stored updates that contact; an identical card is unchanged; one bad card or row never stops the others."
    )

    /// What to import, one of four.
    public enum Source: Sendable, Equatable {
        case vcard(String)
        case csv(String)
        /// Contacts in the API's shape.
        case json([JSONValue])
        /// An absolute path to a file the daemon reads (its content says what it is).
        case path(String)
    }

    public var source: Source

    public init(_ source: Source) { self.source = source }

    public init(_ p: RPCParams) throws(RPCError) {
        let given = ["vcard", "csv", "json", "path"].filter { p.has($0) }
        guard given.count == 1 else { throw .invalidParams("give exactly one of 'vcard', 'csv', 'json' or 'path'") }
        switch given[0] {
        case "vcard": source = .vcard(try p.string("vcard"))
        case "csv": source = .csv(try p.string("csv"))
        case "json":
            guard let array = p["json"]?.arrayValue else { throw .invalidParams("'json' must be an array of contacts", field: "json") }
            source = .json(array)
        default: source = .path(try p.string("path"))
        }
    }

    public var params: JSONObject {
        switch source {
        case .vcard(let text): ["vcard": .string(text)]
        case .csv(let text): ["csv": .string(text)]
        case .json(let list): ["json": .array(list)]
        case .path(let path): ["path": .string(path)]
        }
    }
}
