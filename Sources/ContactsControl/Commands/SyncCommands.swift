import ContactsAPI
import Foundation
import Glibc
import JSONCore

/// Accounts and syncs: `account add|list|rm`, `sync [NAME]`, `sync status`.
enum SyncCommands {
    static func add(_ inv: inout Invocation) throws -> Int32 {
        let book: AccountsAdd.Book
        switch (inv.arguments.count > 1 ? inv.arguments[1] : nil, inv.value("vdir"), inv.flag("google")) {
        case (let url?, nil, false): book = .url(url)
        case (nil, let dir?, false): book = .vdir(TransferCommands.absolute(dir))
        case (nil, nil, true): book = .google(peopleURL: inv.value("people-url") ?? AccountsAdd.googlePeopleURL)
        default:
            throw UsageError(
                message: "give the address book's URL, --vdir DIR for a directory of .vcf files, or --google for a Google account",
                command: "contactsctl account add")
        }
        var request = AccountsAdd(name: inv.arguments[0], book: book)
        request.goaAccount = inv.value("goa-account")
        if let id = inv.value("client-id") {
            request.oauth = OAuthClient(
                clientID: id, clientSecret: inv.value("client-secret"), authURL: inv.value("auth-url"), tokenURL: inv.value("token-url"))
        }
        request.username = inv.value("user")
        request.passwordCommand = try inv.value("password-command").map(words)
        request.tokenCommand = try inv.value("token-command").map(words)
        request.addressBook = inv.value("address-book")
        request.caFile = inv.value("ca-file").map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
        if let interval = inv.value("interval") {
            guard let seconds = Int(interval) else {
                throw CommandFailure("--interval takes a number of seconds, not '\(interval)'", status: 64)
            }
            request.interval = seconds
        }
        request.readOnly = inv.flag("read-only")
        request.adoptLocal = inv.flag("adopt-local")
        let account = try signingIn(&inv) { inv in try inv.call(request) }
        if inv.json {
            inv.output.json(account)
        } else {
            let book = account["displayName"]?.stringValue ?? account["addressBookUrl"]?.stringValue ?? ""
            inv.output.line("Added \(inv.output.bold(inv.arguments[0])): \(book) (\(account["addressBookUrl"]?.stringValue ?? ""))")
            inv.output.line(inv.output.dim("Run 'contactsctl sync \(inv.arguments[0])' to sync it now."))
        }
        return 0
    }

    static let noAccounts =
        "No accounts: every contact lives on this machine alone. Add one with 'contactsctl account add NAME URL' (a CardDAV address book) or 'contactsctl account add NAME --vdir DIR'."

    static func list(_ inv: inout Invocation) throws -> Int32 {
        guard let result = try inv.callForPeople(AccountsList()) else { return 0 }
        let accounts = result["accounts"]?.arrayValue ?? []
        guard !accounts.isEmpty else {
            inv.output.line(inv.output.dim(noAccounts))
            return 0
        }
        var table = Table(headers: ["NAME", "CONTACTS", "LAST SYNC", "ADDRESS BOOK"], shrinkable: [3])
        for a in accounts {
            let last = a["lastSuccess"]?.stringValue.map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "never"
            let state = a["lastError"]?.stringValue.map { _ in last + " (failing)" } ?? last
            table.add([a["name"]?.stringValue ?? "", String(a["contacts"]?.intValue ?? 0), state, a["addressBookUrl"]?.stringValue ?? ""])
        }
        for line in table.render(width: inv.output.width, header: inv.output.bold) { inv.output.line(line) }
        return 0
    }

    static func remove(_ inv: inout Invocation) throws -> Int32 {
        let result = try inv.call(AccountsRemove(name: inv.arguments[0], keepContacts: !inv.flag("delete-contacts")))
        if inv.json {
            inv.output.json(result)
        } else {
            let n = result["contacts"]?.intValue ?? 0
            let fate = inv.flag("delete-contacts") ? "moved to the trash" : "kept on this machine"
            inv.output.line(
                "Removed \(inv.output.bold(inv.arguments[0])); its \(n) contact\(n == 1 ? "" : "s") \(n == 1 ? "is" : "are") \(fate)")
        }
        return 0
    }

