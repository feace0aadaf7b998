import ContactsAPI
import ContactsStore
import ContactsSupport
import JSONCore
import JSONRPC

/// A contact's history: its changes, its earlier states, and going back to one.
enum HistoryMethods {
    static func all(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(ContactsHistory.self) { request, _ in
                let entries = try store.history(id: request.id, limit: request.limit)
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
            RPCMethod(ContactsGetRevision.self) { request, _ in try store.contact(id: request.id, revision: request.revision).json },
            RPCMethod(ContactsRevert.self) { request, _ in
                try store.revert(id: request.target.id, to: request.revision, ifRevision: request.target.ifRevision).json
            },
            RPCMethod(ChangesList.self) { request, _ in
                ["operations": .array(try store.operations(limit: request.limit, offset: request.offset).map(json))]
            },
            RPCMethod(ChangesUndo.self) { request, _ in
                let r = try store.undo(operation: request.operation, force: request.force)
                return reversal(r.undone, "undo", r.by)
            },
            RPCMethod(ChangesRedo.self) { request, _ in
                let r = try store.redo(force: request.force)
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

    static func json(_ o: ChangeOperation) -> JSONValue {
        [
            "id": .int(o.id), "at": .string(Timestamp.format(o.at)), "origin": .string(o.origin), "summary": .string(o.summary),
            "contacts": .int(o.contacts), "groups": .int(o.groups),
        ]
    }
}
