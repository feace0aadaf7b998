import ContactsAPI
import ContactsStore
import JSONCore
import JSONRPC

/// What changed in the store since a state, for programs that keep their own copy of it (a
/// mail client's address cache): the store's commit sequence, which `contacts.changed`
/// carries too.
enum ChangeMethods {
    static func all(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(ChangesSince.self) { request, _ in
                guard let cursor = ChangeCursor(request.state) else {
                    throw RPCError.invalidParams("'state' is not a state this daemon gives: \(request.state)", field: "state")
                }
                guard let page = try store.changes(in: nil, after: cursor, limit: request.limit) else {
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