    /// An account as the command line names it (`local`: this machine alone); nil for none.
    static func account(_ name: String?) -> ContactFilter.Account? {
        name.map { $0 == "local" ? .local : .named($0) }
    }

    static func move(_ inv: inout Invocation) throws -> Int32 {
        guard let target = inv.value("to") else {
            throw CommandFailure("move needs --to ACCOUNT (or --to local, for this machine alone)", status: 64)
        }
        var ids: [String] = []
        for ref in inv.arguments { ids.append(try ContactResolver.resolve(ref, in: inv)["id"]?.stringValue ?? "") }
        let result = try inv.call(ContactsMove(ids: ids, account: target == "local" ? nil : target))
        if inv.json {
            inv.output.json(result)
        } else {
            let n = result["moved"]?.intValue ?? 0
            let place = target == "local" ? "this machine alone" : inv.output.bold(target)
            inv.output.line("Moved \(n) contact\(n == 1 ? "" : "s") to \(place)\(n < ids.count ? " (the others were there already)" : "")")
        }
        return 0
    }

    static func login(_ inv: inout Invocation) throws -> Int32 {
        let account = try signingIn(&inv) { inv in try inv.call(AccountsLogin(name: inv.arguments[0])) }
        if inv.json {
            inv.output.json(account)
        } else {
            inv.output.line("Signed \(inv.output.bold(inv.arguments[0])) in again as \(account["url"]?.stringValue ?? "")")
        }
        return 0
    }

    /// Runs a call that may sign in to Google: when the daemon sends the page to sign in on,
    /// the browser opens it ($BROWSER, else xdg-open) and the address is printed for a
    /// terminal without one.
    static func signingIn(_ inv: inout Invocation, _ call: (inout Invocation) throws -> JSONValue) throws -> JSONValue {
        let client = try inv.client()
        client.onNotification = { n in
            guard n["method"]?.stringValue == ContactsAPI.Notification.accountSignIn, let url = n["params"]?["url"]?.stringValue else {
                return
            }
            FileHandle.standardError.write(
                Data("Sign in to Google in the browser that opens; if none does, open this address:\n  \(url)\n".utf8))
            Browser.open(url)
        }
        return try call(&inv)
    }

    static func run(_ inv: inout Invocation) throws -> Int32 {
        let bar = ProgressBar(label: inv.arguments.first ?? "sync", enabled: isatty(2) != 0 && !inv.json)
        let client = try inv.client()
        client.onNotification = { n in
            guard n["method"]?.stringValue == ContactsAPI.Notification.syncProgress, let p = n["params"] else { return }
            let phase = p["phase"]?.stringValue == "upload" ? "up" : "down"
            bar.update(
                done: p["done"]?.intValue ?? 0, total: p["total"]?.intValue ?? 0,
                label: "\(p["account"]?.stringValue ?? "") \(phase)")
        }
        let result = try inv.call(SyncRun(account: inv.arguments.first))
        bar.finish()
        return try printReports(result, &inv)
    }

    static func confirm(_ inv: inout Invocation) throws -> Int32 {
        try printReports(try inv.call(SyncConfirmDeletions(account: inv.arguments[0])), &inv)
    }

    static func reject(_ inv: inout Invocation) throws -> Int32 {
        try printReports(try inv.call(SyncRejectDeletions(account: inv.arguments[0])), &inv)
    }

