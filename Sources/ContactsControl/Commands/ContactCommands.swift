import ContactsAPI
import Glibc
import JSONCore
import JSONRPC

/// The verbs that work on contacts.
enum ContactCommands {
    static func list(_ inv: inout Invocation) throws -> Int32 {
        try runQuery(&inv, text: nil)
    }

    static func search(_ inv: inout Invocation) throws -> Int32 {
        try runQuery(&inv, text: inv.arguments[0])
    }

    /// A table of the contacts that match (`collected`: those collected from mail too, or
    /// them alone; by default as `--collected` says); `none` is said when there are none.
    static func runQuery(
        _ inv: inout Invocation, text: String?, collected: ContactFilter.Collected? = nil, none: String? = nil
    ) throws -> Int32 {
        var request = ContactsQuery(
            filter: ContactFilter(
                text: text, favoritesOnly: inv.flag("favorites"), group: inv.value("group"),
                account: SyncCommands.account(inv.value("account")),
                collected: collected ?? (inv.flag("collected") ? .include : .exclude)))
        if inv.flag("by-mail") || collected == .only { request.sort = [SortKey(.frequency, ascending: false)] }
        if let n = inv.value("limit") {
            guard let limit = Int(n), ContactsQuery.counts.contains(limit) else {
                throw UsageError(message: "--limit must be a whole number, not '\(n)'", command: "contactsctl")
            }
            request.limit = limit
        }
        // The table shows a name, a first email and phone, and a star: only those are asked for.
        if !inv.json { request.fields = ["name", "emails", "phones", "favorite"] }
        guard let result = try inv.callForPeople(request) else { return 0 }
        let contacts = result["contacts"]?.arrayValue ?? []
        printContactTable(contacts, output: inv.output)
        let total = result["total"]?.intValue ?? contacts.count
        if inv.output.isTerminal {
            if contacts.isEmpty {
                inv.output.line(inv.output.dim(none ?? (text == nil ? "No contacts." : "No contacts match '\(text ?? "")'.")))
            } else if total > contacts.count {
                inv.output.line(inv.output.dim("\(contacts.count) of \(total) contacts"))
            }
        }
        return 0
    }

    static func printContactTable(_ contacts: [JSONValue], output: Output) {
        guard !contacts.isEmpty else { return }
        var table = Table(headers: ["NAME", "EMAIL", "PHONE"], shrinkable: [1, 0, 2])
        for c in contacts {
            let star = c["favorite"]?.boolValue == true ? " ★" : ""
            let email = c["emails"]?.arrayValue?.first?["value"]?.stringValue ?? ""
            let phone = c["phones"]?.arrayValue?.first?["value"]?.stringValue ?? ""
            table.add([(c["name"]?.stringValue ?? "") + star, email, phone])
        }
        for line in table.render(width: output.width, header: output.bold) { output.line(line) }
    }

    static func show(_ inv: inout Invocation) throws -> Int32 {
        let contact = try ContactResolver.resolve(inv.arguments[0], in: inv)
        if inv.json {
            inv.output.json(contact)
        } else {
            ContactView.render(contact, output: inv.output)
        }
        return 0
    }

    static func add(_ inv: inout Invocation) throws -> Int32 {
        guard let name = inv.arguments.first else {
            guard inv.options.isEmpty && inv.flags.isEmpty else {
                throw UsageError(
                    message: "give the NAME with the other fields, or nothing to fill a form in the editor", command: "contactsctl add")
            }
            return try EditorSession.run(&inv, contact: nil)
        }
        var contact: JSONObject = ["name": .string(name)]
        if let parts = structuredName(name) { contact["structuredName"] = parts }
        try fill(&contact, from: inv)
        if inv.flag("favorite") { contact["favorite"] = true }
        let created = try inv.call(ContactsCreate(contact: contact, account: SyncCommands.account(inv.value("account"))))
        report(created, verb: "Added", inv: inv)
        return 0
    }

    static func edit(_ inv: inout Invocation) throws -> Int32 {
        let contact = try ContactResolver.resolve(inv.arguments[0], in: inv)
        var changes: JSONObject = [:]
        if let name = inv.value("name") { changes["name"] = .string(name) }
        try fillSingle(&changes, from: inv)
        let cleared = Set(inv.values("clear"))
        // Lists: the options add to what the contact has, or take from it; --clear empties first.
        let name = contact["name"]?.stringValue ?? inv.arguments[0]
        for edit in ListEdit.all {
            let current = contact[edit.field]?.arrayValue ?? []
            if let list = try edit.apply(to: current, cleared: cleared.contains(edit.field), inv: inv, contactName: name) {
                changes[edit.field] = .array(list)
            }
        }
        for field in cleared where changes[field] == nil { changes[field] = .null }
        // No field given: the whole contact in the editor.
        guard !changes.isEmpty else { return try EditorSession.run(&inv, contact: contact) }
        let updated = try inv.call(
            ContactsUpdate(id: contact["id"]?.stringValue ?? "", changes: changes, ifRevision: contact["revision"]?.intValue))
        report(updated, verb: "Updated", inv: inv)
        return 0
    }

