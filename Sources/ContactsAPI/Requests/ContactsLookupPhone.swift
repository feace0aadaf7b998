import JSONCore
import JSONRPC

/// `contacts.lookupPhone`: caller ID.
public struct ContactsLookupPhone: APIRequest {
    public static let about = APIMethod(
        "contacts.lookupPhone",
        parameters: [
            RPCParam("number", "The number as it arrived, in any common form.", schema: APISchema.string, required: true),
            RPCParam("limit", "At most this many matches (default 20).", schema: APISchema.integer(limits)),
        ], result: "matches",
        schema: [
            "type": "object", "required": ["matches"],
            "properties": [
                "matches": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["contact", "phone", "match"],
                        "properties": [
                            "contact": ContactShape.contact, "phone": APISchema.ref("Phone"),
                            "match": ["type": "string", "enum": ["exact", "national", "short"]],
                        ],
                    ],
                ]
            ],
        ],
        summary:
            "Caller ID: the contacts with this phone number, best match first (the same E.164 number; the same national number where one was written without country code; the same last seven or more digits)."
    )
    public static let limits = 1...1000
    public static let defaultLimit = 20
    /// Longer than any phone number.
    public static let maxBytes = 256

    public var number: String
    public var limit: Int

    public init(number: String, limit: Int = defaultLimit) { (self.number, self.limit) = (number, limit) }

    public init(_ p: RPCParams) throws(RPCError) {
        number = try p.string("number")
        guard number.utf8.count <= Self.maxBytes else {
            throw RPCError(.invalidParams, "number is longer than any phone number (\(number.utf8.count) bytes)")
        }
        limit = try p.optionalInt("limit", in: Self.limits) ?? Self.defaultLimit
    }

    public var params: JSONObject { ["number": .string(number), "limit": .int(limit)] }
}
