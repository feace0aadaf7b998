import JSONCore
import JSONRPC

/// `groups.delete`: the group goes, its members stay.
public struct GroupsDelete: APIRequest {
    public static let about = APIMethod(
        "groups.delete", parameters: [GroupShape.idParameter], result: "deleted",
        schema: ["type": "object", "required": ["deleted"], "properties": ["deleted": APISchema.integer]], errors: [GroupShape.notFound],
        summary: "Deletes a group. Its members are kept.")

    /// The group's id or name.
    public var id: String

    public init(id: String) { self.id = id }
    public init(_ p: RPCParams) throws(RPCError) { id = try p.string("id") }
    public var params: JSONObject { ["id": .string(id)] }
}
