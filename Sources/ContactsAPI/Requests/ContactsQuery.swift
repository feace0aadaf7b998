import JSONCore
import JSONRPC

/// `contacts.query`: a page of contacts that match, in order.
public struct ContactsQuery: APIRequest {
    public static let about = APIMethod(
        "contacts.query",
        parameters: [
            RPCParam("text", "Text to look for; empty or absent lists everyone.", schema: APISchema.string),
            RPCParam("favoritesOnly", "Only favorites.", schema: APISchema.boolean),
            RPCParam("group", "Only members of this group (name or id).", schema: APISchema.string),
            RPCParam(
                "account", "Only the contacts of this sync account; null: only those no account has.", schema: APISchema.nullableString),
            ContactFilter.collectedParam,
            RPCParam(
                "sort", "Sort keys, first wins; default name ascending (frequency: descending, the most written to first).",
                schema: ["type": "array", "items": APISchema.ref("SortKey")]),
            RPCParam("limit", "At most this many contacts.", schema: APISchema.integer(counts)),
            RPCParam("offset", "Skip this many first.", schema: APISchema.integer(counts)),
            RPCParam(
                "fields", "Only these fields of each contact (id always): a projection, for clients that show a few.",
                schema: ["type": "array", "items": ["enum": .array(FieldDeclaration.shapeKeys.map { .string($0) })]]),
        ], result: "page",
        schema: [
            "type": "object", "required": ["total", "contacts"],
            "properties": ["total": APISchema.integer, "contacts": ["type": "array", "items": ContactShape.contact]],
        ], errors: [RPCError(.notFound, "No group or account with that name")],
        summary:
            "Searches and lists contacts: case-, accent- and script-insensitive substring over name, nickname, organization, emails and phones (phone formatting ignored), with filters combined by AND."
    )
    public static let counts = 0...Int(Int32.max)

    public var filter: ContactFilter
    public var sort: [SortKey]?
    public var limit: Int?
    public var offset: Int
    /// Only these members of each contact (`id` always); nil: all.
    public var fields: [String]?

    public init(
        filter: ContactFilter = ContactFilter(), sort: [SortKey]? = nil, limit: Int? = nil, offset: Int = 0, fields: [String]? = nil
    ) {
        self.filter = filter
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.fields = fields
    }

    public init(_ p: RPCParams) throws(RPCError) {
        filter = try ContactFilter(p)
        sort = try p["sort"].map(SortKey.list)
        limit = try p.optionalInt("limit", in: Self.counts)
        offset = try p.optionalInt("offset", in: Self.counts) ?? 0
        fields = p.has("fields") ? try p.stringArray("fields") : nil
    }

    public var params: JSONObject {
        var o = filter.json
        if let sort { o["sort"] = .array(sort.map(\.json)) }
        if let limit { o["limit"] = .int(limit) }
        if offset != 0 { o["offset"] = .int(offset) }
        if let fields { o["fields"] = .array(fields.map { .string($0) }) }
        return o
    }
}
