import ContactsAPI
import ContactsStore
import JSONCore
import JSONRPC
import StoredDuplicates

/// Duplicates: finding them, merging them, and remembering who is not one.
enum DuplicateMethods {
    static func all(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(ContactsDuplicates.self) { request, _ in
                let groups = try store.duplicates(
                    minScore: request.minScore, limit: request.limit, collected: ContactMethods.scope(request.collected))
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
            RPCMethod(ContactsMerge.self) { request, _ in
                try store.merge(ids: request.ids, into: request.into, dryRun: request.dryRun).json
            },
            RPCMethod(ContactsNotDuplicates.self) { request, _ in
                try store.notDuplicates(ids: request.ids)
                return [:]
            },
        ]
    }
}
