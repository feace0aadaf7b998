import JSONCore
import JSONRPC

/// `accounts.update`: how an account signs in, or how often it syncs.
public struct AccountsUpdate: APIRequest {
    /// What can change (another server or book is another account).
    public static let changeable: Set<String> = ["username", "passwordCommand", "tokenCommand", "caFile", "interval", "readOnly"]
    public static let about = APIMethod(
        "accounts.update",
        parameters: [
            RPCParam("name", "The account.", schema: APISchema.string, required: true),
            RPCParam(
                "changes", "What to change: username, passwordCommand, tokenCommand, caFile, interval, readOnly.",
                schema: [
                    "type": "object", "additionalProperties": false,
                    "properties": [
                        "username": APISchema.nullableString, "passwordCommand": ["type": ["array", "null"], "items": APISchema.string],
                        "tokenCommand": ["type": ["array", "null"], "items": APISchema.string], "caFile": APISchema.nullableString,
                        "interval": APISchema.integer(AccountsAdd.intervals), "readOnly": APISchema.boolean,
                    ],
                ], required: true),
        ], result: "account", schema: SyncShape.account,
        errors: [SyncShape.noAccount, RPCError(.remoteFailed, "The new credentials do not work")],
        summary:
            "Changes how an account signs in or how often it syncs. New credentials are tried on the server first; if they fail, nothing changes."
    )

    public var name: String
    /// The members to change, in the API's shape (null takes one away).
    public var changes: JSONObject

    public init(name: String, changes: JSONObject) { (self.name, self.changes) = (name, changes) }

    public init(_ p: RPCParams) throws(RPCError) {
        name = try p.string("name")
        guard let changes = p["changes"]?.objectValue else { throw .invalidParams("'changes' must be an object", field: "changes") }
        if let unknown = changes.keys.first(where: { !Self.changeable.contains($0) }) {
            throw .invalidParams(
                "'\(unknown)' cannot be changed (a different server or book is another account: remove this one and add that)",
                field: "changes.\(unknown)")
        }
        self.changes = changes
    }

    public var params: JSONObject { ["name": .string(name), "changes": .object(changes)] }
}
