import JSONCore
import JSONRPC

/// `contacts.move`: contacts to a sync account, or to this machine alone.
public struct ContactsMove: APIRequest {
    public static let about = APIMethod(
        "contacts.move",
        parameters: [
            RPCParam("ids", "The contacts' ids.", schema: APISchema.stringArray, required: true),
            RPCParam(
                "account", "The account to move them to; null for this machine alone.", schema: APISchema.nullableString, required: true),
        ], result: "moved", schema: ["type": "object", "required": ["moved"], "properties": ["moved": APISchema.integer]],
        errors: [RPCError(.notFound, "No such contact or account")],
        summary:
            "Moves contacts to a sync account, or to this machine alone (account null): the next syncs upload them there and delete them from the account they leave."
    )

    public var ids: [String]
    /// Nil: this machine alone.
    public var account: String?

    public init(ids: [String], account: String?) { (self.ids, self.account) = (ids, account) }

    public init(_ p: RPCParams) throws(RPCError) {
        ids = try p.stringArray("ids")
        guard let target = p.object["account"], target.isNull || target.stringValue != nil else {
            throw .invalidParams("'account' is required: an account's name, or null for this machine alone", field: "account")
        }
        account = target.stringValue
    }

    public var params: JSONObject { ["ids": .array(ids.map { .string($0) }), "account": account.map { .string($0) } ?? .null] }
}
