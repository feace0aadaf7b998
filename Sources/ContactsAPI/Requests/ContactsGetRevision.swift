import JSONCore
import JSONRPC

/// `contacts.getRevision`: a contact as it was.
public struct ContactsGetRevision: APIRequest {
    public static let about = APIMethod(
        "contacts.getRevision",
        parameters: [
            RPCParam("id", "The contact's id.", schema: APISchema.string, required: true),
            RPCParam("revision", "The revision.", schema: APISchema.integer(HistoryShape.revisions), required: true),
        ], result: "contact", schema: APISchema.ref("Contact"),
        errors: [RPCError(.notFound, "No such contact, or the history does not hold that revision")],
        summary: "Returns a contact as it was at a revision.")

    public var id: String
    public var revision: Int

    public init(id: String, revision: Int) { (self.id, self.revision) = (id, revision) }

    public init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        revision = try p.int("revision", in: HistoryShape.revisions)
    }

    public var params: JSONObject { ["id": .string(id), "revision": .int(revision)] }
}
