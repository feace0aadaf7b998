import Foundation
import JSONCore
import JSONRPC
import TestSupport
import XCTest

/// The model test of live views, through the real daemon: random creates, renames that move
/// contacts in the sort, favorites and memberships in and out of the queries, deletes,
/// imports (small, and one past what is followed contact by contact), undos, merges and sync
/// downloads from a vdir account, with views of different queries, sorts and windows open.
/// After each step every view's window as the client keeps it (its answer, with each
/// `view.changed` applied) is what a fresh `contacts.query` with the same parameters answers,
/// id for id and in order; and so after a disconnect, from `views.open` with `since`.
final class LiveViewModelTests: DaemonTestCase {
    /// A view as its client keeps it.
    struct Kept {
        var number = 0
        let open: JSONObject
        let query: JSONObject
        var offset: Int { query["offset"]?.intValue ?? 0 }
        var ids: [String] = []
        var names: [String: String] = [:]
        var total = 0
        var state = ""
        var mustRead = false

        init(_ open: JSONObject) {
            self.open = open
            var q = open["query"]?.objectValue ?? [:]
            if let sort = open["sort"] { q["sort"] = sort }
            if let w = open["window"]?.objectValue {
                q["offset"] = w["offset"] ?? 0
                q["limit"] = w["limit"]
            }
            query = q
        }

        mutating func take(_ answer: JSONValue) {
            number = answer["view"]?.intValue ?? number
            total = answer["total"]?.intValue ?? -1
            state = answer["state"]?.stringValue ?? ""
            ids = (answer["contacts"]?.arrayValue ?? []).map { $0["id"]?.stringValue ?? "" }
            names = [:]
            for c in answer["contacts"]?.arrayValue ?? [] { names[c["id"]?.stringValue ?? ""] = c["name"]?.stringValue }
            mustRead = false
        }

        /// Applies a view.changed: drop removed and moved, insert added and moved by index.
        mutating func apply(_ p: JSONValue) {
            let removed = Set((p["removed"]?.arrayValue ?? []).compactMap(\.stringValue))
            let moved = p["moved"]?.arrayValue ?? []
            let movedIDs = Set(moved.compactMap { $0["id"]?.stringValue })
            ids.removeAll { removed.contains($0) || movedIDs.contains($0) }
            var inserts: [(Int, String)] = []
            for a in p["added"]?.arrayValue ?? [] {
                let id = a["id"]?.stringValue ?? ""
                inserts.append((a["index"]?.intValue ?? 0, id))
                names[id] = a["contact"]?["name"]?.stringValue
            }
            for m in moved { inserts.append((m["to"]?.intValue ?? 0, m["id"]?.stringValue ?? "")) }
            for (index, id) in inserts.sorted(by: { $0.0 < $1.0 }) {
                let at = index - offset
                guard at >= 0 && at <= ids.count else {
                    XCTFail("view \(number): an insert at \(index) past a window of \(ids.count) from \(offset)")
                    continue
                }
                ids.insert(id, at: at)
            }
            for c in p["changed"]?.arrayValue ?? [] { names[c["id"]?.stringValue ?? ""] = c["contact"]?["name"]?.stringValue }
            total = p["total"]?.intValue ?? -1
            state = p["to"]?.stringValue ?? state
        }

        /// Applies the answer of views.open with since.
        mutating func resume(_ answer: JSONValue) {
            if answer["reset"] == true {
                take(answer)
                return
            }
            number = answer["view"]?.intValue ?? number
            let removed = Set((answer["removed"]?.arrayValue ?? []).compactMap(\.stringValue))
            ids.removeAll { removed.contains($0) }
            for a in (answer["added"]?.arrayValue ?? []).sorted(by: { ($0["index"]?.intValue ?? 0) < ($1["index"]?.intValue ?? 0) }) {
                let id = a["id"]?.stringValue ?? ""
                let at = (a["index"]?.intValue ?? 0) - offset
                guard at >= 0 && at <= ids.count else { return XCTFail("resumed view: an insert at \(at) past \(ids.count)") }
                ids.insert(id, at: at)
                names[id] = a["contact"]?["name"]?.stringValue
            }
            total = answer["total"]?.intValue ?? -1
            state = answer["state"]?.stringValue ?? state
        }
    }

