import JSONCore
import JSONRPC

/// `accounts.login`: a Google account signs in again with its own OAuth client (after Google
/// refused the sign-in kept: revoked, or a "Testing" project's week ended).
public struct AccountsLogin: APIRequest {
    public static let about = APIMethod(
        "accounts.login",
        parameters: [RPCParam("name", "The account.", schema: APISchema.string, required: true)], result: "account",
        schema: SyncShape.account,
        errors: [
            SyncShape.noAccount, RPCError(.invalidParams, "The account does not sign in with contactsd's own sign-in"),
            SyncShape.remoteFailed,
        ],
        summary:
            "Signs a Google account in again: the caller is sent account.signIn with the URL to open in a browser; the new sign-in replaces the one in the Secret Service once Google gives it."
    )

    public var name: String

    public init(name: String) { self.name = name }

    public init(_ p: RPCParams) throws(RPCError) { name = try p.string("name") }

    public var params: JSONObject { ["name": .string(name)] }
}
