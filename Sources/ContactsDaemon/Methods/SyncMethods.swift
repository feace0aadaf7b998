import CardDAV
import ContactsAPI
import ContactsStore
import ContactsSupport
import ContactsSync
import Foundation
import Glibc
import GooglePeople
import JSONCore
import JSONRPC
import Secrets

/// Sync accounts and syncs: add (discovered and signed in first), list, remove, run, status.
enum SyncMethods {
    static func all(store: ContactStore, sync: SyncService) -> [RPCMethod] {
        [
            RPCMethod(AccountsAdd.self) { request, call in
                let name = request.name
                var a: SyncAccount
                var book: URL? = nil
                switch request.book {
                case .vdir(let directory): a = try vdirAccount(name: name, directory: directory)
                case .url(let url):
                    let (passwordCommand, tokenCommand, username) = (request.passwordCommand, request.tokenCommand, request.username)
                    let caFile = try request.caFile.map { try checkCAFile($0, field: "caFile") }
                    let (found, properties) = try remote(url: url, account: name) {
                        let credentials = try SyncService.credentials(
                            username: username, passwordCommand: passwordCommand, tokenCommand: tokenCommand, account: name)
                        return try SyncService.discover(url, wanted: request.addressBook, credentials: credentials, caFile: caFile)
                    }
                    a = SyncAccount(
                        name: name, url: url, addressBookURL: found.url.absoluteString, displayName: found.displayName,
                        username: username, passwordCommand: passwordCommand, tokenCommand: tokenCommand)
                    a.caFile = caFile
                    a.offers4 = properties.versions.contains("4.0")
                    book = found.url
                case .google(let root):
                    a = try googleAccount(request, root: root, sync: sync, store: store, call: call)
                }
                a.interval = request.interval
                a.readOnly = request.readOnly
                do {
                    try store.addAccount(a)
                } catch {
                    sync.forgetSignIn(a)
                    throw error
                }
                if request.adoptLocal {
                    _ = try store.addToAccount(name, ids: try store.localContactIDs()) { [a] c in
                        SyncService.hrefForNewCard(uid: c.uid, account: a, book: book)
                    }
                }
                sync.accountsChanged()
                return try json(try store.account(named: name), store: store, sync: nil)
            },
            RPCMethod(AccountsList.self) { _, _ in
                ["accounts": .array(try store.accounts().map { try json($0, store: store, sync: nil) })]
            },
            RPCMethod(AccountsUpdate.self) { request, _ in
                let (name, changes) = (request.name, request.changes)
                var a = try store.account(named: name)
                let c = RPCParams(changes)
                if changes["username"] != nil { a.username = try c.optionalString("username") }
                if changes["passwordCommand"] != nil {
                    a.passwordCommand = c.has("passwordCommand") ? try c.stringArray("passwordCommand") : nil
                }
                if changes["tokenCommand"] != nil { a.tokenCommand = c.has("tokenCommand") ? try c.stringArray("tokenCommand") : nil }
                if changes["caFile"] != nil {
                    a.caFile = try c.optionalString("caFile").map { try checkCAFile($0, field: "changes.caFile") }
                }
                if let i = try c.optionalInt("interval", in: AccountsAdd.intervals) { a.interval = i }
                if let r = try c.optionalBool("readOnly") { a.readOnly = r }
                if ["username", "passwordCommand", "tokenCommand", "caFile"].contains(where: { changes[$0] != nil }) {
                    _ = try remote(url: a.addressBookURL, account: name) {
                        let credentials = try SyncService.credentials(
                            username: a.username, passwordCommand: a.passwordCommand, tokenCommand: a.tokenCommand, account: name)
                        return try SyncService.discover(a.addressBookURL, wanted: nil, credentials: credentials, caFile: a.caFile)
                    }
                }
                try store.updateAccount(a)
                sync.accountsChanged()
                return try json(try store.account(named: name), store: store, sync: sync)
            },
            RPCMethod(ContactsMove.self) { request, _ in ["moved": .int(try sync.move(ids: request.ids, to: request.account))] },
            RPCMethod(AccountsLogin.self) { request, call in
                var a = try store.account(named: request.name)
                guard a.peopleAPI, let id = a.oauthClientID else {
                    throw RPCError.invalidParams(
                        "account '\(a.name)' does not sign in through contactsd (it uses its password or token command)", field: "name")
                }
                let client = OAuthClient(
                    clientID: id, clientSecret: sync.clientSecret(of: a), authURL: a.oauthAuthURL, tokenURL: a.oauthTokenURL)
                _ = try remote(url: a.addressBookURL, account: a.name) {
                    try sync.signInToGoogle(
                        a.name, client: client, root: a.addressBookURL, expectedUser: a.url, open: signInNotice(call, a.name),
                        abandoned: callerLeft(call))
                }
                a.lastError = nil
                try store.updateAccount(a)
                sync.accountsChanged()
                return try json(try store.account(named: a.name), store: store, sync: sync)
            },
            RPCMethod(AccountsRemove.self) { request, _ in
                if let a = try? store.account(named: request.name) { sync.forgetSignIn(a) }
                let n = try store.removeAccount(name: request.name, keepContacts: request.keepContacts)
                sync.accountsChanged()
                return ["removed": .string(request.name), "contacts": .int(n)]
            },
            RPCMethod(SyncRun.self) { request, call in
                // The caller hears how far each sync has come (a progress bar).
                let tell: (String) -> (SyncProgress) -> Void = { name in
                    { p in _ = call.session?.sendNotification(method: ContactsAPI.Notification.syncProgress, params: json(p, account: name))
                    }
                }
                if let name = request.account {
                    return json(
                        try remote(url: try store.account(named: name).addressBookURL, account: name) {
                            try sync.sync(name, progress: tell(name))
                        })
                }
                var reports: [JSONValue] = []
                for a in try store.accounts() {
                    reports.append(
                        json(try remote(url: a.addressBookURL, account: a.name) { try sync.sync(a.name, progress: tell(a.name)) }))
                }
                return ["reports": .array(reports)]
            },
            heldDeletions(SyncConfirmDeletions.self, .confirm, store: store, sync: sync),
            heldDeletions(SyncRejectDeletions.self, .reject, store: store, sync: sync),
            RPCMethod(SyncStatus.self) { request, _ in
                let accounts = try request.account.map { [try store.account(named: $0)] } ?? store.accounts()
                return ["accounts": .array(try accounts.map { try json($0, store: store, sync: sync) })]
            },
        ]
    }

