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

    public var text: String
    public var limit: Int

    public init(text: String, limit: Int = defaultLimit) { (self.text, self.limit) = (text, limit) }

    public init(_ p: RPCParams) throws(RPCError) {
        text = try p.string("text")
        limit = try p.optionalInt("limit", in: Self.limits) ?? Self.defaultLimit
    }

    public var params: JSONObject { ["text": .string(text), "limit": .int(limit)] }

    public static let rankedAddress: JSONValue = [
        "type": "object", "required": ["address", "name", "contact", "collected", "sent", "received"],
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
