import JSONCore
import JSONRPC

/// `contacts.history`: a contact's changes, the latest first.
public struct ContactsHistory: APIRequest {
    public static let about = APIMethod(
        "contacts.history",
        parameters: [
            RPCParam("id", "The contact's id (also of one in the trash).", schema: APISchema.string, required: true),
            RPCParam("limit", "At most this many entries.", schema: APISchema.integer(HistoryShape.counts)),
        ], result: "history",
        schema: ["type": "object", "required": ["entries"], "properties": ["entries": ["type": "array", "items": HistoryShape.entry]]],
        errors: [RPCError(.notFound, "No contact with that id")],
        summary: "Lists a contact's changes, the latest first: the revision each made, when, by what, and the fields it changed.")

    public var id: String
    public var limit: Int?

    public init(id: String, limit: Int? = nil) { (self.id, self.limit) = (id, limit) }

    public init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        limit = try p.optionalInt("limit", in: HistoryShape.counts)
    }

    public var params: JSONObject { .present(["id": .string(id), "limit": limit.map { .int($0) }]) }
}
