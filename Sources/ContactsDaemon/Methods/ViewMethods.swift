import ContactsAPI
import ContactsCore
import ContactsStore
import JSONCore
import JSONRPC

/// Live views: a query kept open whose changes come to the connection (`LiveViews`).
enum ViewMethods {
    static let placedContact: JSONValue = [
        "type": "object", "required": ["id", "index", "contact"],
        "properties": ["id": Schemas.string, "index": Schemas.integer, "contact": ["type": ["object", "null"]]],
    ]

    static let viewAnswer: JSONValue = [
        "type": "object", "required": ["view", "state", "total"],
        "properties": [
            "view": Schemas.integer, "state": Schemas.string, "total": Schemas.integer,
            "contacts": ["type": "array", "items": ["type": "object"]], "reset": Schemas.boolean,
            "removed": Schemas.stringArray, "added": ["type": "array", "items": placedContact],
        ],
    ]

    static let viewParam = RPCParam("view", "A view this connection opened.", schema: Schemas.integer, required: true)
    static let unknownView = RPCError(.notFound, "No open view of that number on this connection")

    static func all(views: LiveViews) -> [RPCMethod] {
        [
            RPCMethod(
                ContactsAPI.Method.viewsOpen,
                summary:
                    "Opens a live view of a query: its window of contacts now, then one view.changed for each commit that changes it (removed, added with their places, moved, changed in the fields asked for), or view.reset when the change is larger than the window. With since (a state this daemon gave), only what changed in the window since then, while the change log reaches back (else the whole window with reset: true). Views close with their connection.",
                params: [
                    RPCParam(
                        "query", "What the view holds, as contacts.query's filters.",
                        schema: [
                            "type": "object",
                            "properties": [
                                "text": Schemas.string, "favoritesOnly": Schemas.boolean, "group": Schemas.string,
                                "account": Schemas.nullableString,
                            ],
                        ]),
                    RPCParam(
                        "sort", "Sort keys, first wins; default name ascending.",
                        schema: ["type": "array", "items": Schemas.ref("SortKey")]),
                    RPCParam(
                        "fields", "Only these fields of each contact (id always).",
                        schema: ["type": "array", "items": ["enum": .array(Contact.Fields.names.map { .string($0) })]]),
                    RPCParam(
                        "window", "Only these places of the list (indexes are places in the whole list).",
                        schema: [
                            "type": "object", "required": ["limit"],
                            "properties": [
                                "offset": ["type": "integer", "minimum": 0],
                                "limit": ["type": "integer", "minimum": 1, "maximum": 100_000],
                            ],
                        ]),
                    RPCParam("since", "A state this daemon gave: answer only what changed since.", schema: Schemas.string),
                    RPCParam(
                        "excludeOrigin",
                        "Send nothing for commits of this origin (rpc, import, carddav, sync, undo, ..., or one exactly, such as import:FILE).",
                        schema: Schemas.string),
                ],
                result: "view", resultSchema: viewAnswer,
                errors: [RPCError(.notFound, "No group or account with that name")]
            ) { call in
                var q = try ContactMethods.parseQuery(RPCParams(try call.params.has("query") ? call.params.objectValue("query") : [:]))
                q.sort = try ContactMethods.parseQuery(RPCParams(["sort": call.params["sort"] ?? .array([])])).sort
                if call.params.has("window") {
                    let w = RPCParams(try call.params.objectValue("window"))
                    q.offset = try w.optionalInt("offset", in: 0...Int(Int32.max)) ?? 0
                    q.limit = try w.int("limit", in: 1...100_000)
                } else {
                    q.limit = nil
                    q.offset = 0
                }
                var since: ChangeCursor?
                if let text = try call.params.optionalString("since") {
                    guard let cursor = ChangeCursor(text) else {
                        throw RPCError.invalidParams("'since' is not a state this daemon gives: \(text)", field: "since")
                    }
                    since = cursor
                }
                return try views.open(
                    q, fields: try ContactMethods.projection(call.params), since: since,
                    excludeOrigin: try call.params.optionalString("excludeOrigin"), session: call.session)
            },
            RPCMethod(
                ContactsAPI.Method.viewsRead,
                summary:
                    "The view's window as it is now (after a view.reset): later view.changed follow from its state.",
                params: [viewParam], result: "view", resultSchema: viewAnswer, errors: [unknownView]
            ) { call in
                try views.read(try call.params.int("view", in: 0...Int(Int32.max)), session: call.session)
            },
            RPCMethod(
                ContactsAPI.Method.viewsClose, summary: "Closes a view: nothing more is sent for it.", params: [viewParam],
                result: "closed",
                resultSchema: ["type": "object", "required": ["closed"], "properties": ["closed": Schemas.boolean]],
                errors: [unknownView]
            ) { call in
                try views.close(try call.params.int("view", in: 0...Int(Int32.max)), session: call.session)
                return ["closed": true]
            },
        ]
    }
}
