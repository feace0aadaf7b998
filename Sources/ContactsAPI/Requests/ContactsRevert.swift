import JSONCore
import JSONRPC

/// `contacts.revert`: a contact made what it was at a revision, as a new revision.
public struct ContactsRevert: APIRequest {
    public static let about = APIMethod(
        "contacts.revert", "Makes a contact what it was at a revision again, as a new revision (the state it leaves stays in its history).",
        parameters: [
            RPCParam("id", "The contact's id.", schema: APISchema.string, required: true),
            RPCParam("revision", "The revision to go back to.", schema: APISchema.integer(HistoryShape.revisions), required: true),
            HistoryShape.ifRevision,
        ], result: "contact", schema: APISchema.ref("Contact"),
        errors: [RPCError(.notFound, "No contact with that id"), RPCError(.conflict, "The contact changed since the given revision")])

    public var id: String
    public var revision: Int
    public var ifRevision: Int?

    public init(id: String, revision: Int, ifRevision: Int? = nil) {
        (self.id, self.revision, self.ifRevision) = (id, revision, ifRevision)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        revision = try p.int("revision", in: HistoryShape.revisions)
        ifRevision = try p.optionalInt("ifRevision", in: HistoryShape.counts)
    }

    public var params: JSONObject { .present(["id": .string(id), "revision": .int(revision), "ifRevision": ifRevision.map { .int($0) }]) }
}
