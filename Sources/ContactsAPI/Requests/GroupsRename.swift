import JSONCore
import JSONRPC

/// `groups.rename`.
public struct GroupsRename: APIRequest {
    public static let method = "groups.rename"
    public static let summary = "Renames a group."
    public static let parameters = [GroupShape.idParameter, RPCParam("name", "The new name.", schema: APISchema.string, required: true)]
    public static let resultName = "group"
    public static let resultSchema = GroupShape.group
    public static let errors = [GroupShape.notFound, GroupShape.duplicate]

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