    /// The list options of `add`: each value given, as given.
    static func fill(_ o: inout JSONObject, from inv: Invocation) throws {
        for edit in ListEdit.all {
            let values = inv.values(edit.add)
            if !values.isEmpty { o[edit.field] = .array(try values.map(edit.read)) }
        }
        try fillSingle(&o, from: inv)
    }

    /// The options of one value, shared by `add` and `edit`: each replaces the old value.
    static func fillSingle(_ o: inout JSONObject, from inv: Invocation) throws {
        for f in FieldDeclaration.all where !f.isList {
            guard let option = f.option, let v = inv.value(option) else { continue }
            switch f.kind {
            case .text, .longText, .date: o[f.key] = .string(v)
            case .reading: o[f.key] = reading(v, name: o["name"]?.stringValue)
            default: break
            }
        }
        if let path = inv.value("note-file") {
            let text = String(decoding: try InputFile.read(path), as: UTF8.self)
            o["note"] = .string(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        }
    }

    /// The parts of a full name as most address books split it: the last word is the family
    /// name, the words before it the given name. Nil for one word, and for a name in CJK
    /// script or with a comma, which such a split gets wrong.
    static func structuredName(_ name: String) -> JSONValue? {
        let words = name.split(separator: " ").map(String.init)
        guard words.count >= 2, !name.contains(","),
            !name.unicodeScalars.contains(where: { (0x3040...0x9FFF).contains($0.value) || (0xAC00...0xD7AF).contains($0.value) })
        else { return nil }
        return ["given": .string(words.dropLast().joined(separator: " ")), "family": .string(words[words.count - 1])]
    }

    /// A reading as one line: two words are the given and family name's readings, in the
    /// order the name has them (a name of CJK characters is written family first).
    static func reading(_ raw: String, name: String?) -> JSONValue {
        let words = raw.split(separator: " ").map(String.init)
        guard words.count >= 2 else { return ["given": .string(raw), "middle": "", "family": ""] }
        let familyFirst =
            (name ?? "").unicodeScalars.first.map { (0x3040...0x9FFF).contains($0.value) || (0xAC00...0xD7AF).contains($0.value) } ?? false
        let (given, family) =
            familyFirst
            ? (words.dropFirst().joined(separator: " "), words[0]) : (words.dropLast().joined(separator: " "), words[words.count - 1])
        return ["given": .string(given), "middle": "", "family": .string(family)]
    }

    static func report(_ contact: JSONValue, verb: String, inv: Invocation) {
        if inv.json {
            inv.output.json(contact)
        } else {
            inv.output.line(
                "\(verb) \(inv.output.bold(contact["name"]?.stringValue ?? "")) \(inv.output.dim("(\(contact["id"]?.stringValue ?? ""))"))")
        }
    }

    static func remove(_ inv: inout Invocation) throws -> Int32 {
        let (ids, names) = try ContactResolver.resolveAll(inv.arguments, in: inv)
        let result = try inv.call(ContactsDelete(ids: ids.compactMap(\.stringValue)))
        if inv.json {
            inv.output.json(result)
        } else {
            for n in names { inv.output.line("Deleted \(inv.output.bold(n)) (it is in the trash: 'contactsctl undelete' brings it back)") }
        }
        return 0
    }

    static func favorite(_ inv: inout Invocation, _ on: Bool) throws -> Int32 {
        let c = try ContactResolver.resolve(inv.arguments[0], in: inv)
        let updated = try inv.call(ContactsSetFavorite(id: c["id"]?.stringValue ?? "", favorite: on))
        report(updated, verb: on ? "Favorite:" : "No longer a favorite:", inv: inv)
        return 0
    }

    static func status(_ inv: inout Invocation) throws -> Int32 {
        guard let s = try inv.callForPeople(DaemonStatus()) else { return 0 }
        let o = inv.output
        func row(_ label: String, _ value: String?) { o.line(o.dim(label.padding(11)) + (value ?? "-")) }
        row("version", s["version"]?.stringValue)
        row("contacts", s["contacts"].map { $0.description })
        row("groups", s["groups"].map { $0.description })
        row("socket", s["socket"]?.stringValue)
        row("data", s["dataDir"]?.stringValue)
        row("inbox", s["inbox"]?.stringValue)
        row(
            "region",
            s["defaultRegion"]?.stringValue.map { r in s["defaultRegionSource"]?.stringValue.map { "\(r) (from the \($0))" } ?? r }
                ?? "none (numbers without a country code are compared by their digits)")
        row("uptime", s["uptimeSeconds"]?.doubleValue.map(formatDuration))
        row("pid", s["pid"].map { $0.description })
        return 0
    }

    static func formatDuration(_ seconds: Double) -> String {
        let s = Int(seconds)
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m \(s % 60)s" }
        if s < 86400 { return "\(s / 3600)h \(s % 3600 / 60)m" }
        return "\(s / 86400)d \(s % 86400 / 3600)h"
    }

    static func rawCall(_ inv: inout Invocation) throws -> Int32 {
        var params = JSONObject()
        if inv.arguments.count > 1 {
            var text = inv.arguments[1]
            if text == "-" { text = try readStandardInput() }
            do {
                guard case .object(let o) = try JSONParser.parse(text) else {
                    throw UsageError(message: "the params must be a JSON object", command: "contactsctl call")
                }
                params = o
            } catch let e as JSONParseError {
                throw UsageError(message: "the params are not valid JSON: \(e)", command: "contactsctl call")
            }
        }
        inv.output.json(try inv.call(inv.arguments[0], params))
        return 0
    }

    static func readStandardInput() throws -> String {
        String(decoding: try PhotoCommands.readAll(0, "standard input"), as: UTF8.self)
    }
}

/// The readable view of one contact (`show`).
enum ContactView {
    static func render(_ c: JSONValue, output o: Output) {
        let star = c["favorite"]?.boolValue == true ? " " + o.accent("★") : ""
        o.line(o.bold(c["name"]?.stringValue ?? "") + star)
        let rows = rows(c, output: o)
        let width = (rows.map { $0.0.count }.max() ?? 0) + 2
        for (label, value) in rows {
            let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
            o.line("  " + o.dim(label.padding(width)) + (lines.first.map(String.init) ?? ""))
            for more in lines.dropFirst() { o.line(more.isEmpty ? "" : "  " + String(repeating: " ", count: width + 1) + more) }
        }
    }

