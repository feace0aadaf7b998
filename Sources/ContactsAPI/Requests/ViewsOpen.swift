import JSONCore
import JSONRPC

/// `views.open`: a live view of a query, its window now and then each change to it.
public struct ViewsOpen: APIRequest {
    public static let about = APIMethod(
        "views.open",
        parameters: [
            RPCParam(
                "query", "What the view holds, as contacts.query's filters.",
                schema: ["type": "object", "properties": .object(ContactFilter.properties)]),
            RPCParam(
                "sort", "Sort keys, first wins; default name ascending.", schema: ["type": "array", "items": APISchema.ref("SortKey")]),
            RPCParam(
                "fields", "Only these fields of each contact (id always).",
                schema: ["type": "array", "items": ["enum": .array(FieldDeclaration.shapeKeys.map { .string($0) })]]),
            RPCParam(
                "window", "Only these places of the list (indexes are places in the whole list).",
                schema: [
                    "type": "object", "required": ["limit"],
                    "properties": ["offset": APISchema.integer(Window.offsets), "limit": APISchema.integer(Window.limits)],
                ]), RPCParam("since", "A state this daemon gave: answer only what changed since.", schema: APISchema.string),
            RPCParam(
                "excludeOrigin",
                "Send nothing for commits of this origin (rpc, import, carddav, sync, undo, ..., or one exactly, such as import:FILE).",
                schema: APISchema.string),
        ], result: "view",
        schema: [
            "type": "object", "required": ["view", "state", "total"],
            "properties": [
                "view": APISchema.integer, "state": APISchema.string, "total": APISchema.integer,
                "contacts": ["type": "array", "items": ["type": "object"]], "reset": APISchema.boolean, "removed": APISchema.stringArray,
                "added": ["type": "array", "items": placedContact],
            ],
        ], errors: [RPCError(.notFound, "No group or account with that name")],
        summary:
            "Opens a live view of a query: its window of contacts now, then one view.changed for each commit that changes it (removed, added with their places, moved, changed in the fields asked for), or view.reset when the change is larger than the window. With since (a state this daemon gave), only what changed in the window since then, while the change log reaches back (else the whole window with reset: true). Views close with their connection."
    )

    /// Which places of the list the view holds.
    public struct Window: Sendable, Equatable {
        public var offset: Int
        public var limit: Int

        public init(offset: Int = 0, limit: Int) {
            self.offset = offset
            self.limit = limit
        }

        public static let offsets = 0...Int(Int32.max)
        public static let limits = 1...100_000
    }

    public var query: ContactFilter
    /// Sort keys, first wins; nil: by name.
    public var sort: [SortKey]?
    /// Only these members of each contact (`id` always); nil: all.
    public var fields: [String]?
    /// Nil: the whole list.
    public var window: Window?
    /// A state this daemon gave: answer only what changed since.
    public var since: String?
    public var excludeOrigin: String?

    public init(
        query: ContactFilter = ContactFilter(), sort: [SortKey]? = nil, fields: [String]? = nil, window: Window? = nil,
        since: String? = nil, excludeOrigin: String? = nil
    ) {
        self.query = query
        self.sort = sort
        self.fields = fields
        self.window = window
        self.since = since
        self.excludeOrigin = excludeOrigin
    }

    static let placedContact: JSONValue = [
        "type": "object", "required": ["id", "index", "contact"],
        "properties": ["id": APISchema.string, "index": APISchema.integer, "contact": ["type": ["object", "null"]]],
    ]

    public init(_ p: RPCParams) throws(RPCError) {
        query = try ContactFilter(RPCParams(p.has("query") ? try p.objectValue("query") : [:]))
        sort = try p["sort"].map(SortKey.list)
        fields = p.has("fields") ? try p.stringArray("fields") : nil
        if p.has("window") {
            let w = RPCParams(try p.objectValue("window"))
            window = Window(
                offset: try w.optionalInt("offset", in: Window.offsets) ?? 0, limit: try w.int("limit", in: Window.limits))
        }
        since = try p.optionalString("since")
        excludeOrigin = try p.optionalString("excludeOrigin")
    }

    public var params: JSONObject {
        var o: JSONObject = [:]
        if query != ContactFilter() { o["query"] = .object(query.json) }
        if let sort { o["sort"] = .array(sort.map(\.json)) }
        if let fields { o["fields"] = .array(fields.map { .string($0) }) }
        if let window { o["window"] = ["offset": .int(window.offset), "limit": .int(window.limit)] }
        if let since { o["since"] = .string(since) }
        if let excludeOrigin { o["excludeOrigin"] = .string(excludeOrigin) }
        return o
    }
}
