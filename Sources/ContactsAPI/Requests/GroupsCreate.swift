import JSONCore
import JSONRPC

/// `groups.create`: an empty group.
public struct GroupsCreate: APIRequest {
    public static let about = APIMethod(
        "groups.create", parameters: [RPCParam("name", "The group's name.", schema: APISchema.string, required: true)], result: "group",
        schema: GroupShape.group, errors: [GroupShape.duplicate],
        summary: "Creates an empty group.")

    public var name: String

    public init(name: String) { self.name = name }
    public init(_ p: RPCParams) throws(RPCError) { name = try p.string("name") }
    public var params: JSONObject { ["name": .string(name)] }
}
