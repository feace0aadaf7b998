import ContactsAPI
import ContactsStore
import ContactsSupport
import JSONCore
import JSONRPC

/// The trash: what was deleted, brought back, or purged for good.
enum TrashMethods {
    static func all(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(
                ContactsAPI.Method.contactsTrash,
                summary:
                    "Lists the deleted contacts that can still come back, the latest deletion first; text searches them as contacts.query does.",
                params: [
                    RPCParam("text", "Text to look for; empty or absent lists the whole trash.", schema: Schemas.string),
                    RPCParam("limit", "At most this many contacts.", schema: ["type": "integer", "minimum": 0]),
                    RPCParam("offset", "Skip this many first.", schema: ["type": "integer", "minimum": 0]),
                ],
                result: "page",
                resultSchema: [
                    "type": "object", "required": ["total", "contacts"],
                    "properties": [
                        "total": Schemas.integer,
                        "contacts": [
                            "type": "array",
                            "items": [
                                "allOf": [
                                    ContactMethods.contact,
                                    [
                                        "type": "object", "required": ["deletedAt", "origin"],
                                        "properties": ["deletedAt": ["type": "string", "format": "date-time"], "origin": Schemas.string],
                                    ],
                                ]
                            ],
                        ],
                    ],
                ]
            ) { call in
                let limit = try call.params.optionalInt("limit", in: 0...Int(Int32.max))
                let offset = try call.params.optionalInt("offset", in: 0...Int(Int32.max)) ?? 0
                let r = try store.trash(text: try call.params.optionalString("text"), limit: limit, offset: offset)
                return [
                    "total": .int(r.total),
                    "contacts": .array(
                        r.contacts.map { t in
                            guard case .object(var o) = t.contact.json else { return .null }
                            o["deletedAt"] = .string(Timestamp.format(t.deletedAt))
                            o["origin"] = .string(t.origin)
                            return .object(o)
                        }),
                ]
            },
            RPCMethod(
                ContactsAPI.Method.contactsUndelete,
                summary:
                    "Brings contacts back from the trash as they were (id, uid, fields, groups, photo), each at a new revision; a group deleted meanwhile is made again.",
                params: [RPCParam("ids", "The deleted contacts' ids.", schema: Schemas.stringArray, required: true)],
                result: "restored",
                resultSchema: [
                    "type": "object", "required": ["restored", "notFound"],
                    "properties": ["restored": Schemas.stringArray, "notFound": Schemas.stringArray],
                ],
                errors: [RPCError(.conflict, "Another contact has the uid of one of them now")]
            ) { call in
                let r = try store.undelete(ids: try call.params.stringArray("ids"))
                return ["restored": .array(r.restored.map(JSONValue.string)), "notFound": .array(r.notFound.map(JSONValue.string))]
            },
            RPCMethod(
                ContactsAPI.Method.contactsPurge,
                summary:
                    "Removes contacts from the trash for good: their content is overwritten in the database file and its log. Give ids, or all: true for the whole trash.",
                params: [
                    RPCParam("ids", "The deleted contacts' ids.", schema: Schemas.stringArray),
                    RPCParam("all", "Empty the whole trash.", schema: Schemas.boolean),
                ],
                result: "purged",
                resultSchema: ["type": "object", "required": ["purged"], "properties": ["purged": Schemas.integer]]
            ) { call in
                let all = try call.params.optionalBool("all") ?? false
                guard all != call.params.has("ids") else { throw RPCError.invalidParams("give either 'ids' or 'all': true") }
                return ["purged": .int(try store.purge(ids: all ? nil : try call.params.stringArray("ids")))]
            },
        ]
    }
}
