import JSONCore
import JSONRPC

/// What the account and sync requests share.
public enum SyncShape {
    static let noAccount = RPCError(.notFound, "No such account")
    static let remoteFailed = RPCError(.remoteFailed, "The server could not be used")
    static let accountParameter = RPCParam("account", "The account.", schema: APISchema.string, required: true)

    /// An account as the API shows it.
    public static let account: JSONValue = [
        "type": "object", "required": ["name", "url", "addressBookUrl", "interval", "readOnly", "contacts"],
        "properties": [
            "name": APISchema.string, "url": APISchema.string, "addressBookUrl": APISchema.string,
            "displayName": APISchema.nullableString, "username": APISchema.nullableString, "interval": APISchema.integer,
            "readOnly": APISchema.boolean, "contacts": APISchema.integer, "groups": ["enum": ["book", "local"]],
            "caFile": APISchema.nullableString, "vcardVersion": ["enum": ["3.0", "4.0"]], "lastSuccess": APISchema.nullableString,
            "lastError": APISchema.nullableString, "protocol": ["enum": ["carddav", "vdir", "people"]],
        ],
    ]

    /// An account with how its syncs went.
    public static let status: JSONValue = {
        guard case .object(var o) = account, case .object(var properties)? = o["properties"] else { return account }
        properties["pendingUploads"] = APISchema.integer
        properties["heldDeletions"] = APISchema.integer
        properties["conflicts"] = ["type": "array", "items": ["type": "object"]]
        properties["lastReport"] = ["type": ["object", "null"]]
        properties["nextAttempt"] = APISchema.nullableString
        o["properties"] = .object(properties)
        o["required"] = .array(
            (account["required"]?.arrayValue ?? []) + ["pendingUploads", "heldDeletions", "conflicts"].map(JSONValue.string))
        return .object(o)
    }()
}

/// A sync of one account now that does something with the deletions it held back
/// (`sync.confirmDeletions`, `sync.rejectDeletions`).
public protocol HeldDeletionsRequest: APIRequest {
    var account: String { get }
    init(account: String)
}

extension HeldDeletionsRequest {
    static func held(_ name: String, _ summary: String) -> APIMethod {
        APIMethod(
            name, parameters: [SyncShape.accountParameter], result: "report", schema: ["type": "object"],
            errors: [SyncShape.noAccount, SyncShape.remoteFailed], summary: summary)
    }

    public init(_ p: RPCParams) throws(RPCError) { self.init(account: try p.string("account")) }
    public var params: JSONObject { ["account": .string(account)] }
}
