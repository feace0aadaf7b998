import ContactsAPI
import JSONCore

/// A contact's history: `history ID`, `revert ID REVISION`.
enum HistoryCommands {
    static func history(_ inv: inout Invocation) throws -> Int32 {
        let id = try contactID(inv.arguments[0], inv: inv)
        guard let result = try inv.callForPeople(ContactsHistory(id: id)) else { return 0 }
        var table = Table(headers: ["REV", "WHEN", "CHANGE", "BY", "FIELDS"], shrinkable: [4, 3])
        for e in result["entries"]?.arrayValue ?? [] {
            let when = e["at"]?.stringValue.map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? ""
            let fields = (e["fields"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
            table.add([
                e["revision"]?.intValue.map(String.init) ?? "", when, e["change"]?.stringValue ?? "", e["origin"]?.stringValue ?? "",
                fields,
            ])
        }
        for line in table.render(width: inv.output.width, header: inv.output.bold) { inv.output.line(line) }
        return 0
    }

    static func revert(_ inv: inout Invocation) throws -> Int32 {
        let contact = try ContactResolver.resolve(inv.arguments[0], in: inv)
        guard let revision = Int(inv.arguments[1]) else {
            throw UsageError(message: "REVISION must be a whole number, not '\(inv.arguments[1])'", command: "contactsctl revert")
        }
        guard revision > 0 else {
            throw UsageError(
                message: "REVISION counts from 1 (the contact as it was made); 'contactsctl history' lists them",
                command: "contactsctl revert")
        }
        let reverted = try inv.call(
            ContactsRevert(id: contact["id"]?.stringValue ?? "", revision: revision, ifRevision: contact["revision"]?.intValue))
        if inv.json {
            inv.output.json(reverted)
        } else {
            inv.output.line(
                "\(inv.output.bold(reverted["name"]?.stringValue ?? "")) is as it was at revision \(revision) again (now revision \(reverted["revision"]?.intValue ?? 0))"
            )
        }
        return 0
    }

    static func changes(_ inv: inout Invocation) throws -> Int32 {
        guard let result = try inv.callForPeople(ChangesList()) else { return 0 }
        var table = Table(headers: ["ID", "WHEN", "BY", "WHAT"], shrinkable: [3, 2])
        for o in result["operations"]?.arrayValue ?? [] {
            let when = o["at"]?.stringValue.map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? ""
            table.add([String(o["id"]?.intValue ?? 0), when, o["origin"]?.stringValue ?? "", o["summary"]?.stringValue ?? ""])
        }
        for line in table.render(width: inv.output.width, header: inv.output.bold) { inv.output.line(line) }
        return 0
    }

    static func undo(_ inv: inout Invocation) throws -> Int32 {
        var request = ChangesUndo(force: inv.flag("force"))
        if let arg = inv.arguments.first {
            guard let id = Int64(arg), id > 0 else {
                throw UsageError(
                    message: "OPERATION must be a number from 'contactsctl changes', not '\(arg)'", command: "contactsctl undo")
            }
            request.operation = id
        }
        let result = try inv.call(request)
        report(result, verb: "Undid", then: "'contactsctl redo' does it again", inv: inv)
        return 0
    }

    static func redo(_ inv: inout Invocation) throws -> Int32 {
        let result = try inv.call(ChangesRedo(force: inv.flag("force")))
        report(result, verb: "Redid", then: "'contactsctl undo' takes it back", inv: inv)
        return 0
    }

    private static func report(_ result: JSONValue, verb: String, then: String, inv: Invocation) {
        if inv.json {
            inv.output.json(result)
        } else {
            let o = result["operation"]
            inv.output.line(
                "\(verb) operation \(o?["id"]?.intValue ?? 0) (\(o?["origin"]?.stringValue ?? ""): \(o?["summary"]?.stringValue ?? "")); "
                    + then)
        }
    }

    /// A contact's id from what was typed: one in the store, else one in the trash.
    private static func contactID(_ reference: String, inv: Invocation) throws -> String {
        do {
            return try ContactResolver.resolve(reference, in: inv)["id"]?.stringValue ?? reference
        } catch let e as CommandFailure {
            guard let trashed = try? TrashCommands.resolve(reference, in: inv) else { throw e }
            return trashed.id
        }
    }
}