    static let views: [JSONObject] = [
        [:],
        ["query": ["text": "an"]],
        ["query": ["favoritesOnly": true]],
        ["query": ["text": "a"], "window": ["offset": 0, "limit": 5]],
        ["window": ["offset": 3, "limit": 4]],
        ["sort": [["field": "name", "order": "desc"]], "window": ["limit": 6]],
        ["query": ["group": "Team"]],
        ["sort": [["field": "updatedAt", "order": "desc"]], "window": ["limit": 5]],
        ["query": ["account": "v"]],
        ["query": ["text": "e"], "fields": ["name"], "window": ["offset": 2, "limit": 8]],
        ["query": ["text": "zz", "favoritesOnly": true]],
        ["query": ["text": "a"], "sort": [["field": "createdAt", "order": "asc"]]],
        ["sort": [["field": "updatedAt", "order": "asc"]], "window": ["limit": 7]],
        ["query": ["favoritesOnly": true], "sort": [["field": "updatedAt", "order": "desc"]], "window": ["offset": 2, "limit": 3]],
        // The same windows again, one showing other fields: each followed on its own.
        ["sort": [["field": "updatedAt", "order": "desc"]], "window": ["limit": 5]],
        ["window": ["offset": 3, "limit": 4], "fields": ["name", "favorite"]],
        ["query": ["text": "a"], "window": ["offset": 0, "limit": 5]],
    ]

    static let given = ["Anna", "Hannah", "Dan", "Ivan", "Zoë", "Émile", "Bob", "Carl", "Marta", "Ólafur", "Li", "Zz"]
    static let family = ["Smith", "Haro", "Bell", "Andersson", "Núñez", "Quinn", "Zeller"]

    var rng = SplitMix(seed: UInt64(ProcessInfo.processInfo.environment["VIEW_MODEL_SEED"] ?? "") ?? 35)
    var ids: [String] = []
    var team = ""
    var vdir = ""

    func testViewsFollowEveryKindOfChangeIdForIdAndAcrossADisconnect() throws {
        let c = try daemon.client()
        vdir = daemon.home + "/vdir"
        _ = try c.call("accounts.add", ["name": "v", "vdir": .string(vdir)])
        team = try XCTUnwrap(try c.call("groups.create", ["name": "Team"])["id"]?.stringValue)
        for _ in 0..<12 { try step(c, kind: 0) }

        var kept = Self.views.map(Kept.init)
        let watcher = try daemon.client()
        let barrier = try XCTUnwrap(try watcher.call("views.open", ["query": ["text": "no such text at all"]])["view"]?.intValue)
        for k in kept.indices { kept[k].take(try watcher.call("views.open", kept[k].open)) }
        try check(kept, c, "opened")
        for n in 0..<160 {
            let kind = n == 70 ? 99 : n == 120 ? 98 : Int(rng.next() % 15)
            let what = try step(c, kind: kind)
            try settle(&kept, watcher, barrier: barrier)
            try check(kept, c, "step \(n): \(what)")
        }

        // Away: the watcher disconnects, changes happen, it comes back with the states it had.
        let away = kept
        _ = watcher
        var back = away
        try closeAndWait(watcher)
        for _ in 0..<15 { try step(c, kind: Int(rng.next() % 15)) }
        let returning = try daemon.client()
        for k in back.indices {
            var open = back[k].open
            open["since"] = .string(back[k].state)
            back[k].resume(try returning.call("views.open", open))
        }
        try check(back, c, "after a disconnect, with since")
        // A state the log no longer has (or never had): the whole window, reset.
        var stale = Kept(Self.views[0])
        var open = stale.open
        open["since"] = "999999999"
        let answer = try returning.call("views.open", open)
        XCTAssertEqual(answer["reset"], true)
        stale.resume(answer)
        try check([stale], c, "a since the daemon never gave")
    }

