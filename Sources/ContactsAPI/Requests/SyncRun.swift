import JSONCore
import JSONRPC

/// `sync.run`: a sync now, answered when it is done.
public struct SyncRun: APIRequest {
    public static let about = APIMethod(
        "sync.run", parameters: [RPCParam("account", "The account; all when absent.", schema: APISchema.string)], result: "report",
        schema: ["type": "object"], errors: [SyncShape.noAccount, SyncShape.remoteFailed],
        summary: "Syncs one account (or every one) now, and answers when it is done with what it did.")

    /// Nil: every account.
    public var account: String?

    public init(account: String? = nil) { self.account = account }
    public init(_ p: RPCParams) throws(RPCError) { account = try p.optionalString("account") }
    public var params: JSONObject { .present(["account": account.map { .string($0) }]) }
}