    /// The rows under the name: each declared field as its declaration shows it, then the
    /// photo, the account, the id and when it changed.
    static func rows(_ c: JSONValue, output o: Output) -> [(String, String)] {
        var rows: [(String, String)] = []
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { rows.append((label, value)) }
        }
        func tagged(_ e: JSONValue, _ value: String) -> String {
            value + (e["label"]?.stringValue.map { " " + o.dim("(\($0))") } ?? "")
        }
        var workShown = false
        for f in FieldDeclaration.all {
            let v = c[f.key] ?? .null
            switch (f.shown, f.kind) {
            case (.apart, _): continue
            case (.work, _):
                // Title, department and organization on one row, as a signature has them.
                guard !workShown else { continue }
                workShown = true
                let work = FieldDeclaration.all.filter { $0.shown == .work }
                add("work", work.compactMap { c[$0.key]?.stringValue }.joined(separator: ", "))
            case (.row, .reading):
                add(f.label, ["given", "middle", "family"].compactMap { v[$0]?.stringValue }.filter { !$0.isEmpty }.joined(separator: " "))
            case (.row, .list):
                for e in v.arrayValue ?? [] { add(f.item, tagged(e, e["value"]?.stringValue ?? "")) }
            case (.row, .addresses):
                for a in v.arrayValue ?? [] {
                    let parts = ["poBox", "extended", "street", "locality", "region", "postalCode", "country"]
                    add(f.item, tagged(a, parts.compactMap { a[$0]?.stringValue }.filter { !$0.isEmpty }.joined(separator: ", ")))
                }
            case (.row, .groups): add(f.label, (v.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", "))
            case (.row, .flag): add(f.label, v.boolValue == true ? "yes" : nil)
            case (.row, .name), (.row, .nameParts), (.row, .text), (.row, .longText), (.row, .date): add(f.label, v.stringValue)
            }
        }
        if let p = c["photo"], p != .null {
            if let url = p["url"]?.stringValue {
                add("photo", url)
            } else {
                let kind = p["mimeType"]?.stringValue.flatMap { $0.split(separator: "/").last }.map { $0.uppercased() } ?? "image"
                let size = p["width"]?.intValue.flatMap { w in p["height"]?.intValue.map { " \(w)×\($0)" } } ?? ""
                add("photo", kind + size + " " + o.dim("(contactsctl photo get)"))
            }
        }
        add("account", c["account"]?.stringValue ?? o.dim("this machine only"))
        add("id", c["id"]?.stringValue)
        add("updated", c["updatedAt"]?.stringValue)
        return rows
    }
}
