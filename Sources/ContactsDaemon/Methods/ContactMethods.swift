import ContactsAPI
import ContactsCore
import ContactsStore
import JSONCore
import JSONRPC

/// The `contacts.*` methods.
enum ContactMethods {
    static func all(store: ContactStore, sync: SyncService) -> [RPCMethod] {
        [
            RPCMethod(ContactsCreate.self) { request, _ in
                let draft: Contact
                do {
                    draft = try Contact(creating: request.contact, passing: ["account"])
                } catch {
                    throw ErrorMapping.rpcError(error)
                }
                var account = sync.defaultAccount.flatMap { (try? store.account(named: $0))?.name }
                // The account may be given beside the contact or in it, as the Contact shape has it.
                let inside = try ContactsCreate.account(request.contact["account"], field: "contact.account")
                if let inside, let beside = request.account, inside != beside {
                    throw RPCError.invalidParams(
                        "'account' and 'contact.account' name different accounts (\(request.params["account"] ?? .null), \(request.contact["account"] ?? .null)); give one",
                        field: "account")
                }
                switch request.account ?? inside {
                case .named(let name): account = try store.account(named: name).name
                case .local: account = nil
                case nil: break
                }
                var created = try store.create(draft)
                if let account {
                    _ = try sync.move(ids: [created.id], to: account)
                    created.account = account
                }
                return created.json
            },
            RPCMethod(ContactsGet.self) { request, _ in try store.contact(id: request.id).json },
            RPCMethod(ContactsUpdate.self) { request, _ in
                try store.update(id: request.target.id, ifRevision: request.target.ifRevision) { c in try c.apply(request.changes) }.json
            },
            RPCMethod(ContactsDelete.self) { request, _ in
                let r = try store.delete(ids: request.ids)
                return ["deleted": .int(r.deleted.count), "notFound": .array(r.notFound.map(JSONValue.string))]
            },
            RPCMethod(ContactsQuery.self) { request, _ in
                var q = query(request.filter, sort: request.sort)
                q.limit = request.limit
                q.offset = request.offset
                if let fields = try projection(request.fields) {
                    // Written straight from the stored rows: a projection is how clients ask for many.
                    let r = try store.queryText(q, fields: fields)
                    return ["total": .int(r.total), "contacts": .encoded(r.contacts)]
                }
                let r = try store.query(q)
                return ["total": .int(r.total), "contacts": .array(r.contacts.map(\.json))]
            },
            RPCMethod(ContactsLookupPhone.self) { request, _ in
                let found = try store.lookupPhone(request.number, limit: request.limit)
                return [
                    "matches": .array(
                        found.map { m in
                            let json = m.contact.json
                            let phone = json["phones"]?.arrayValue?[m.position] ?? .null
                            return ["contact": json, "phone": phone, "match": .string(m.match.rawValue)]
                        })
                ]
            },
            RPCMethod(ContactsSetFavorite.self) { request, _ in
                try store.setFavorite(id: request.target.id, request.favorite, ifRevision: request.target.ifRevision).json
            },
        ]
    }

    /// The fields a query asks for (`fields`); nil for all of them.
    static func projection(_ p: RPCParams) throws -> Contact.Fields? {
        guard p.has("fields") else { return nil }
        return try projection(try p.stringArray("fields"))
    }

    /// The fields a client named (nil: all), or which names are no field.
    static func projection(_ names: [String]?) throws -> Contact.Fields? {
        guard let names else { return nil }
        let (fields, unknown) = Contact.Fields.named(names)
        guard unknown.isEmpty else {
            throw RPCError.invalidParams(
                "'fields' names no field \(unknown.map { "'\($0)'" }.joined(separator: ", ")); the fields are \(Contact.Fields.names.joined(separator: ", "))",
                field: "fields")
        }
        return fields
    }

    /// The store's scope for the API's `collected`.
    static func scope(_ collected: ContactFilter.Collected) -> CollectedScope {
        switch collected {
        case .exclude: .excluded
        case .include: .included
        case .only: .only
        }
    }

    /// The store's query for the API's filters and sort keys (none: by name).
    static func query(_ filter: ContactFilter, sort: [SortKey]?) -> ContactQuery {
        var q = ContactQuery()
        q.text = filter.text
        q.favoritesOnly = filter.favoritesOnly
        q.group = filter.group
        q.collected = scope(filter.collected)
        switch filter.account {
        case .local: q.account = .local
        case .named(let name): q.account = .account(name)
        case nil: break
        }
        if let sort, !sort.isEmpty {
            q.sort = sort.map { ContactQuery.Sort(ContactQuery.SortField(rawValue: $0.field.rawValue) ?? .name, ascending: $0.ascending) }
        }
        return q
    }
}
