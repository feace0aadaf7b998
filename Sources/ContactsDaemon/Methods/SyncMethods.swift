import CardDAV
import ContactsAPI
import ContactsStore
import ContactsSupport
import ContactsSync
import JSONCore
import JSONRPC

/// Sync accounts and syncs: add (discovered and signed in first), list, remove, run, status.
enum SyncMethods {
    static func all(store: ContactStore, sync: SyncService) -> [RPCMethod] {
        [
            RPCMethod(
                ContactsAPI.Method.accountsAdd,
                summary:
                    "Adds an account: finds the address book behind url (the book, a server, a host or an email domain), signs in, and keeps it in two-way sync. No password is stored: passwordCommand or tokenCommand prints it when needed.",
                params: [
                    RPCParam("name", "The account's name.", schema: Schemas.string, required: true),
                    RPCParam("url", "An address book, a server, a host or an email address.", schema: Schemas.string, required: true),
                    RPCParam("username", "The user to sign in as (HTTP Basic).", schema: Schemas.string),
                    RPCParam("passwordCommand", "A command (argv) that prints the password.", schema: Schemas.stringArray),
                    RPCParam("tokenCommand", "A command (argv) that prints a bearer token (OAuth 2).", schema: Schemas.stringArray),
                    RPCParam("addressBook", "Which book, by display name or href, when there are several.", schema: Schemas.string),
                    RPCParam("interval", "Seconds between syncs (default 900).", schema: ["type": "integer", "minimum": 60]),
                    RPCParam("readOnly", "Only download.", schema: Schemas.boolean),
                    RPCParam("adoptLocal", "Move this machine's contacts into the account.", schema: Schemas.boolean),
                ],
                result: "account", resultSchema: accountSchema,
                errors: [RPCError(.conflict, "An account of that name exists"), RPCError(.remoteFailed, "The server could not be used")]
            ) { call in
                let p = call.params
                let name = try p.string("name").trimmingWhitespace()
                guard !name.isEmpty, name.count <= 64, !name.contains("/") else {
                    throw RPCError(.invalidParams, "Invalid params: name must be 1 to 64 characters, without '/'", data: ["field": "name"])
                }
                let url = try p.string("url")
                let passwordCommand = p.has("passwordCommand") ? try p.stringArray("passwordCommand") : nil
                let tokenCommand = p.has("tokenCommand") ? try p.stringArray("tokenCommand") : nil
                let username = try p.optionalString("username")
                let book = try remote(url: url, account: name) {
                    let credentials = try SyncService.credentials(
                        username: username, passwordCommand: passwordCommand, tokenCommand: tokenCommand, account: name)
                    return try SyncService.discover(url, wanted: try p.optionalString("addressBook"), credentials: credentials)
                }
                var a = SyncAccount(
                    name: name, url: url, addressBookURL: book.url.absoluteString, displayName: book.displayName, username: username,
                    passwordCommand: passwordCommand, tokenCommand: tokenCommand,
                    interval: try p.optionalInt("interval", in: 60...604_800) ?? 900,
                    readOnly: try p.optionalBool("readOnly") ?? false)
                try store.addAccount(a)
                if try p.optionalBool("adoptLocal") ?? false {
                    let client = AddressBookClient(url: book.url, http: HTTPClient(credentials: .none, for: book.url))
                    _ = try store.addToAccount(name, ids: try store.localContactIDs()) { client.hrefForNewCard(uid: $0.uid) }
                }
                a = try store.account(named: name)
                sync.accountsChanged()
                return try json(a, store: store)
            },
            RPCMethod(
                ContactsAPI.Method.accountsList, summary: "The sync accounts.", params: [], result: "accounts",
                resultSchema: [
                    "type": "object", "required": ["accounts"], "properties": ["accounts": ["type": "array", "items": accountSchema]],
                ]
            ) { _ in
                ["accounts": .array(try store.accounts().map { try json($0, store: store) })]
            },
            RPCMethod(
                ContactsAPI.Method.accountsRemove,
                summary:
                    "Removes an account; its contacts stay as contacts of this machine unless keepContacts is false (then they go to the trash).",
                params: [
                    RPCParam("name", "The account.", schema: Schemas.string, required: true),
                    RPCParam("keepContacts", "Keep its contacts here (default true).", schema: Schemas.boolean),
                ],
                result: "removed",
                resultSchema: [
                    "type": "object", "required": ["removed", "contacts"],
                    "properties": ["removed": Schemas.string, "contacts": Schemas.integer],
                ],
                errors: [RPCError(.notFound, "No such account")]
            ) { call in
                let name = try call.params.string("name")
                let n = try store.removeAccount(name: name, keepContacts: try call.params.optionalBool("keepContacts") ?? true)
                sync.accountsChanged()
                return ["removed": .string(name), "contacts": .int(n)]
            },
            RPCMethod(
                ContactsAPI.Method.syncRun,
                summary: "Syncs one account (or every one) now, and answers when it is done with what it did.",
                params: [RPCParam("account", "The account; all when absent.", schema: Schemas.string)],
                result: "report",
                resultSchema: ["type": "object"],
                errors: [RPCError(.notFound, "No such account"), RPCError(.remoteFailed, "The server could not be used")]
            ) { call in
                if let name = try call.params.optionalString("account") {
                    return json(try remote(url: try store.account(named: name).addressBookURL, account: name) { try sync.sync(name) })
                }
                var reports: [JSONValue] = []
                for a in try store.accounts() {
                    reports.append(json(try remote(url: a.addressBookURL, account: a.name) { try sync.sync(a.name) }))
                }
                return ["reports": .array(reports)]
            },
            heldDeletions(
                ContactsAPI.Method.syncConfirmDeletions, .confirm, store: store, sync: sync,
                "Syncs an account now and carries out the deletions it held back (more than 10 and a quarter of its contacts at once)."),
            heldDeletions(
                ContactsAPI.Method.syncRejectDeletions, .reject, store: store, sync: sync,
                "Syncs an account now and undoes the deletions it held back: cards the server lost go back up, contacts deleted here come back from the trash."
            ),
            RPCMethod(
                ContactsAPI.Method.syncStatus,
                summary: "How each account's syncs went: the last success, the last error, its contacts.",
                params: [RPCParam("account", "The account; all when absent.", schema: Schemas.string)],
                result: "status",
                resultSchema: [
                    "type": "object", "required": ["accounts"], "properties": ["accounts": ["type": "array", "items": accountSchema]],
                ]
            ) { call in
                let wanted = try call.params.optionalString("account")
                let accounts = try wanted.map { [try store.account(named: $0)] } ?? store.accounts()
                return ["accounts": .array(try accounts.map { try json($0, store: store) })]
            },
        ]
    }

