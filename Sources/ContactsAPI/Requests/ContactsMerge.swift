import JSONCore
import JSONRPC

/// `contacts.merge`: contacts into one, without losing a value.
public struct ContactsMerge: APIRequest {
    public static let about = APIMethod(
        "contacts.merge",
        parameters: [
            RPCParam("ids", "The contacts to merge, two or more.", schema: APISchema.stringArray, required: true),
            RPCParam("into", "The contact that stays; by default the most complete one.", schema: APISchema.string),
            RPCParam("dryRun", "Only return the merged contact; change nothing.", schema: APISchema.boolean),
        ], result: "contact", schema: APISchema.ref("Contact"),
        errors: [RPCError(.notFound, "No contact with that id"), RPCError(.invalidData, "A field value cannot be accepted")],
        summary:
            "Merges contacts into one without losing a value: into's id, uid, name and account (default: the most complete), every phone, email, address and url once, groups united, differing single values kept in the note. The others go to the trash; changes.undo takes the whole merge back."
    )

    public var ids: [String]
    public var into: String?
    public var dryRun: Bool

    public init(ids: [String], into: String? = nil, dryRun: Bool = false) { (self.ids, self.into, self.dryRun) = (ids, into, dryRun) }

    public init(_ p: RPCParams) throws(RPCError) {
        ids = try p.stringArray("ids")
        into = try p.optionalString("into")
        dryRun = try p.optionalBool("dryRun") ?? false
    }

    public var params: JSONObject {
        .present(["ids": .array(ids.map { .string($0) }), "into": into.map { .string($0) }, "dryRun": dryRun ? true : nil])
    }
}
