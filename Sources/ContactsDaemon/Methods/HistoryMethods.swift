import ContactsAPI
import ContactsStore
import ContactsSupport
import JSONCore
import JSONRPC

/// A contact's history: its changes, its earlier states, and going back to one.
enum HistoryMethods {
    static let entrySchema: JSONValue = [
        "type": "object", "required": ["revision", "at", "origin", "change", "fields"],
        "properties": [
            "revision": Schemas.integer, "at": ["type": "string", "format": "date-time"], "origin": Schemas.string,
            "operation": ["type": ["integer", "null"]],
            "change": ["type": "string", "enum": ["created", "updated", "deleted", "restored"]], "fields": Schemas.stringArray,
        ],
    ]

    static func all(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(
                ContactsAPI.Method.contactsHistory,
                summary: "Lists a contact's changes, the latest first: the revision each made, when, by what, and the fields it changed.",
                params: [
                    RPCParam("id", "The contact's id (also of one in the trash).", schema: Schemas.string, required: true),
                    RPCParam("limit", "At most this many entries.", schema: ["type": "integer", "minimum": 0]),
                ],
                result: "history",
                resultSchema: [
                    "type": "object", "required": ["entries"], "properties": ["entries": ["type": "array", "items": entrySchema]],
                ],
                errors: [ContactMethods.notFound]
            ) { call in
                let limit = try call.params.optionalInt("limit", in: 0...Int(Int32.max))
                let entries = try store.history(id: try call.params.string("id"), limit: limit)
                return [
                    "entries": .array(
                        entries.map { e in
                            [
                                "revision": .int(e.revision), "at": .string(Timestamp.format(e.at)), "origin": .string(e.origin),
                                "operation": e.operation.map { .int($0) } ?? .null, "change": .string(e.change),
                                "fields": .array(e.fields.map(JSONValue.string)),
                            ]
                        })
                ]
            },
            RPCMethod(
                ContactsAPI.Method.contactsGetRevision, summary: "Returns a contact as it was at a revision.",
                params: [
                    RPCParam("id", "The contact's id.", schema: Schemas.string, required: true),
                    RPCParam("revision", "The revision.", schema: Schemas.integer, required: true),
                ],
                result: "contact", resultSchema: ContactMethods.contact,
                errors: [RPCError(.notFound, "No such contact, or the history does not hold that revision")]
            ) { call in
                try store.contact(id: try call.params.string("id"), revision: try call.params.int("revision", in: 1...Int(Int32.max))).json
            },
            RPCMethod(
                ContactsAPI.Method.contactsRevert,
                summary: "Makes a contact what it was at a revision again, as a new revision (the state it leaves stays in its history).",
                params: [
                    RPCParam("id", "The contact's id.", schema: Schemas.string, required: true),
                    RPCParam("revision", "The revision to go back to.", schema: Schemas.integer, required: true),
                    RPCParam("ifRevision", "Only change it if it is still at this revision.", schema: Schemas.integer),
                ],
                result: "contact", resultSchema: ContactMethods.contact, errors: [ContactMethods.notFound, ContactMethods.conflict]
            ) { call in
                let ifRevision = try call.params.optionalInt("ifRevision", in: 0...Int(Int32.max))
                return try store.revert(
                    id: try call.params.string("id"), to: try call.params.int("revision", in: 1...Int(Int32.max)), ifRevision: ifRevision
                ).json
            },
            RPCMethod(
                ContactsAPI.Method.changesList,
                summary: "Lists the operations the history keeps (each write: an import, a delete, an edit), the latest first.",
                params: [
                    RPCParam("limit", "At most this many (default 50).", schema: ["type": "integer", "minimum": 0]),
                    RPCParam("offset", "Skip this many first.", schema: ["type": "integer", "minimum": 0]),
                ],
                result: "operations",
                resultSchema: [
                    "type": "object", "required": ["operations"],
                    "properties": ["operations": ["type": "array", "items": operationSchema]],
                ]
            ) { call in
                let limit = try call.params.optionalInt("limit", in: 0...10_000) ?? 50
                let offset = try call.params.optionalInt("offset", in: 0...Int(Int32.max)) ?? 0
                return ["operations": .array(try store.operations(limit: limit, offset: offset).map(json))]
            },
            RPCMethod(
                ContactsAPI.Method.changesUndo,
                summary:
                    "Undoes a whole operation in one transaction, itself an operation: the one given, or the latest that is neither undone nor an undo (so that undo again steps back). Refused (-32002) when the operation is undone already, or when a later one changed the same contacts (but for operations undone since), unless force.",
                params: [
                    RPCParam("operation", "The operation's id, from changes.list.", schema: Schemas.integer),
                    RPCParam("force", "Undo even over later changes.", schema: Schemas.boolean),
                ],
                result: "undone", resultSchema: reversalSchema("undo"),
                errors: [RPCError(.notFound, "No such operation"), RPCError(.conflict, "A later operation changed the same contacts")]
            ) { call in
                let id = try call.params.optionalInt("operation", in: 1...Int.max).map(Int64.init)
                let r = try store.undo(operation: id, force: try call.params.optionalBool("force") ?? false)
                return reversal(r.undone, "undo", r.by)
            },
            RPCMethod(
                ContactsAPI.Method.changesRedo,
                summary:
                    "Does again what the latest undo that is not undone took back, by undoing that undo (an operation of its own); redo again goes further forward. Refused (-32002) when there is nothing to redo, or when a later operation changed the same contacts, unless force.",
                params: [RPCParam("force", "Redo even over later changes.", schema: Schemas.boolean)],
                result: "redone", resultSchema: reversalSchema("redo"),
                errors: [RPCError(.conflict, "Nothing to redo, or a later operation changed the same contacts")]
            ) { call in
                let r = try store.redo(force: try call.params.optionalBool("force") ?? false)
                return reversal(r.redone, "redo", r.by)
            },
        ]
    }

    /// An undo's or a redo's result: the operation taken back or done again, the undo's (or
    /// redo's) own, and what it changed, in numbers.
    static func reversal(_ operation: ChangeOperation, _ key: String, _ by: ChangeOperation?) -> JSONValue {
        [
            "operation": json(operation), .init(key): by.map(json) ?? .null, "contacts": .int(by?.contacts ?? 0),
            "groups": .int(by?.groups ?? 0),
        ]
    }

    static func reversalSchema(_ key: String) -> JSONValue {
        [
            "type": "object", "required": ["operation", "contacts", "groups"],
            "properties": [
                "operation": operationSchema, .init(key): operationSchema,
                "contacts": ["type": "integer", "minimum": 0], "groups": ["type": "integer", "minimum": 0],
            ],
        ]
    }

    static let operationSchema: JSONValue = [
        "type": "object", "required": ["id", "at", "origin", "summary", "contacts", "groups"],
        "properties": [
            "id": Schemas.integer, "at": ["type": "string", "format": "date-time"], "origin": Schemas.string, "summary": Schemas.string,
            "contacts": Schemas.integer, "groups": Schemas.integer,
        ],
    ]

    static func json(_ o: ChangeOperation) -> JSONValue {
        [
            "id": .int(o.id), "at": .string(Timestamp.format(o.at)), "origin": .string(o.origin), "summary": .string(o.summary),
            "contacts": .int(o.contacts), "groups": .int(o.groups),
        ]
    }
}
