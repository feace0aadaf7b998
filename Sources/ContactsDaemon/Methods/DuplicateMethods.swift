import ContactsAPI
import ContactsStore
import Duplicates
import JSONCore
import JSONRPC
import StoredDuplicates

/// Duplicates: finding them, merging them, and remembering who is not one.
enum DuplicateMethods {
    static func all(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(
                ContactsAPI.Method.contactsDuplicates,
                summary:
                    "Finds contacts that are likely one person: a shared email, phone number (in any form) or name (accents, order and a missing middle name aside), or a name one letter apart. Groups best first.",
                params: [
                    RPCParam("limit", "At most this many groups.", schema: ["type": "integer", "minimum": 1]),
                    RPCParam(
                        "minScore", "Leave out groups scoring below this (0 to 1, default 0.5; look-alikes score lower).",
                        schema: ["type": "number", "minimum": 0, "maximum": 1]),
                ],
                result: "groups",
                resultSchema: [
                    "type": "object", "required": ["groups"],
                    "properties": [
                        "groups": [
                            "type": "array",
                            "items": [
                                "type": "object", "required": ["ids", "names", "score", "reasons", "identical"],
                                "properties": [
                                    "ids": Schemas.stringArray, "names": Schemas.stringArray,
                                    "score": ["type": "number", "minimum": 0, "maximum": 1], "reasons": Schemas.stringArray,
                                    "identical": Schemas.boolean,
                                ],
                            ],
                        ]
                    ],
                ]
            ) { call in
                let limit = try call.params.optionalInt("limit", in: 1...Int(Int32.max))
                let minScore = try call.params.optionalDouble("minScore", in: 0...1) ?? DuplicateFinder.defaultMinScore
                let groups = try store.duplicates(minScore: minScore, limit: limit)
                return [
                    "groups": .array(
                        groups.map { g in
                            [
                                "ids": .array(g.group.ids.map(JSONValue.string)), "names": .array(g.names.map(JSONValue.string)),
                                "score": .double(g.group.score), "reasons": .array(g.group.reasons.map(JSONValue.string)),
                                "identical": .bool(g.identical),
                            ]
                        })
                ]
            },
            RPCMethod(
                ContactsAPI.Method.contactsMerge,
                summary:
                    "Merges contacts into one without losing a value: into's id, uid, name and account (default: the most complete), every phone, email, address and url once, groups united, differing single values kept in the note. The others go to the trash; changes.undo takes the whole merge back.",
                params: [
                    RPCParam("ids", "The contacts to merge, two or more.", schema: Schemas.stringArray, required: true),
                    RPCParam("into", "The contact that stays; by default the most complete one.", schema: Schemas.string),
                    RPCParam("dryRun", "Only return the merged contact; change nothing.", schema: Schemas.boolean),
                ],
                result: "contact", resultSchema: ContactMethods.contact,
                errors: [ContactMethods.notFound, ContactMethods.invalidData]
            ) { call in
                let ids = try call.params.stringArray("ids")
                let into = try call.params.optionalString("into")
                let dryRun = try call.params.optionalBool("dryRun") ?? false
                return try store.merge(ids: ids, into: into, dryRun: dryRun).json
            },
            RPCMethod(
                ContactsAPI.Method.contactsNotDuplicates,
                summary: "Remembers that these contacts are different people: contacts.duplicates proposes no pair of them again.",
                params: [RPCParam("ids", "Two or more contacts' ids.", schema: Schemas.stringArray, required: true)],
                result: "empty", resultSchema: ["type": "object"], errors: [ContactMethods.notFound]
            ) { call in
                try store.notDuplicates(ids: try call.params.stringArray("ids"))
                return [:]
            },
        ]
    }
}
