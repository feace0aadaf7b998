import JSONCore
import JSONRPC

/// `contacts.undelete`: contacts back from the trash as they were.
public struct ContactsUndelete: APIRequest {
    public static let about = APIMethod(
        "contacts.undelete",
        "Brings contacts back from the trash as they were (id, uid, fields, groups, photo), each at a new revision; a group deleted meanwhile is made again.",
        parameters: [RPCParam("ids", "The deleted contacts' ids.", schema: APISchema.stringArray, required: true)], result: "restored",
        schema: [
            "type": "object", "required": ["restored", "notFound"],
            "properties": ["restored": APISchema.stringArray, "notFound": APISchema.stringArray],
        ], errors: [RPCError(.conflict, "Another contact has the uid of one of them now")])

    public var ids: [String]

    public init(ids: [String]) { self.ids = ids }
    public init(_ p: RPCParams) throws(RPCError) { ids = try p.stringArray("ids") }
    public var params: JSONObject { ["ids": .array(ids.map { .string($0) })] }
}
