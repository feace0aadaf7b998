import JSONCore
import JSONRPC

/// `groups.addMembers`.
public struct GroupsAddMembers: GroupMembershipRequest {
    public static let about = membership("groups.addMembers", "Adds contacts to a group.")

    public var id: String
    public var contactIDs: [String]

    public init(id: String, contactIDs: [String]) { (self.id, self.contactIDs) = (id, contactIDs) }
}
