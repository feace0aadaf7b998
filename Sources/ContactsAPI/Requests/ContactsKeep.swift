import JSONCore
import JSONRPC

/// `contacts.keep`: a contact collected from mail made ordinary.
public struct ContactsKeep: APIRequest {
    public static let about = APIMethod(
        "contacts.keep", parameters: [ContactShape.idParameter], result: "contact", schema: ContactShape.contact,
        errors: [ContactShape.notFound],
        summary:
            "Makes a contact collected from mail an ordinary one: it joins lists, searches, views, exports and sync. (Any edit a person makes does the same.)"
    )

    public var target: ContactTarget

    public init(id: String) { target = ContactTarget(id) }
    public init(_ p: RPCParams) throws(RPCError) { target = try ContactTarget(p) }
    public var params: JSONObject { target.params([:]) }
}
