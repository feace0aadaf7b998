import JSONCore
import JSONRPC

/// `contacts.get`: one contact.
public struct ContactsGet: APIRequest {
    public static let about = APIMethod(
        "contacts.get", parameters: [ContactShape.idParameter], result: "contact", schema: ContactShape.contact,
        errors: [ContactShape.notFound],
        summary: "Returns one contact.")

    public var id: String

    public init(id: String) { self.id = id }
    public init(_ p: RPCParams) throws(RPCError) { id = try p.string("id") }
    public var params: JSONObject { ["id": .string(id)] }
}
