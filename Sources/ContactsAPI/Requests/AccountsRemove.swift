import JSONCore
import JSONRPC

/// `accounts.remove`: an account goes; its contacts stay here unless asked.
public struct AccountsRemove: APIRequest {
    public static let about = APIMethod(
        "accounts.remove",
        parameters: [
            RPCParam("name", "The account.", schema: APISchema.string, required: true),
            RPCParam("keepContacts", "Keep its contacts here (default true).", schema: APISchema.boolean),
        ], result: "removed",
        schema: [
            "type": "object", "required": ["removed", "contacts"],
            "properties": ["removed": APISchema.string, "contacts": APISchema.integer],
        ], errors: [SyncShape.noAccount],
        summary:
            "Removes an account; its contacts stay as contacts of this machine unless keepContacts is false (then they go to the trash).")

    public var name: String
    public var keepContacts: Bool

    public init(name: String, keepContacts: Bool = true) { (self.name, self.keepContacts) = (name, keepContacts) }

    public init(_ p: RPCParams) throws(RPCError) {
        name = try p.string("name")
        keepContacts = try p.optionalBool("keepContacts") ?? true
    }

    public var params: JSONObject { ["name": .string(name), "keepContacts": .bool(keepContacts)] }
}
