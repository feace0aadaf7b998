import JSONCore
import JSONRPC

/// `contacts.setFavorite`.
public struct ContactsSetFavorite: APIRequest {
    public static let about = APIMethod(
        "contacts.setFavorite",
        parameters: [
            ContactShape.idParameter, RPCParam("favorite", "The new state.", schema: APISchema.boolean, required: true),
            ContactShape.ifRevisionParameter,
        ], result: "contact", schema: ContactShape.contact, errors: [ContactShape.notFound, ContactShape.conflict],
        summary: "Marks or unmarks a contact as a favorite.")

    public var target: ContactTarget
    public var favorite: Bool

    public init(id: String, favorite: Bool, ifRevision: Int? = nil) {
        (target, self.favorite) = (ContactTarget(id, ifRevision: ifRevision), favorite)
    }

    public init(_ p: RPCParams) throws(RPCError) { (target, favorite) = (try ContactTarget(p), try p.bool("favorite")) }
    public var params: JSONObject { target.params(["favorite": .bool(favorite)]) }
}
