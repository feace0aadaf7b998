import ContactsAPI
import ContactsSupport
import Glibc
import JSONCore
import JSONRPC
import MailCompletion

/// Verbs that other programs call: mail clients, shells, and people watching changes.
enum LiveCommands {
    /// mutt's query format: a header line, then `email<TAB>name<TAB>label` per address (as the
    /// small `contactsctl` prints it, from the same `QueryEmail`).
    static func queryEmail(_ inv: inout Invocation) throws -> Int32 {
        var query = QueryEmail(text: inv.arguments[0], header: !inv.flag("no-header"))
        if let n = inv.value("limit") {
            guard let v = Int(n), MailQuery.limits.contains(v) else {
                throw UsageError(message: "--limit must be a positive number, not '\(n)'", command: "contactsctl query-email")
            }
            query.limit = v
        }
        // Every address of every matching contact (collected ones too), ranked by the daemon:
        // those written to first, then those heard from, then the rest. (No folding here: the
        // client stays free of the transliterator, which costs milliseconds to load.)
        let result = try inv.call(MailQuery(text: query.text, limit: query.limit, fields: Set(QueryEmail.fields)))
        let addresses = result["addresses"]?.arrayValue ?? []
        if inv.json {
            let lines = addresses.compactMap(QueryEmail.line).map { JSONValue.string($0) }
            inv.output.json(.array(lines))
            return lines.isEmpty ? 1 : 0
        }
        let (bytes, status) = query.output(addresses)
        inv.output.write(String(decoding: bytes, as: UTF8.self))
        return status
    }

    /// Caller ID: `Name (label)` for each contact with the number, the best matches only
    /// (all of them, with how each matched, under `--all`); exit 1 when nobody has it.
    static func who(_ inv: inout Invocation) throws -> Int32 {
        let number = inv.arguments[0]
        let result = try inv.call(ContactsLookupPhone(number: number))
        var matches = result["matches"]?.arrayValue ?? []
        if !inv.flag("all"), let best = matches.first?["match"] {
            matches = matches.filter { $0["match"] == best }
        }
        if inv.json {
            inv.output.json(.array(matches))
            return matches.isEmpty ? 1 : 0
        }
        guard !matches.isEmpty else {
            inv.output.error("no contact has the number \(number)")
            return 1
        }
        for m in matches {
            let name = m["contact"]?["name"]?.stringValue ?? ""
            let label = m["phone"]?["label"]?.stringValue
            var line = label.map { "\(name) (\($0))" } ?? name
            if inv.flag("all") {
                line += "\t\(m["phone"]?["value"]?.stringValue ?? "")\t\(m["match"]?.stringValue ?? "")"
            }
            inv.output.line(line)
        }
        return 0
    }

    /// Every notification of the store, one line each (`watch --events`).
    static func events(_ inv: inout Invocation) throws -> Int32 {
        let client = try inv.client()
        _ = try client.call(EventsSubscribe())
        inv.output.flush()
        var pending = client.takeNotifications().map(JSONValue.object)
        while true {
            if pending.isEmpty { pending = [try client.readMessage()] }
            let message = pending.removeFirst()
            guard let method = message["method"]?.stringValue else { continue }
            let params = message["params"] ?? .null
            if inv.json {
                inv.output.line(JSONWriter.string(["event": .string(method), "params": params]))
            } else {
                for line in describe(method, params) { inv.output.line(line) }
            }
            inv.output.flush()  // line by line, also into a pipe
        }
    }

    static func describe(_ method: String, _ params: JSONValue) -> [String] {
        let time = Timestamp.format(Timestamp.now())
        switch method {
        case "contacts.changed", "groups.changed":
            let kind = method == "contacts.changed" ? "contact" : "group"
            return (params["changes"]?.arrayValue ?? []).map { c in
                let what = c["name"]?.stringValue.map { " \($0)" } ?? ""
                let rev = c["revision"]?.intValue.map { " (revision \($0))" } ?? ""
                return "\(time) \(kind) \(c["change"]?.stringValue ?? "?") \(c["id"]?.stringValue ?? "")\(what)\(rev)"
            }
        case "inbox.processed":
            let r = params["report"] ?? .null
            let counts = ["created", "updated", "unchanged", "failed"].map { "\(r[$0]?.intValue ?? 0) \($0)" }.joined(separator: ", ")
            return ["\(time) inbox \(params["file"]?.stringValue ?? ""): \(counts)"]
        default:
            return ["\(time) \(method) \(JSONWriter.string(params))"]
        }
    }

    static func completions(_ inv: inout Invocation) throws -> Int32 {
        switch inv.arguments[0] {
        case "bash": inv.output.write(CompletionScripts.bash(CommandTree.root))
        case "zsh": inv.output.write(CompletionScripts.zsh(CommandTree.root))
        case "fish": inv.output.write(CompletionScripts.fish(CommandTree.root))
        case "man": inv.output.write(ManualOptions.roff(CommandTree.root))
        default:
            throw UsageError(
                message: "no completions for '\(inv.arguments[0])': use bash, zsh or fish (or man)", command: "contactsctl completions")
        }
        return 0
    }

    /// Names for completion, one per line. Quiet and quick when the daemon is away.
    static func completeValues(_ inv: inout Invocation) throws -> Int32 {
        let prefix = inv.arguments.count > 1 ? inv.arguments[1] : ""
        guard let client = try? RPCClient(path: inv.socketPath, timeout: 0.5) else { return 0 }
        switch inv.arguments[0] {
        case "groups":
            let groups = (try? client.call(ContactsAPI.Method.groupsList))?["groups"]?.arrayValue ?? []
            for g in groups {
                if let n = g["name"]?.stringValue, n.lowercased().hasPrefix(prefix.lowercased()) { inv.output.line(n) }
            }
        case "contacts":
            let request = ContactsQuery(filter: ContactFilter(text: prefix.isEmpty ? nil : prefix), limit: 200, fields: ["name"])
            let contacts = (try? client.call(request))?["contacts"]?.arrayValue ?? []
            for c in contacts {
                if let n = c["name"]?.stringValue { inv.output.line(n) }
            }
        case "trash":
            let request = ContactsTrash(text: prefix.isEmpty ? nil : prefix, limit: 200)
            for c in (try? client.call(request))?["contacts"]?.arrayValue ?? [] {
                if let n = c["name"]?.stringValue { inv.output.line(n) }
            }
        case "accounts":
            for a in (try? client.call(AccountsList()))?["accounts"]?.arrayValue ?? [] {
                if let n = a["name"]?.stringValue, n.hasPrefix(prefix) { inv.output.line(n) }
            }
        case "devices":
            for d in (try? client.call(ServeDevicesList()))?["devices"]?.arrayValue ?? [] {
                if let n = d["name"]?.stringValue, n.hasPrefix(prefix) { inv.output.line(n) }
            }
        default: break
        }
        return 0
    }
}