    /// `sync.confirmDeletions` or `sync.rejectDeletions`: a sync of one account now that
    /// treats the deletions it held back as `held` says.
    static func heldDeletions(
        _ method: String, _ held: SyncEngine.HeldDeletions, store: ContactStore, sync: SyncService, _ summary: String
    ) -> RPCMethod {
        RPCMethod(
            method, summary: summary, params: [RPCParam("account", "The account.", schema: Schemas.string, required: true)],
            result: "report", resultSchema: ["type": "object"],
            errors: [RPCError(.notFound, "No such account"), RPCError(.remoteFailed, "The server could not be used")]
        ) { call in
            let name = try call.params.string("account")
            return json(try remote(url: try store.account(named: name).addressBookURL, account: name) { try sync.sync(name, held: held) })
        }
    }

    /// Runs `body`, turning what the server did into -32007 with the account, URL and status.
    static func remote<T>(url: String, account: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as DAVError {
            var data: JSONObject = ["account": .string(account), "url": .string(url)]
            if let status = e.status { data["status"] = .int(status) }
            throw RPCError(.remoteFailed, "Account '\(account)': \(e)", data: .object(data))
        } catch let e as SecretCommand.Failure {
            throw RPCError(.remoteFailed, e.description, data: ["account": .string(account), "url": .string(url)])
        }
    }

    static func json(_ a: SyncAccount, store: ContactStore) throws -> JSONValue {
        let contacts = try store.syncItems(account: a.name).filter { $0.contactID != nil }.count
        return [
            "name": .string(a.name), "url": .string(a.url), "addressBookUrl": .string(a.addressBookURL),
            "displayName": a.displayName.map(JSONValue.string) ?? .null, "username": a.username.map(JSONValue.string) ?? .null,
            "interval": .int(a.interval), "readOnly": .bool(a.readOnly), "contacts": .int(contacts),
            "lastSuccess": a.lastSuccess.map { .string(Timestamp.format($0)) } ?? .null,
            "lastError": a.lastError.map(JSONValue.string) ?? .null,
        ]
    }

    static func json(_ r: SyncReport) -> JSONValue {
        func counts(_ c: SyncReport.Counts) -> JSONValue {
            ["created": .int(c.created), "updated": .int(c.updated), "deleted": .int(c.deleted)]
        }
        return [
            "account": .string(r.account), "downloaded": counts(r.downloaded), "uploaded": counts(r.uploaded), "merged": .int(r.merged),
            "conflicts": .array(r.conflicts.map { ["id": .string($0.id), "fields": .array($0.fields.map(JSONValue.string))] }),
            "held": .int(r.held),
            "errors": .array(
                r.errors.map { ["href": .string($0.href), "status": $0.status.map { .int($0) } ?? .null, "message": .string($0.message)] }),
            "requests": .int(r.requests), "durationMs": .int(r.durationMs),
        ]
    }

    static let accountSchema: JSONValue = [
        "type": "object", "required": ["name", "url", "addressBookUrl", "interval", "readOnly", "contacts"],
        "properties": [
            "name": Schemas.string, "url": Schemas.string, "addressBookUrl": Schemas.string, "displayName": ["type": ["string", "null"]],
            "username": ["type": ["string", "null"]], "interval": Schemas.integer, "readOnly": Schemas.boolean, "contacts": Schemas.integer,
            "lastSuccess": ["type": ["string", "null"]], "lastError": ["type": ["string", "null"]],
        ],
    ]
}
