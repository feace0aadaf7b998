import JSONCore
import JSONRPC

/// What the `groups.*` requests share: where an id is expected, a group's name is accepted too.
public enum GroupShape {
    public static let group = APISchema.ref("Group")
    static let idParameter = RPCParam("id", "The group's id (or its name).", schema: APISchema.string, required: true)
    static let membersParameter = RPCParam("contactIds", "Contact ids.", schema: APISchema.stringArray, required: true)
    static let notFound = RPCError(.notFound, "No group (or contact) with that id")
    static let duplicate = RPCError(.conflict, "A group with that name exists (names are unique regardless of case)")
}

/// A change of a group's members (`groups.addMembers`, `groups.removeMembers`): the group
/// and the contacts, answered with the group.
public protocol GroupMembershipRequest: APIRequest {
    /// The group's id or name.
    var id: String { get }
    var contactIDs: [String] { get }
    init(id: String, contactIDs: [String])
}

extension GroupMembershipRequest {
    /// What a change of members is, under its name and summary.
    static func membership(_ name: String, _ summary: String) -> APIMethod {
        APIMethod(
            name, parameters: [GroupShape.idParameter, GroupShape.membersParameter], result: "group", schema: GroupShape.group,
            errors: [GroupShape.notFound], summary: summary)
    }

    public init(_ p: RPCParams) throws(RPCError) { self.init(id: try p.string("id"), contactIDs: try p.stringArray("contactIds")) }

    public var params: JSONObject { ["id": .string(id), "contactIds": .array(contactIDs.map { .string($0) })] }
}
