import JSONCore
import JSONRPC

/// `groups.removeMembers`.
public struct GroupsRemoveMembers: GroupMembershipRequest {
    public static let about = membership("groups.removeMembers", "Removes contacts from a group.")

    public var id: String
    public var contactIDs: [String]

    public init(id: String, contactIDs: [String]) { (self.id, self.contactIDs) = (id, contactIDs) }
}
