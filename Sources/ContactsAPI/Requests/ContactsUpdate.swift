import JSONCore
import JSONRPC

/// `contacts.update`: some fields of a contact changed.
public struct ContactsUpdate: APIRequest {
    public static let about = APIMethod(
        "contacts.update", "Changes some fields of a contact: fields given replace the stored ones, null clears, absent fields stay.",
        parameters: [
            ContactShape.idParameter, RPCParam("changes", "The fields to change.", schema: ContactShape.input, required: true),
            ContactShape.ifRevisionParameter,
        ], result: "contact", schema: ContactShape.contact,
        errors: [ContactShape.notFound, ContactShape.conflict, ContactShape.invalidData])

    public var id: String
    /// The fields to change, in the API's shape (the daemon reads them as `Contact.apply` does).
    public var changes: JSONObject
    public var ifRevision: Int?

    public init(id: String, changes: JSONObject, ifRevision: Int? = nil) {
        (self.id, self.changes, self.ifRevision) = (id, changes, ifRevision)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        changes = try p.objectValue("changes")
        ifRevision = try p.optionalInt("ifRevision", in: ContactShape.revisions)
    }

    public var params: JSONObject { .present(["id": .string(id), "changes": .object(changes), "ifRevision": ifRevision.map { .int($0) }]) }
}
