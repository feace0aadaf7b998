import JSONCore
import JSONRPC

/// `mail.query`: the addresses a mail client completes, best first.
public struct MailQuery: APIRequest {
    public static let about = APIMethod(
        "mail.query",
        parameters: [
            RPCParam(
                "text", "What was typed: matched as search matches (names, nicknames, organizations, addresses).", schema: APISchema.string,
                required: true),
            RPCParam("limit", "At most this many addresses (default \(defaultLimit)).", schema: APISchema.integer(limits)),
            RPCParam(
                "fields", "Only these fields of each address (address always): what a mail client prints, not the counts.",
                schema: ["type": "array", "items": ["enum": .array(fieldNames.map { .string($0) })]]),
        ], result: "addresses",
        schema: [
            "type": "object", "required": ["total", "addresses"],
            "properties": [
                "total": ["type": "integer", "description": "How many contacts match, collected ones too"],
                "addresses": ["type": "array", "items": APISchema.ref("RankedAddress")],
            ],
        ],
        summary:
            "The addresses of the contacts that match, collected ones too, best first: written to before only heard from before never seen in mail; then a match at the start of a name or address before one inside it; then the more often and more lately seen; then name order. An address on several contacts comes once."
    )
    public static let limits = 1...100_000
    public static let defaultLimit = 100

    /// The fields of a RankedAddress, as `fields` names them.
    public static let fieldNames = ["address", "name", "label", "contact", "collected", "sent", "received", "lastSent", "lastReceived"]

    public var text: String
    public var limit: Int
    /// The fields of the counts and dates (read only when one of them is asked for).
    public static let countFields: Set<String> = ["sent", "received", "lastSent", "lastReceived"]

    /// nil: every field.
    public var fields: Set<String>?

    public init(text: String, limit: Int = defaultLimit, fields: Set<String>? = nil) {
        (self.text, self.limit, self.fields) = (text, limit, fields)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        text = try p.string("text")
        limit = try p.optionalInt("limit", in: Self.limits) ?? Self.defaultLimit
        if p.has("fields") {
            let names = try p.stringArray("fields")
            if let unknown = names.first(where: { !Self.fieldNames.contains($0) }) {
                throw .invalidParams(
                    "'fields' names '\(unknown)', which is none of \(Self.fieldNames.joined(separator: ", "))", field: "fields")
            }
            fields = Set(names + ["address"])
        }
    }

    public var params: JSONObject {
        var o: JSONObject = ["text": .string(text), "limit": .int(limit)]
        if let fields { o["fields"] = .array(Self.fieldNames.filter(fields.contains).map { .string($0) }) }
        return o
    }

    public static let rankedAddress: JSONValue = [
        // Every field unless `fields` names fewer (the address is always there).
        "type": "object", "required": ["address"],
        "properties": [
            "address": APISchema.string, "name": APISchema.string, "label": APISchema.nullableString,
            "contact": ["type": "string", "description": "The id of the contact it is on"], "collected": APISchema.boolean,
            "sent": ["type": "integer", "description": "Messages the user wrote to it"],
            "received": ["type": "integer", "description": "Messages it sent the user"],
            "lastSent": ["type": ["string", "null"], "format": "date-time"],
            "lastReceived": ["type": ["string", "null"], "format": "date-time"],
        ],
    ]
}
