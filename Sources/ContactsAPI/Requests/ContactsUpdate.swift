import JSONCore
import JSONRPC

/// `contacts.update`: some fields of a contact changed.
public struct ContactsUpdate: APIRequest {
    public static let about = APIMethod(
        "contacts.update",
        parameters: [
            ContactShape.idParameter, RPCParam("changes", "The fields to change.", schema: ContactShape.input, required: true),
            ContactShape.ifRevisionParameter,
        ], result: "contact", schema: ContactShape.contact,
        errors: [ContactShape.notFound, ContactShape.conflict, ContactShape.invalidData],
        summary: "Changes some fields of a contact: fields given replace the stored ones, null clears, absent fields stay.")

    public var target: ContactTarget
    /// The fields to change, in the API's shape (the daemon reads them as `Contact.apply` does).
    public var changes: JSONObject

    public init(id: String, changes: JSONObject, ifRevision: Int? = nil) {
        (target, self.changes) = (ContactTarget(id, ifRevision: ifRevision), changes)
    }

    public init(_ p: RPCParams) throws(RPCError) { (target, changes) = (try ContactTarget(p), try p.objectValue("changes")) }
    public var params: JSONObject { target.params(["changes": .object(changes)]) }
}
