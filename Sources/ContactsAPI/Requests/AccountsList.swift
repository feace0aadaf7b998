import JSONCore
import JSONRPC

/// `accounts.list`.
public struct AccountsList: APIRequest {
    public static let about = APIMethod(
        "accounts.list", "The sync accounts.", result: "accounts",
        schema: ["type": "object", "required": ["accounts"], "properties": ["accounts": ["type": "array", "items": SyncShape.account]]])

    public init() {}
    public init(_ p: RPCParams) throws(RPCError) {}
    public var params: JSONObject { [:] }
}
