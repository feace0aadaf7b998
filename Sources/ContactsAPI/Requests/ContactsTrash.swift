import JSONCore
import JSONRPC

/// `contacts.trash`: the deleted contacts that can still come back.
public struct ContactsTrash: APIRequest {
    public static let about = APIMethod(
        "contacts.trash",
        parameters: [
            RPCParam("text", "Text to look for; empty or absent lists the whole trash.", schema: APISchema.string),
            RPCParam("limit", "At most this many contacts.", schema: APISchema.integer(counts)),
            RPCParam("offset", "Skip this many first.", schema: APISchema.integer(counts)),
        ], result: "page",
        schema: [
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
        ],
        summary:
            "Lists the deleted contacts that can still come back, the latest deletion first; text searches them as contacts.query does.")
    public static let counts = 0...Int(Int32.max)

    public var text: String?
    public var limit: Int?
    public var offset: Int

    public init(text: String? = nil, limit: Int? = nil, offset: Int = 0) { (self.text, self.limit, self.offset) = (text, limit, offset) }

    public init(_ p: RPCParams) throws(RPCError) {
        text = try p.optionalString("text")
        limit = try p.optionalInt("limit", in: Self.counts)
        offset = try p.optionalInt("offset", in: Self.counts) ?? 0
    }

    public var params: JSONObject {
        .present(["text": text.map { .string($0) }, "limit": limit.map { .int($0) }, "offset": offset != 0 ? .int(offset) : nil])
    }
}
