import JSONCore
import JSONRPC

/// `groups.rename`.
public struct GroupsRename: APIRequest {
    public static let about = APIMethod(
        "groups.rename", parameters: [GroupShape.idParameter, RPCParam("name", "The new name.", schema: APISchema.string, required: true)],
        result: "group",
        schema: GroupShape.group, errors: [GroupShape.notFound, GroupShape.duplicate],
        summary: "Renames a group.")

    /// The group's id or name.
    public var id: String
    public var name: String

    public init(id: String, name: String) { (self.id, self.name) = (id, name) }

    public init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        name = try p.string("name")
    }

    public var params: JSONObject { ["id": .string(id), "name": .string(name)] }
}
