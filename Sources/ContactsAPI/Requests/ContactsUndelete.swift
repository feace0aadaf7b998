import JSONCore
import JSONRPC

/// `contacts.undelete`: contacts back from the trash as they were.
public struct ContactsUndelete: ContactIDsRequest {
    public static let about = APIMethod(
        "contacts.undelete", parameters: [RPCParam("ids", "The deleted contacts' ids.", schema: APISchema.stringArray, required: true)],
        result: "restored",
        schema: [
            "type": "object", "required": ["restored", "notFound"],
            "properties": ["restored": APISchema.stringArray, "notFound": APISchema.stringArray],
        ], errors: [RPCError(.conflict, "Another contact has the uid of one of them now")],
        summary:
            "Brings contacts back from the trash as they were (id, uid, fields, groups, photo), each at a new revision; a group deleted meanwhile is made again."
    )

    public var ids: [String]

    public init(ids: [String]) { self.ids = ids }
}
