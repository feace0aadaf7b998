import JSONCore
import JSONRPC

/// `contacts.removePhoto`.
public struct ContactsRemovePhoto: APIRequest {
    public static let about = APIMethod(
        "contacts.removePhoto", "Takes a contact's photo away.", parameters: [ContactShape.idParameter, ContactShape.ifRevisionParameter],
        result: "contact", schema: ContactShape.contact, errors: [ContactShape.notFound])

    public var id: String
    public var ifRevision: Int?

    public init(id: String, ifRevision: Int? = nil) { (self.id, self.ifRevision) = (id, ifRevision) }

    public init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        ifRevision = try p.optionalInt("ifRevision", in: ContactShape.revisions)
    }

    public var params: JSONObject { .present(["id": .string(id), "ifRevision": ifRevision.map { .int($0) }]) }
}
