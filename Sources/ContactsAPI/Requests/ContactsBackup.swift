import JSONCore
import JSONRPC

/// `contacts.backup`: a consistent copy of the store, while it serves.
public struct ContactsBackup: APIRequest {
    public static let about = APIMethod(
        "contacts.backup",
        parameters: [
            RPCParam(
                "path", "An absolute path for the copy; an existing regular file there is replaced.", schema: APISchema.string,
                required: true)
        ], result: "backup",
        schema: [
            "type": "object", "required": ["path", "contacts"], "properties": ["path": APISchema.string, "contacts": APISchema.integer],
        ],
        errors: [RPCError(.invalidData, "The path cannot be written")],
        summary: "Writes a consistent copy of the store to a file while the daemon keeps serving (SQLite online backup).")

    public var path: String

    public init(path: String) { self.path = path }
    public init(_ p: RPCParams) throws(RPCError) { path = try p.string("path") }
    public var params: JSONObject { ["path": .string(path)] }
}
