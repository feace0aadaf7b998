import JSONCore
import JSONRPC

/// `contacts.trash`: the deleted contacts that can still come back.
public struct ContactsTrash: APIRequest {
    public static let method = "contacts.trash"
    public static let summary =
        "Lists the deleted contacts that can still come back, the latest deletion first; text searches them as contacts.query does."
    public static let counts = 0...Int(Int32.max)
    public static let parameters = [
        RPCParam("text", "Text to look for; empty or absent lists the whole trash.", schema: APISchema.string),
        RPCParam("limit", "At most this many contacts.", schema: APISchema.integer(counts)),
        RPCParam("offset", "Skip this many first.", schema: APISchema.integer(counts)),
    ]
    public static let resultName = "page"
    public static let resultSchema: JSONValue = [
        "type": "object", "required": ["total", "contacts"],
        "properties": [
            "total": APISchema.integer,
            "contacts": [
                "type": "array",
                "items": [
                    "allOf": [
                        APISchema.ref("Contact"),
                        [
                            "type": "object", "required": ["deletedAt", "origin"],
                            "properties": ["deletedAt": ["type": "string", "format": "date-time"], "origin": APISchema.string],
                        ],
                    ]
                ],
            ],
        ],
    ]

    public var text: String?
    public var limit: Int?
    public var offset: Int

    public init(text: String? = nil, limit: Int? = nil, offset: Int = 0) {
        self.text = text
        self.limit = limit
        self.offset = offset
    }

    public init(_ p: RPCParams) throws(RPCError) {
        text = try p.optionalString("text")
        limit = try p.optionalInt("limit", in: Self.counts)
        offset = try p.optionalInt("offset", in: Self.counts) ?? 0
    }

    public var params: JSONObject {
        var o: JSONObject = [:]
        if let text { o["text"] = .string(text) }
        if let limit { o["limit"] = .int(limit) }
        if offset != 0 { o["offset"] = .int(offset) }
        return o
    }
}
