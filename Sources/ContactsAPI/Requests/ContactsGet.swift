import JSONCore
import JSONRPC

/// `contacts.get`: one contact.
public struct ContactsGet: APIRequest {
    public static let method = "contacts.get"
    public static let summary = "Returns one contact."
    public static let parameters = [ContactShape.idParameter]
    public static let resultName = "contact"
    public static let resultSchema = ContactShape.contact
    public static let errors = [ContactShape.notFound]

    public var id: String

    public init(id: String) { self.id = id }
    public init(_ p: RPCParams) throws(RPCError) { id = try p.string("id") }
    public var params: JSONObject { ["id": .string(id)] }
}
