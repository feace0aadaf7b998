import JSONCore
import JSONRPC

/// `contacts.delete`: contacts to the trash.
public struct ContactsDelete: APIRequest {
    public static let about = APIMethod(
        "contacts.delete",
        "Deletes contacts: each goes to the trash, from where contacts.undelete brings it back until contacts.purge removes it. Ids that do not exist are listed in notFound.",
        parameters: [RPCParam("ids", "The contacts' ids.", schema: APISchema.stringArray, required: true)], result: "deleted",
        schema: [
            "type": "object", "required": ["deleted"], "properties": ["deleted": APISchema.integer, "notFound": APISchema.stringArray],
        ])

    public var ids: [String]

    public init(ids: [String]) { self.ids = ids }
    public init(_ p: RPCParams) throws(RPCError) { ids = try p.stringArray("ids") }
    public var params: JSONObject { ["ids": .array(ids.map { .string($0) })] }
}
