import JSONCore
import JSONRPC

/// `contacts.setFavorite`.
public struct ContactsSetFavorite: APIRequest {
    public static let about = APIMethod(
        "contacts.setFavorite", "Marks or unmarks a contact as a favorite.",
        parameters: [
            ContactShape.idParameter, RPCParam("favorite", "The new state.", schema: APISchema.boolean, required: true),
            ContactShape.ifRevisionParameter,
        ], result: "contact", schema: ContactShape.contact, errors: [ContactShape.notFound, ContactShape.conflict])

    public var id: String
    public var favorite: Bool
    public var ifRevision: Int?

    public init(id: String, favorite: Bool, ifRevision: Int? = nil) {
        (self.id, self.favorite, self.ifRevision) = (id, favorite, ifRevision)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        favorite = try p.bool("favorite")
        ifRevision = try p.optionalInt("ifRevision", in: ContactShape.revisions)
    }

    public var params: JSONObject { .present(["id": .string(id), "favorite": .bool(favorite), "ifRevision": ifRevision.map { .int($0) }]) }
}
