import ContactsAPI
import ContactsStore
import JSONCore
import JSONRPC

/// What changed in the store since a state, for programs that keep their own copy of it (a
/// mail client's address cache): the store's commit sequence, which `contacts.changed`
/// carries too.
enum ChangeMethods {
    static let changeSchema: JSONValue = [
        "type": "object", "required": ["id", "change"],
        "properties": [
            "id": Schemas.string, "change": ["type": "string", "enum": ["created", "updated", "deleted"]],
            "revision": Schemas.integer,
        ],
    ]

    static func all(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(
                ContactsAPI.Method.changesSince,
                summary:
                    "The contacts made, changed or deleted since a state (from contacts.changed, a view, or an earlier answer), in commit order, and the state to ask from next; reset when the change log no longer reaches back to it (read everything again).",
                params: [
                    RPCParam(
                        "state", "A state this daemon gave (opaque: \"42\", or \"42:c:17\" inside one commit).", schema: Schemas.string,
                        required: true),
                    RPCParam(
                        "limit", "At most this many changes (default 1000); more says whether others follow.",
                        schema: ["type": "integer", "minimum": 1, "maximum": 100_000]),
                ],
                result: "changes",
                resultSchema: [
                    "type": "object", "required": ["state", "changes", "more", "reset"],
                    "properties": [
                        "state": Schemas.string, "changes": ["type": "array", "items": changeSchema], "more": Schemas.boolean,
                        "reset": Schemas.boolean,
                    ],
                ]
            ) { call in
                let text = try call.params.string("state")
                guard let cursor = ChangeCursor(text) else {
                    throw RPCError.invalidParams("'state' is not a state this daemon gives: \(text)", field: "state")
                }
                let limit = try call.params.optionalInt("limit", in: 1...100_000) ?? 1000
                guard let page = try store.changes(in: nil, after: cursor, limit: limit) else {
                    return ["state": .string(String(try store.commitState().state)), "changes": [], "more": false, "reset": true]
                }
                let changed = page.changed.map { c -> JSONValue in
                    ["id": .string(c.id), "change": .string(c.created ? "created" : "updated"), "revision": .int(c.revision)]
                }
                let removed = page.removed.map { r -> JSONValue in ["id": .string(r.id), "change": "deleted"] }
                return [
                    "state": .string(page.next.description), "changes": .array(changed + removed), "more": .bool(page.more), "reset": false,
                ]
            }
        ]
    }
}
