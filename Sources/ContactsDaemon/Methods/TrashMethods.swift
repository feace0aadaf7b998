import ContactsAPI
import ContactsStore
import ContactsSupport
import JSONCore
import JSONRPC

/// The trash: what was deleted, brought back, or purged for good.
enum TrashMethods {
    static func all(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(ContactsTrash.self) { request, _ in
                let r = try store.trash(text: request.text, limit: request.limit, offset: request.offset)
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
            RPCMethod(ContactsUndelete.self) { request, _ in
                let r = try store.undelete(ids: request.ids)
                return ["restored": .array(r.restored.map(JSONValue.string)), "notFound": .array(r.notFound.map(JSONValue.string))]
            },
            RPCMethod(ContactsPurge.self) { request, _ in ["purged": .int(try store.purge(ids: request.ids))] },
        ]
    }
}