    /// One line per account's sync, then its conflicts, held deletions and refused cards;
    /// exit status 1 when a card could not be synced.
    private static func printReports(_ result: JSONValue, _ inv: inout Invocation) throws -> Int32 {
        if inv.json {
            inv.output.json(result)
            return 0
        }
        let reports = result["reports"]?.arrayValue ?? [result]
        var failed = false
        for r in reports {
            let down = r["downloaded"], up = r["uploaded"]
            func n(_ v: JSONValue?, _ k: String) -> Int { v?[k]?.intValue ?? 0 }
            inv.output.line(
                "\(inv.output.bold(r["account"]?.stringValue ?? "")): "
                    + "in \(n(down, "created")) new, \(n(down, "updated")) changed, \(n(down, "deleted")) deleted; "
                    + "out \(n(up, "created")) new, \(n(up, "updated")) changed, \(n(up, "deleted")) deleted"
                    + ((r["merged"]?.intValue ?? 0) > 0 ? "; \(r["merged"]?.intValue ?? 0) merged" : ""))
            for c in r["conflicts"]?.arrayValue ?? [] {
                let fields = (c["fields"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
                inv.output.line(
                    "  conflict in \(c["id"]?.stringValue ?? ""): \(fields) (the later edit kept; the other is in 'contactsctl history')")
            }
            if let held = r["held"]?.intValue, held > 0 {
                let name = r["account"]?.stringValue ?? ""
                inv.output.line(
                    "  \(held) deletions held back, too many at once: 'contactsctl sync confirm \(name)' carries them out, 'contactsctl sync reject \(name)' undoes them"
                )
            }
            for e in r["errors"]?.arrayValue ?? [] {
                failed = true
                inv.output.line("  \(e["href"]?.stringValue ?? ""): \(e["message"]?.stringValue ?? "")")
            }
        }
        return failed ? 1 : 0
    }

    static func status(_ inv: inout Invocation) throws -> Int32 {
        guard let result = try inv.callForPeople(SyncStatus()) else { return 0 }
        let accounts = result["accounts"]?.arrayValue ?? []
        if accounts.isEmpty { inv.output.line(inv.output.dim("Nothing syncs. " + noAccounts)) }
        for a in accounts {
            let name = a["name"]?.stringValue ?? ""
            let last = a["lastSuccess"]?.stringValue ?? "never"
            inv.output.line("\(inv.output.bold(name)): last success \(last), \(a["contacts"]?.intValue ?? 0) contacts")
            if let error = a["lastError"]?.stringValue { inv.output.line("  last error: \(error)") }
            if let next = a["nextAttempt"]?.stringValue { inv.output.line("  next sync: \(next)") }
            if let pending = a["pendingUploads"]?.intValue, pending > 0 { inv.output.line("  waiting to go up: \(pending)") }
            if let held = a["heldDeletions"]?.intValue, held > 0 {
                inv.output.line("  \(held) deletions held back: 'contactsctl sync confirm \(name)' or 'contactsctl sync reject \(name)'")
            }
            for c in a["conflicts"]?.arrayValue ?? [] {
                let fields = (c["fields"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
                inv.output.line("  conflict resolved in \(c["id"]?.stringValue ?? ""): \(fields) (see 'contactsctl history')")
            }
        }
        return 0
    }

    /// A command line split into words as a shell would split it: spaces separate, quotes
    /// (single or double) keep spaces, a backslash escapes the next character.
    static func words(_ line: String) throws -> [String] {
        var out: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for ch in line {
            if escaped {
                word.append(ch)
                escaped = false
            } else if ch == "\\" && quote != "'" {
                escaped = true
                inWord = true
            } else if let q = quote {
                if ch == q { quote = nil } else { word.append(ch) }
            } else if ch == "'" || ch == "\"" {
                quote = ch
                inWord = true
            } else if ch == " " || ch == "\t" {
                if inWord { out.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(ch)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { throw CommandFailure("unbalanced quote in the command '\(line)'", status: 64) }
        if inWord { out.append(word) }
        guard !out.isEmpty else { throw CommandFailure("the command is empty", status: 64) }
        return out
    }
}
