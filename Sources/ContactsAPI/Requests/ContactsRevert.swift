import JSONCore
import JSONRPC

/// `contacts.revert`: a contact made what it was at a revision, as a new revision.
public struct ContactsRevert: APIRequest {
    public static let about = APIMethod(
        "contacts.revert",
        parameters: [
            RPCParam("id", "The contact's id.", schema: APISchema.string, required: true),
            RPCParam("revision", "The revision to go back to.", schema: APISchema.integer(HistoryShape.revisions), required: true),
            HistoryShape.ifRevision,
        ], result: "contact", schema: APISchema.ref("Contact"),
        errors: [RPCError(.notFound, "No contact with that id"), RPCError(.conflict, "The contact changed since the given revision")],
        summary: "Makes a contact what it was at a revision again, as a new revision (the state it leaves stays in its history).")

    public var target: ContactTarget
    public var revision: Int

    public init(id: String, revision: Int, ifRevision: Int? = nil) {
        (target, self.revision) = (ContactTarget(id, ifRevision: ifRevision), revision)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        (target, revision) = (try ContactTarget(p), try p.int("revision", in: HistoryShape.revisions))
    }

    public var params: JSONObject { target.params(["revision": .int(revision)]) }
}
