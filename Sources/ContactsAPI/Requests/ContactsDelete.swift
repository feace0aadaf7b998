import JSONCore
import JSONRPC

/// `contacts.delete`: contacts to the trash.
public struct ContactsDelete: ContactIDsRequest {
    public static let about = APIMethod(
        "contacts.delete", parameters: [RPCParam("ids", "The contacts' ids.", schema: APISchema.stringArray, required: true)],
        result: "deleted",
        schema: [
            "type": "object", "required": ["deleted"], "properties": ["deleted": APISchema.integer, "notFound": APISchema.stringArray],
        ],
        summary:
            "Deletes contacts: each goes to the trash, from where contacts.undelete brings it back until contacts.purge removes it. Ids that do not exist are listed in notFound."
    )

    public var ids: [String]

    public init(ids: [String]) { self.ids = ids }
}
