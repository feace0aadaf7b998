import JSONCore
import JSONRPC

/// `changes.list`: the operations the history keeps, the latest first.
public struct ChangesList: APIRequest {
    public static let about = APIMethod(
        "changes.list",
        parameters: [
            RPCParam("limit", "At most this many (default 50).", schema: APISchema.integer(limits)),
            RPCParam("offset", "Skip this many first.", schema: APISchema.integer(HistoryShape.counts)),
        ], result: "operations",
        schema: [
            "type": "object", "required": ["operations"], "properties": ["operations": ["type": "array", "items": HistoryShape.operation]],
        ],
        summary: "Lists the operations the history keeps (each write: an import, a delete, an edit), the latest first.")
    public static let limits = 0...10_000
    public static let defaultLimit = 50

    public var limit: Int
    public var offset: Int

    public init(limit: Int = defaultLimit, offset: Int = 0) { (self.limit, self.offset) = (limit, offset) }

    public init(_ p: RPCParams) throws(RPCError) {
        limit = try p.optionalInt("limit", in: Self.limits) ?? Self.defaultLimit
        offset = try p.optionalInt("offset", in: HistoryShape.counts) ?? 0
    }

    public var params: JSONObject { ["limit": .int(limit), "offset": .int(offset)] }
}
