import JSONCore
import JSONRPC

/// `contacts.restore`: every contact and group from a backup, as one operation.
public struct ContactsRestore: APIRequest {
    public static let about = APIMethod(
        "contacts.restore", parameters: [RPCParam("path", "An absolute path to the backup.", schema: APISchema.string, required: true)],
        result: "restore",
        schema: ["type": "object", "required": ["contacts"], "properties": ["contacts": APISchema.integer]],
        errors: [RPCError(.invalidData, "The file is not a contacts backup, or comes from a newer version")],
        summary:
            "Replaces every contact and group with the contents of a backup made by contacts.backup. The store it replaces is kept aside; the restore is an operation, which changes.undo takes back."
    )

    public var path: String

    public init(path: String) { self.path = path }
    public init(_ p: RPCParams) throws(RPCError) { path = try p.string("path") }
    public var params: JSONObject { ["path": .string(path)] }
}