    /// `sync.confirmDeletions` or `sync.rejectDeletions`: a sync of one account now that
    /// treats the deletions it held back as `held` says.
    static func heldDeletions<R: HeldDeletionsRequest>(
        _ request: R.Type, _ held: SyncEngine.HeldDeletions, store: ContactStore, sync: SyncService
    ) -> RPCMethod {
        RPCMethod(R.self) { request, _ in
            let name = request.account
            return json(try remote(url: try store.account(named: name).addressBookURL, account: name) { try sync.sync(name, held: held) })
        }
    }

    /// A vdir account for `directory`: an absolute path to a directory this user can write
    /// (made when it is missing, as vdirsyncer does for a new local storage).
    static func vdirAccount(name: String, directory: String) throws -> SyncAccount {
        guard directory.hasPrefix("/"), !directory.split(separator: "/").contains("..") else {
            throw RPCError.invalidParams("'vdir' must be an absolute path without '..'", field: "vdir")
        }
        var st = stat()
        // A link to a directory is that directory (a vdir is often linked into place).
        if stat(directory, &st) != 0 {
            do {
                try FileIO.makeDirectories(directory)
            } catch {
                throw RPCError(.invalidData, "cannot make the vdir \(directory): \(error)", data: ["field": "vdir"])
            }
        } else if (st.st_mode & S_IFMT) != S_IFDIR || access(directory, R_OK | W_OK | X_OK) != 0 {
            throw RPCError(.invalidData, "\(directory) is not a directory this user can read and write", data: ["field": "vdir"])
        }
        // The directory as the kernel resolves it (links, `.`, `//`): the same vdir named two
        // ways is one book.
        let resolved = realpath(directory, nil).map { p in
            defer { free(p) }
            return String(cString: p)
        }
        let url = URL(fileURLWithPath: resolved ?? directory, isDirectory: true)
        return SyncAccount(name: name, url: directory, addressBookURL: url.absoluteString, displayName: url.lastPathComponent)
    }

    /// A CA file named by a client: an absolute path to a regular file this user can read.
    static func checkCAFile(_ path: String, field: String) throws -> String {
        var st = stat()
        guard path.hasPrefix("/"), stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, access(path, R_OK) == 0 else {
            throw RPCError.invalidParams("'\(field)' must be the absolute path of a readable file of CA certificates", field: field)
        }
        return path
    }

