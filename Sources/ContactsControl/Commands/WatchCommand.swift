import ContactsAPI
import ContactsSupport
import JSONCore
import JSONRPC

/// `contactsctl watch [TEXT]`: the list as `list` and `search` print it, then each change to
/// it as it happens, through a live view; `--json` prints the window and each change as lines
/// for scripts. `--events` prints every notification of the store instead.
enum WatchCommand {
    /// What the table shows.
    static let shownFields = ["name", "emails", "phones", "favorite"]

    static func run(_ inv: inout Invocation) throws -> Int32 {
        if inv.flag("events") { return try LiveCommands.events(&inv) }
        var request = ViewsOpen()
        request.query.text = inv.arguments.first
        request.query.favoritesOnly = inv.flag("favorites")
        request.query.group = inv.value("group")
        request.query.account = SyncCommands.account(inv.value("account"))
        if let n = inv.value("limit") {
            guard let limit = Int(n), ViewsOpen.Window.limits.contains(limit) else {
                let limits = ViewsOpen.Window.limits
                throw UsageError(
                    message: "--limit must be a number from \(limits.lowerBound) to \(limits.upperBound), not '\(n)'",
                    command: "contactsctl watch")
            }
            request.window = ViewsOpen.Window(limit: limit)
        }
        if !inv.json { request.fields = shownFields }
        let client = try inv.client()
        var list = WatchedList(offset: 0)
        let opened = try client.call(request)
        let view = opened["view"] ?? .null
        list.take(opened)
        show(list, answer: opened, inv: inv)
        var pending = client.takeNotifications().map(JSONValue.object)
        while true {
            if pending.isEmpty { pending = [try client.readMessage()] }
            let message = pending.removeFirst()
            let params = message["params"] ?? .null
            guard params["view"] == view else { continue }
            switch message["method"]?.stringValue {
            case ContactsAPI.Notification.viewChanged:
                let events = list.apply(params)
                if inv.json {
                    inv.output.line(JSONWriter.string(["event": "view.changed", "params": params]))
                } else {
                    let time = Timestamp.format(Timestamp.now())
                    for e in events { inv.output.line("\(time) \(describe(e, total: list.total))") }
                }
            case ContactsAPI.Notification.viewReset:
                // More changed than the window holds: read it whole again.
                let answer = try client.call(ViewsRead(view: view.intValue ?? -1))
                pending += client.takeNotifications().map(JSONValue.object)
                list.take(answer)
                if !inv.json { inv.output.line("\(Timestamp.format(Timestamp.now())) the list changed as a whole:") }
                show(list, answer: answer, inv: inv)
            default: break
            }
            inv.output.flush()  // line by line, also into a pipe
        }
    }

    /// The window, as a table (and a count), or as one `list` line.
    static func show(_ list: WatchedList, answer: JSONValue, inv: Invocation) {
        if inv.json {
            inv.output.line(JSONWriter.string(["event": "list", "params": answer]))
        } else {
            ContactCommands.printContactTable(list.contacts, output: inv.output)
            let shown = list.contacts.count
            let count = list.total == 1 ? "1 contact" : "\(list.total) contacts"
            inv.output.line(inv.output.dim(shown < list.total ? "\(shown) of \(count)" : count))
        }
        inv.output.flush()
    }

    static func describe(_ e: WatchedList.Event, total: Int) -> String {
        switch e {
        case .entered(let name, let place): return "+ \(name) (\(place) of \(total))"
        case .left(let name): return "- \(name) (\(total) left)"
        case .moved(let name, let from, let to): return "↕ \(name) (from \(from) to \(to))"
        case .changed(let name): return "~ \(name)"
        }
    }
}
