import JSONCore
import JSONRPC

/// `groups.delete`: the group goes, its members stay.
public struct GroupsDelete: APIRequest {
    public static let method = "groups.delete"
    public static let summary = "Deletes a group. Its members are kept."
    public static let parameters = [GroupShape.idParameter]
    public static let resultName = "deleted"
    public static let resultSchema: JSONValue = ["type": "object", "required": ["deleted"], "properties": ["deleted": APISchema.integer]]
    public static let errors = [GroupShape.notFound]

    /// The group's id or name.
    public var id: String

    public init(id: String) { self.id = id }
    public init(_ p: RPCParams) throws(RPCError) { id = try p.string("id") }
    public var params: JSONObject { ["id": .string(id)] }
}
