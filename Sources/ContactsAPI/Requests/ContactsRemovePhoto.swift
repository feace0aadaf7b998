import JSONCore
import JSONRPC

/// `contacts.removePhoto`.
public struct ContactsRemovePhoto: APIRequest {
    public static let about = APIMethod(
        "contacts.removePhoto", parameters: [ContactShape.idParameter, ContactShape.ifRevisionParameter],
        result: "contact", schema: ContactShape.contact, errors: [ContactShape.notFound],
        summary: "Takes a contact's photo away.")

    public var target: ContactTarget

    public init(id: String, ifRevision: Int? = nil) { target = ContactTarget(id, ifRevision: ifRevision) }
    public init(_ p: RPCParams) throws(RPCError) { target = try ContactTarget(p) }
    public var params: JSONObject { target.params() }
}
