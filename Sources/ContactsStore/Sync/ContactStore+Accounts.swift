import ContactsSupport
import JSONCore

/// Sync accounts: added once discovery and sign-in worked, listed, changed, removed.
extension ContactStore {
    public func addAccount(_ a: SyncAccount) throws {
        try write(origin: "rpc") { db, _ in
            guard try db.scalarInt("SELECT count(*) FROM accounts WHERE name = ?", [.text(a.name)]) == 0 else {
                throw StoreError.conflict(message: "an account named '\(a.name)' exists already", id: nil, currentRevision: nil)
            }
            let others = try db.prepare("SELECT name, book_url FROM accounts")
            defer { others.reset() }
            while try others.step() {
                guard SyncAccount(name: "", url: "", addressBookURL: others.text(1)).bookKey == a.bookKey else { continue }
                let book = a.vdirPath.map { "the vdir \($0)" } ?? "the address book \(a.addressBookURL)"
                throw StoreError.conflict(
                    message:
                        "\(book) is already the account '\(others.text(0))': two accounts of one book would take each other's contacts",
                    id: nil, currentRevision: nil)
            }
            try db.prepare(
                """
                INSERT INTO accounts (name, url, book_url, display_name, username, settings, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """
            ).run([
                .text(a.name), .text(a.url), .text(a.addressBookURL), a.displayName.map { .text($0) } ?? .null,
                a.username.map { .text($0) } ?? .null, .text(Self.settings(a)), .int(Timestamp.now()),
            ])
        }
    }

    public func accounts() throws -> [SyncAccount] {
        try read { db in
            let s = try db.prepare(
                "SELECT name, url, book_url, display_name, username, settings, sync_token, last_success, last_error, last_report FROM accounts ORDER BY name"
            )
            var out: [SyncAccount] = []
            while try s.step() {
                var a = SyncAccount(
                    name: s.text(0), url: s.text(1), addressBookURL: s.text(2), displayName: s.optionalText(3), username: s.optionalText(4))
                if case .object(let o)? = try? JSONParser.parse(s.text(5)) {
                    a.passwordCommand = o["passwordCommand"]?.arrayValue?.compactMap(\.stringValue)
                    a.tokenCommand = o["tokenCommand"]?.arrayValue?.compactMap(\.stringValue)
                    a.interval = o["interval"]?.intValue ?? 900
                    a.readOnly = o["readOnly"]?.boolValue ?? false
                    a.groupsLocal = o["groupsLocal"]?.boolValue ?? false
                    a.peopleAPI = o["peopleAPI"]?.boolValue ?? false
                    a.oauthClientID = o["oauthClientID"]?.stringValue
                    a.goaAccount = o["goaAccount"]?.stringValue
                    a.oauthAuthURL = o["oauthAuthURL"]?.stringValue
                    a.oauthTokenURL = o["oauthTokenURL"]?.stringValue
                    a.caFile = o["caFile"]?.stringValue
                    a.offers4 = o["offers4"]?.boolValue ?? false
                    a.vcard4 = o["vcard4"]?.boolValue ?? false
                }
                a.syncToken = s.optionalText(6)
                a.lastSuccess = s.optionalInt64(7)
                a.lastError = s.optionalText(8)
                a.lastReport = s.optionalText(9)
                out.append(a)
            }
            s.reset()
            return out
        }
    }

    public func account(named name: String) throws -> SyncAccount {
        guard let a = try accounts().first(where: { $0.name == name }) else { throw StoreError.notFound(kind: "account", id: name) }
        return a
    }

    /// Changes what an account signs in with or how often it syncs (not its name or book).
    public func updateAccount(_ a: SyncAccount) throws {
        try write(origin: "rpc") { db, _ in
            try db.prepare("UPDATE accounts SET username = ?, settings = ? WHERE name = ?").run([
                a.username.map { .text($0) } ?? .null, .text(Self.settings(a)), .text(a.name),
            ])
            guard db.changes > 0 else { throw StoreError.notFound(kind: "account", id: a.name) }
        }
    }

    /// Removes an account and what the store knew of its cards. Its contacts stay, as
    /// contacts of this machine alone, unless `keepContacts` is false: then they go to the
    /// trash. Returns how many contacts it had.
    public func removeAccount(name: String, keepContacts: Bool = true) throws -> Int {
        try write(origin: "rpc") { db, log in
            log.accountsChanged = true
            guard try db.scalarInt("SELECT count(*) FROM accounts WHERE name = ?", [.text(name)]) > 0 else {
                throw StoreError.notFound(kind: "account", id: name)
            }
            let members = "c.id IN (SELECT contact_id FROM sync_items WHERE account = ?1)"
            let count = Int(try db.scalarInt("SELECT count(*) FROM contacts c WHERE \(members)", [.text(name)]))
            if !keepContacts { try Self.deleteRows(db, where: members, [.text(name)], origin: "sync:\(name)", log: &log) }
            try db.prepare("DELETE FROM accounts WHERE name = ?").run([.text(name)])
            return count
        }
    }

    /// Notes how an account's last sync went, and the token to ask from next.
    public func recordSync(account: String, token: String?, error: String?) throws {
        try write(origin: "sync:\(account)") { db, _ in
            if let error {
                try db.prepare("UPDATE accounts SET last_error = ? WHERE name = ?").run([.text(error), .text(account)])
            } else {
                try db.prepare("UPDATE accounts SET sync_token = ?, last_success = ?, last_error = NULL WHERE name = ?").run([
                    token.map { .text($0) } ?? .null, .int(Timestamp.now()), .text(account),
                ])
            }
        }
    }

    /// Keeps the token a sync's download reached, before the sync ends: what was stored is
    /// not asked for again even if sending fails.
    public func recordToken(account: String, token: String?) throws {
        try write(origin: "sync:\(account)") { db, _ in
            try db.prepare("UPDATE accounts SET sync_token = ? WHERE name = ?").run([token.map { .text($0) } ?? .null, .text(account)])
        }
    }

    /// Keeps what an account's last sync reported.
    public func recordReport(account: String, _ report: String) throws {
        try write(origin: "sync:\(account)") { db, _ in
            try db.prepare("UPDATE accounts SET last_report = ? WHERE name = ?").run([.text(report), .text(account)])
        }
    }

    static func settings(_ a: SyncAccount) -> String {
        var o: [(String, JSONValue)] = [("interval", .int(a.interval)), ("readOnly", .bool(a.readOnly))]
        if a.groupsLocal { o.append(("groupsLocal", true)) }
        if a.peopleAPI { o.append(("peopleAPI", true)) }
        for (key, value) in [
            ("oauthClientID", a.oauthClientID), ("oauthAuthURL", a.oauthAuthURL), ("oauthTokenURL", a.oauthTokenURL),
            ("goaAccount", a.goaAccount),
        ] {
            if let value { o.append((key, .string(value))) }
        }
        if let ca = a.caFile { o.append(("caFile", .string(ca))) }
        if a.offers4 { o.append(("offers4", true)) }
        if a.vcard4 { o.append(("vcard4", true)) }
        if let p = a.passwordCommand { o.append(("passwordCommand", .array(p.map(JSONValue.string)))) }
        if let t = a.tokenCommand { o.append(("tokenCommand", .array(t.map(JSONValue.string)))) }
        return JSONWriter.string(.object(JSONObject(o.map { JSONObject.Member($0.0, $0.1) })))
    }
}
