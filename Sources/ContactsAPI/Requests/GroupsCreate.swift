import JSONCore
import JSONRPC

/// `groups.create`: an empty group.
public struct GroupsCreate: APIRequest {
    public static let method = "groups.create"
    public static let summary = "Creates an empty group."
    public static let parameters = [RPCParam("name", "The group's name.", schema: APISchema.string, required: true)]
    public static let resultName = "group"
    public static let resultSchema = GroupShape.group
    public static let errors = [GroupShape.duplicate]

    public var name: String

    public init(name: String) { self.name = name }
    public init(_ p: RPCParams) throws(RPCError) { name = try p.string("name") }
    public var params: JSONObject { ["name": .string(name)] }
}
