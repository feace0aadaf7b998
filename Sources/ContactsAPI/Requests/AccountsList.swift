import JSONCore
import JSONRPC

/// `accounts.list`.
public struct AccountsList: ParameterlessRequest {
    public static let about = APIMethod(
        "accounts.list", result: "accounts",
        schema: ["type": "object", "required": ["accounts"], "properties": ["accounts": ["type": "array", "items": SyncShape.account]]],
        summary: "The sync accounts.")

    public init() {}
}