    /// One random change; what it was.
    @discardableResult
    func step(_ c: RPCClient, kind: Int) throws -> String {
        func name() -> String { "\(Self.given[rng.pick(Self.given.count)]) \(Self.family[rng.pick(Self.family.count)])" }
        func some() -> String? { ids.isEmpty ? nil : ids[rng.pick(ids.count)] }
        switch kind {
        case 0, 1:
            let n = name()
            var contact: JSONObject = ["name": .string(n), "favorite": .bool(rng.pick(3) == 0)]
            if rng.pick(2) == 0 { contact["emails"] = [["value": .string("\(ids.count)\(rng.pick(9))an@example.org")]] }
            if rng.pick(4) == 0 { contact["groups"] = ["Team"] }
            let id = try XCTUnwrap(try c.call("contacts.create", ["contact": .object(contact)])["id"]?.stringValue)
            ids.append(id)
            return "create \(n)"
        case 2, 3:
            guard let id = some() else { return "nothing" }
            let n = name()
            _ = try? c.call("contacts.update", ["id": .string(id), "changes": ["name": .string(n)]])
            return "rename to \(n)"
        case 4:
            guard let id = some() else { return "nothing" }
            _ = try? c.call("contacts.setFavorite", ["id": .string(id), "favorite": .bool(rng.pick(2) == 0)])
            return "favorite"
        case 5:
            guard let id = some() else { return "nothing" }
            _ = try c.call("contacts.delete", ["ids": [.string(id)]])
            ids.removeAll { $0 == id }
            return "delete"
        case 6:
            let cards = (0..<(1 + rng.pick(4))).map { _ in "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name())\r\nEND:VCARD\r\n" }
            let report = try c.call("contacts.import", ["vcard": .string(cards.joined())])
            ids += (report["ids"]?.arrayValue ?? []).compactMap(\.stringValue)
            try refreshIDs(c)
            return "import \(cards.count)"
        case 7:
            _ = try? c.call("changes.undo")
            try refreshIDs(c)
            return "undo"
        case 8:
            guard ids.count > 3 else { return "nothing" }
            let a = ids[rng.pick(ids.count)], b = ids[rng.pick(ids.count)]
            guard a != b else { return "nothing" }
            _ = try? c.call("contacts.merge", ["ids": [.string(a), .string(b)]])
            try refreshIDs(c)
            return "merge"
        case 9:
            guard let id = some() else { return "nothing" }
            let method = rng.pick(2) == 0 ? "groups.addMembers" : "groups.removeMembers"
            _ = try c.call(method, ["id": .string(team), "contactIds": [.string(id)]])
            return method
        case 10:
            // A download: a card written into the vdir (new, or one there changed), then a sync.
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: vdir)) ?? []).filter { $0.hasSuffix(".vcf") }
            let uid = files.isEmpty || rng.pick(2) == 0 ? "sync-\(rng.next() % 100_000)" : String(files[rng.pick(files.count)].dropLast(4))
            let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name())\r\nEND:VCARD\r\n"
            try card.write(toFile: vdir + "/\(uid).vcf", atomically: true, encoding: .utf8)
            _ = try c.call("sync.run", ["account": "v"])
            try refreshIDs(c)
            return "sync download \(uid)"
        case 11:
            // Back from the trash, or gone from it for good.
            let trashed = (try c.call("contacts.trash", ["limit": 5])["contacts"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            guard let id = trashed.first else { return "nothing" }
            if rng.pick(3) == 0 {
                _ = try c.call("contacts.purge", ["ids": [.string(id)]])
                return "purge"
            }
            _ = try? c.call("contacts.undelete", ["ids": [.string(id)]])
            try refreshIDs(c)
            return "undelete"
        case 12:
            guard let id = some() else { return "nothing" }
            _ = try? c.call("contacts.revert", ["id": .string(id), "revision": 1])
            return "revert"
        case 13:
            let rows = (0..<(1 + rng.pick(3))).map { _ in "\(name())," }
            _ = try c.call("contacts.import", ["csv": .string("Name,E-mail 1 - Value\n" + rows.joined(separator: "\n") + "\n")])
            try refreshIDs(c)
            return "import csv \(rows.count)"
        case 14:
            // A contact's phone changes: the text searched changes, the name and order do not.
            guard let id = some() else { return "nothing" }
            _ = try? c.call(
                "contacts.update", ["id": .string(id), "changes": ["phones": [["value": .string("+1 212 555 0\(100 + rng.pick(800))")]]]])
            return "phone"
        case 98:
            // The whole store replaced by a backup: every view resets.
            let file = daemon.home + "/model-backup.sqlite3"
            _ = try c.call("contacts.backup", ["path": .string(file)])
            _ = try c.call("contacts.create", ["contact": ["name": "Gone After Restore"]])
            _ = try c.call("contacts.restore", ["path": .string(file)])
            try refreshIDs(c)
            return "restore"
        default:
            // Past what views follow contact by contact: answered again from the index.
            let cards = (0..<300).map { i in "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name()) \(i)\r\nEND:VCARD\r\n" }
            _ = try c.call("contacts.import", ["vcard": .string(cards.joined())])
            try refreshIDs(c)
            return "import 300"
        }
    }

    func refreshIDs(_ c: RPCClient) throws {
        ids = (try c.call("contacts.query", ["fields": ["id"]])["contacts"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }

    /// Reads every notification the views were sent for the last commit: a read of a view of
    /// its own goes through the same queue after them.
    func settle(_ kept: inout [Kept], _ watcher: RPCClient, barrier: Int) throws {
        _ = try watcher.call("views.read", ["view": .int(barrier)])
        for n in watcher.takeNotifications() {
            guard let p = n["params"], let number = p["view"]?.intValue, let k = kept.firstIndex(where: { $0.number == number }) else {
                continue
            }
            switch n["method"]?.stringValue {
            case "view.changed":
                XCTAssertFalse(kept[k].mustRead, "view \(number) changed after a reset, before it was read")
                kept[k].apply(p)
            case "view.reset": kept[k].mustRead = true
            default: break
            }
        }
        for k in kept.indices where kept[k].mustRead { kept[k].take(try watcher.call("views.read", ["view": .int(kept[k].number)])) }
    }

    func check(_ kept: [Kept], _ c: RPCClient, _ when: String) throws {
        for v in kept {
            var q = v.query
            if v.open["fields"] != nil { q["fields"] = ["id", "name"] }
            let fresh = try c.call("contacts.query", q)
            let want = (fresh["contacts"]?.arrayValue ?? []).map { $0["id"]?.stringValue ?? "" }
            XCTAssertEqual(v.ids, want, "\(when): view \(v.open) holds other contacts than a query")
            XCTAssertEqual(v.total, fresh["total"]?.intValue, "\(when): view \(v.open) counts \(v.total)")
            if v.open["fields"] != nil {
                for c in fresh["contacts"]?.arrayValue ?? [] {
                    let id = c["id"]?.stringValue ?? ""
                    XCTAssertEqual(v.names[id], c["name"]?.stringValue, "\(when): view \(v.open) shows an old name for \(id)")
                }
            }
        }
    }

    func closeAndWait(_ client: RPCClient) throws {
        // The daemon closes the views when it sees the connection go.
        Glibc.shutdown(client.descriptor, Int32(SHUT_RDWR))
        let c = try daemon.client()
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, (try c.call("daemon.status")["views"]?.intValue ?? 0) > 0 { usleep(20_000) }
        XCTAssertEqual(try c.call("daemon.status")["views"]?.intValue, 0, "views closed with their connection")
    }
}
