import JSONCore
import JSONRPC

/// `contacts.removePhoto`.
public struct ContactsRemovePhoto: APIRequest {
    public static let method = "contacts.removePhoto"
    public static let summary = "Takes a contact's photo away."
    public static let parameters = [ContactShape.idParameter, ContactShape.ifRevisionParameter]
    public static let resultName = "contact"
    public static let resultSchema = ContactShape.contact
    public static let errors = [ContactShape.notFound]

    public var id: String
    public var ifRevision: Int?

    public init(id: String, ifRevision: Int? = nil) { (self.id, self.ifRevision) = (id, ifRevision) }

    public init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        ifRevision = try p.optionalInt("ifRevision", in: ContactShape.revisions)
    }

    public var params: JSONObject { .present(["id": .string(id), "ifRevision": ifRevision.map { .int($0) }]) }
}
