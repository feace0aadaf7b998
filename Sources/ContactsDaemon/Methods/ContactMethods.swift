import ContactsAPI
import ContactsCore
import ContactsStore
import JSONCore
import JSONRPC

/// The `contacts.*` methods.
enum ContactMethods {
    static let contact = Schemas.ref("Contact")
    static let notFound = RPCError(.notFound, "No contact with that id")
    static let conflict = RPCError(.conflict, "The contact changed since the given revision")
    static let invalidData = RPCError(.invalidData, "A field value cannot be accepted")

    static func all(store: ContactStore, sync: SyncService) -> [RPCMethod] {
        [
            RPCMethod(
                ContactsAPI.Method.contactsCreate,
                summary:
                    "Creates a contact. Groups it names are created as needed. It goes to the sync account named (null: this machine alone), else to defaultAccount of config.json when that account exists.",
                params: [
                    RPCParam("contact", "The new contact.", schema: Schemas.ref("ContactInput"), required: true),
                    RPCParam("account", "The sync account it goes to; null for this machine alone.", schema: ["type": ["string", "null"]]),
                ],
                result: "contact", resultSchema: contact,
                errors: [invalidData, RPCError(.conflict, "A contact with that uid exists"), RPCError(.notFound, "No such account")]
            ) { call in
                let input = try call.params.objectValue("contact")
                let draft: Contact
                do {
                    draft = try Contact(creating: input, passing: ["account"])
                } catch {
                    throw ErrorMapping.rpcError(error)
                }
                var account = sync.defaultAccount.flatMap { (try? store.account(named: $0))?.name }
                // The account may be given beside the contact or in it, as the Contact shape has it.
                let inside = input["account"], beside = call.params.object["account"]
                if let inside, let beside, inside != beside {
                    throw RPCError.invalidParams(
                        "'account' and 'contact.account' name different accounts (\(beside), \(inside)); give one", field: "account")
                }
                if let given = beside ?? inside {
                    let field = beside != nil ? "account" : "contact.account"
                    guard given.isNull || given.stringValue != nil else {
                        throw RPCError.invalidParams("'\(field)' must be an account's name or null, not \(given.typeName)", field: field)
                    }
                    account = try given.stringValue.map { try store.account(named: $0).name }
                }
                var created = try store.create(draft)
                if let account {
                    _ = try sync.move(ids: [created.id], to: account)
                    created.account = account
                }
                return created.json
            },
            RPCMethod(
                ContactsAPI.Method.contactsGet, summary: "Returns one contact.",
                params: [RPCParam("id", "The contact's id.", schema: Schemas.string, required: true)],
                result: "contact", resultSchema: contact, errors: [notFound]
            ) { call in
                try store.contact(id: try call.params.string("id")).json
            },
            RPCMethod(
                ContactsAPI.Method.contactsUpdate,
                summary: "Changes some fields of a contact: fields given replace the stored ones, null clears, absent fields stay.",
                params: [
                    RPCParam("id", "The contact's id.", schema: Schemas.string, required: true),
                    RPCParam("changes", "The fields to change.", schema: Schemas.ref("ContactInput"), required: true),
                    RPCParam("ifRevision", "Only change it if it is still at this revision.", schema: Schemas.integer),
                ],
                result: "contact", resultSchema: contact, errors: [notFound, conflict, invalidData]
            ) { call in
                let id = try call.params.string("id")
                let changes = try call.params.objectValue("changes")
                let ifRevision = try call.params.optionalInt("ifRevision", in: 0...Int(Int32.max))
                return try store.update(id: id, ifRevision: ifRevision) { c in try c.apply(changes) }.json
            },
            RPCMethod(
                ContactsAPI.Method.contactsDelete,
                summary:
                    "Deletes contacts: each goes to the trash, from where contacts.undelete brings it back until contacts.purge removes it. Ids that do not exist are listed in notFound.",
                params: [RPCParam("ids", "The contacts' ids.", schema: Schemas.stringArray, required: true)],
                result: "deleted",
                resultSchema: [
                    "type": "object", "required": ["deleted"], "properties": ["deleted": Schemas.integer, "notFound": Schemas.stringArray],
                ]
            ) { call in
                let ids = try call.params.stringArray("ids")
                let r = try store.delete(ids: ids)
                return ["deleted": .int(r.deleted.count), "notFound": .array(r.notFound.map(JSONValue.string))]
            },
            RPCMethod(
                ContactsAPI.Method.contactsQuery,
                summary:
                    "Searches and lists contacts: case-, accent- and script-insensitive substring over name, nickname, organization, emails and phones (phone formatting ignored), with filters combined by AND.",
                params: [
                    RPCParam("text", "Text to look for; empty or absent lists everyone.", schema: Schemas.string),
                    RPCParam("favoritesOnly", "Only favorites.", schema: Schemas.boolean),
                    RPCParam("group", "Only members of this group (name or id).", schema: Schemas.string),
                    RPCParam(
                        "account", "Only the contacts of this sync account; null: only those no account has.",
                        schema: ["type": ["string", "null"]]),
                    RPCParam(
                        "sort", "Sort keys, first wins; default name ascending.",
                        schema: ["type": "array", "items": Schemas.ref("SortKey")]),
                    RPCParam("limit", "At most this many contacts.", schema: ["type": "integer", "minimum": 0]),
                    RPCParam("offset", "Skip this many first.", schema: ["type": "integer", "minimum": 0]),
                    RPCParam(
                        "fields", "Only these fields of each contact (id always): a projection, for clients that show a few.",
                        schema: ["type": "array", "items": ["enum": .array(Contact.Fields.names.map { .string($0) })]]),
                ],
                result: "page",
                resultSchema: [
                    "type": "object", "required": ["total", "contacts"],
                    "properties": ["total": Schemas.integer, "contacts": ["type": "array", "items": contact]],
                ],
                errors: [RPCError(.notFound, "No group or account with that name")]
            ) { call in
                let q = try parseQuery(call.params)
                if let fields = try projection(call.params) {
                    // Written straight from the stored rows: a projection is how clients ask for many.
                    let r = try store.queryText(q, fields: fields)
                    return ["total": .int(r.total), "contacts": .encoded(r.contacts)]
                }
                let r = try store.query(q)
                return ["total": .int(r.total), "contacts": .array(r.contacts.map(\.json))]
            },
            RPCMethod(
                ContactsAPI.Method.contactsLookupPhone,
                summary:
                    "Caller ID: the contacts with this phone number, best match first (the same E.164 number; the same national number where one was written without country code; the same last seven or more digits).",
                params: [
                    RPCParam("number", "The number as it arrived, in any common form.", schema: Schemas.string, required: true),
                    RPCParam(
                        "limit", "At most this many matches (default 20).", schema: ["type": "integer", "minimum": 1, "maximum": 1000]),
                ],
                result: "matches",
                resultSchema: [
                    "type": "object", "required": ["matches"],
                    "properties": [
                        "matches": [
                            "type": "array",
                            "items": [
                                "type": "object", "required": ["contact", "phone", "match"],
                                "properties": [
                                    "contact": contact, "phone": Schemas.ref("Phone"),
                                    "match": ["type": "string", "enum": ["exact", "national", "short"]],
                                ],
                            ],
                        ]
                    ],
                ]
            ) { call in
                let number = try call.params.string("number")
                guard number.utf8.count <= 256 else {
                    throw RPCError(.invalidParams, "number is longer than any phone number (\(number.utf8.count) bytes)")
                }
                let limit = try call.params.optionalInt("limit", in: 1...1000) ?? 20
                let found = try store.lookupPhone(number, limit: limit)
                return [
                    "matches": .array(
                        found.map { m in
                            let json = m.contact.json
                            let phone = json["phones"]?.arrayValue?[m.position] ?? .null
                            return ["contact": json, "phone": phone, "match": .string(m.match.rawValue)]
                        })
                ]
            },
            RPCMethod(
                ContactsAPI.Method.contactsSetFavorite, summary: "Marks or unmarks a contact as a favorite.",
                params: [
                    RPCParam("id", "The contact's id.", schema: Schemas.string, required: true),
                    RPCParam("favorite", "The new state.", schema: Schemas.boolean, required: true),
                    RPCParam("ifRevision", "Only change it if it is still at this revision.", schema: Schemas.integer),
                ],
                result: "contact", resultSchema: contact, errors: [notFound, conflict]
            ) { call in
                let id = try call.params.string("id")
                let favorite = try call.params.bool("favorite")
                let ifRevision = try call.params.optionalInt("ifRevision", in: 0...Int(Int32.max))
                return try store.setFavorite(id: id, favorite, ifRevision: ifRevision).json
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

    static func parseQuery(_ p: RPCParams) throws -> ContactQuery {
        var q = query(try ContactFilter(p), sort: try p["sort"].map(SortKey.list))
        q.limit = try p.optionalInt("limit", in: 0...Int(Int32.max))
        q.offset = try p.optionalInt("offset", in: 0...Int(Int32.max)) ?? 0
        return q
    }

    /// The store's query for the API's filters and sort keys (none: by name).
    static func query(_ filter: ContactFilter, sort: [SortKey]?) -> ContactQuery {
        var q = ContactQuery()
        q.text = filter.text
        q.favoritesOnly = filter.favoritesOnly
        q.group = filter.group
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
