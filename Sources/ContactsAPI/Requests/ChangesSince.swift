import JSONCore
import JSONRPC

/// `changes.since`: what changed in the store after a state, in commit order.
public struct ChangesSince: APIRequest {
    public static let about = APIMethod(
        "changes.since",
        parameters: [
            RPCParam(
                "state", "A state this daemon gave (opaque: \"42\", or \"42:c:17\" inside one commit).", schema: APISchema.string,
                required: true),
            RPCParam(
                "limit", "At most this many changes (default 1000); more says whether others follow.", schema: APISchema.integer(limits)),
        ], result: "changes",
        schema: [
            "type": "object", "required": ["state", "changes", "more", "reset"],
            "properties": [
                "state": APISchema.string, "changes": ["type": "array", "items": change], "more": APISchema.boolean,
                "reset": APISchema.boolean,
            ],
        ],
        summary:
            "The contacts made, changed or deleted since a state (from contacts.changed, a view, or an earlier answer), in commit order, and the state to ask from next; reset when the change log no longer reaches back to it (read everything again)."
    )
    public static let limits = 1...100_000
    public static let defaultLimit = 1000
    static let change: JSONValue = [
        "type": "object", "required": ["id", "change"],
        "properties": [
            "id": APISchema.string, "change": ["type": "string", "enum": ["created", "updated", "deleted"]], "revision": APISchema.integer,
        ],
    ]

    /// A state the daemon gave, as it gave it.
    public var state: String
    public var limit: Int

    public init(state: String, limit: Int = defaultLimit) { (self.state, self.limit) = (state, limit) }

    public init(_ p: RPCParams) throws(RPCError) {
        state = try p.string("state")
        limit = try p.optionalInt("limit", in: Self.limits) ?? Self.defaultLimit
    }

    public var params: JSONObject { ["state": .string(state), "limit": .int(limit)] }
}
