import JSONCore
import JSONRPC

/// `sync.status`: how each account's syncs went.
public struct SyncStatus: APIRequest {
    public static let about = APIMethod(
        "sync.status", parameters: [RPCParam("account", "The account; all when absent.", schema: APISchema.string)], result: "status",
        schema: ["type": "object", "required": ["accounts"], "properties": ["accounts": ["type": "array", "items": SyncShape.status]]],
        summary:
            "How each account's syncs went: the last success, the last error, the next attempt, what waits to go up, the deletions held back and the conflicts the last sync resolved."
    )

    /// Nil: every account.
    public var account: String?

    public init(account: String? = nil) { self.account = account }
    public init(_ p: RPCParams) throws(RPCError) { account = try p.optionalString("account") }
    public var params: JSONObject { .present(["account": account.map { .string($0) }]) }
}