    /// Runs `body`, turning what the server did into -32007 with the account, URL and status.
    /// A Google account from `accounts.add`: signed in through contactsd (the caller is sent
    /// the page to open), or with its token command; its user names it.
    static func googleAccount(_ request: AccountsAdd, root: String, sync: SyncService, store: ContactStore, call: RPCCall) throws
        -> SyncAccount
    {
        let name = request.name
        if (try? store.account(named: name)) != nil {
            throw RPCError(.conflict, "an account named '\(name)' exists already")
        }
        var a: SyncAccount
        if let client = request.oauth {
            let user = try remote(url: root, account: name) {
                try sync.signInToGoogle(name, client: client, root: root, open: signInNotice(call, name), abandoned: callerLeft(call))
            }
            a = SyncAccount(
                name: name, url: user, addressBookURL: PeopleBackend.bookURL(root: root, user: user),
                displayName: "Google Contacts of \(user)")
            (a.oauthClientID, a.oauthAuthURL, a.oauthTokenURL) = (client.clientID, client.authURL, client.tokenURL)
        } else if request.tokenCommand == nil {
            // GNOME Online Accounts: the person signed in to Google in Settings already.
            let goa: GnomeOnlineAccounts.Account
            do {
                goa = try GnomeOnlineAccounts.pick(request.goaAccount)
            } catch {
                throw RPCError(.remoteFailed, "Account '\(name)': \(error)", data: ["account": .string(name)])
            }
            let user = try remote(url: root, account: name) {
                let token = try GnomeOnlineAccounts.accessToken(identity: goa.identity, account: name)
                return try SyncService.googleUser(root: root, credentials: .bearer(token))
            }
            a = SyncAccount(
                name: name, url: user, addressBookURL: PeopleBackend.bookURL(root: root, user: user),
                displayName: "Google Contacts of \(user)")
            a.goaAccount = goa.identity
        } else {
            let tokenCommand = request.tokenCommand
            let user = try remote(url: root, account: name) {
                try SyncService.googleUser(
                    root: root,
                    credentials: try SyncService.credentials(username: nil, passwordCommand: nil, tokenCommand: tokenCommand, account: name)
                )
            }
            a = SyncAccount(
                name: name, url: user, addressBookURL: PeopleBackend.bookURL(root: root, user: user),
                displayName: "Google Contacts of \(user)", tokenCommand: tokenCommand)
        }
        a.peopleAPI = true
        return a
    }

    /// Whether the caller of a sign-in has gone (the person gave up with Ctrl-C).
    static func callerLeft(_ call: RPCCall) -> @Sendable () -> Bool {
        let session = call.session
        return { session?.clientHasGone ?? false }
    }

    /// Tells the caller of a sign-in which page to open.
    static func signInNotice(_ call: RPCCall, _ account: String) -> (URL) -> Void {
        { url in
            _ = call.session?.sendNotification(
                method: ContactsAPI.Notification.accountSignIn, params: ["account": .string(account), "url": .string(url.absoluteString)])
        }
    }

    static func remote<T>(url: String, account: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as GoogleOAuth.Failure {
            throw RPCError(.remoteFailed, "Account '\(account)': \(e)", data: ["account": .string(account), "url": .string(url)])
        } catch let e as SecretService.Failure {
            throw RPCError(.remoteFailed, "Account '\(account)': \(e)", data: ["account": .string(account)])
        } catch let e as DAVError {
            var data: JSONObject = ["account": .string(account), "url": .string(url)]
            if let status = e.status { data["status"] = .int(status) }
            throw RPCError(.remoteFailed, "Account '\(account)': \(e)", data: .object(data))
        } catch let e as SecretCommand.Failure {
            throw RPCError(.remoteFailed, e.description, data: ["account": .string(account), "url": .string(url)])
        }
    }

    /// An Account; with `sync`, its AccountStatus too (what waits, what the last sync found, when the next is due).
    static func json(_ a: SyncAccount, store: ContactStore, sync: SyncService?) throws -> JSONValue {
        let contacts = try store.contactCount(account: a.name)
        var o: JSONObject = [
            "name": .string(a.name), "url": .string(a.url), "addressBookUrl": .string(a.addressBookURL),
            "displayName": a.displayName.map(JSONValue.string) ?? .null, "username": a.username.map(JSONValue.string) ?? .null,
            "interval": .int(a.interval), "readOnly": .bool(a.readOnly), "contacts": .int(contacts),
            "groups": .string(a.groupsLocal ? "local" : "book"), "caFile": a.caFile.map(JSONValue.string) ?? .null,
            "vcardVersion": .string(a.vcard4 ? "4.0" : "3.0"),
            "protocol": .string(a.peopleAPI ? "people" : a.vdirPath != nil ? "vdir" : "carddav"),
            "lastSuccess": a.lastSuccess.map { .string(Timestamp.format($0)) } ?? .null,
            "lastError": a.lastError.map(JSONValue.string) ?? .null,
        ]
        guard let sync else { return .object(o) }
        let report = a.lastReport.flatMap { try? JSONParser.parse($0) }
        o["pendingUploads"] = .int(try store.pendingItems(account: a.name).count)
        o["heldDeletions"] = .int(report?["held"]?.intValue ?? 0)
        o["conflicts"] = report?["conflicts"] ?? .array([])
        o["lastReport"] = report ?? .null
        o["nextAttempt"] = sync.nextAttempt(a.name).map { .string(Timestamp.format(Int64($0.timeIntervalSince1970 * 1000))) } ?? .null
        return .object(o)
    }

    static func json(_ p: SyncProgress, account: String) -> JSONValue {
        ["account": .string(account), "phase": .string(p.phase.rawValue), "done": .int(p.done), "total": p.total.map { .int($0) } ?? .null]
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

    static let accountSchema = SyncShape.account
}
