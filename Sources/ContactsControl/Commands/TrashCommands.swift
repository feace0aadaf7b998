import ContactsAPI
import ContactsSupport
import Foundation
import Glibc
import JSONCore

/// The trash: `trash [TEXT]`, `trash empty`, `undelete`, `purge`.
enum TrashCommands {
    static func list(_ inv: inout Invocation) throws -> Int32 {
        guard let result = try inv.callForPeople(ContactsTrash(text: inv.arguments.first)) else { return 0 }
        let contacts = result["contacts"]?.arrayValue ?? []
        if !contacts.isEmpty {
            var table = Table(headers: ["NAME", "DELETED", "ID"], shrinkable: [0])
            for c in contacts {
                let when = c["deletedAt"]?.stringValue.map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? ""
                table.add([c["name"]?.stringValue ?? "", when, c["id"]?.stringValue ?? ""])
            }
            for line in table.render(width: inv.output.width, header: inv.output.bold) { inv.output.line(line) }
        } else if inv.output.isTerminal {
            inv.output.line(
                inv.output.dim(inv.arguments.isEmpty ? "The trash is empty." : "Nothing in the trash matches '\(inv.arguments[0])'."))
        }
        return 0
    }

    static func undelete(_ inv: inout Invocation) throws -> Int32 {
        let found = try inv.arguments.map { try resolve($0, in: inv) }
        let result = try inv.call(ContactsUndelete(ids: found.map(\.id)))
        if inv.json {
            inv.output.json(result)
        } else {
            for c in found { inv.output.line("Restored \(inv.output.bold(c.name))") }
        }
        return 0
    }

    static func purge(_ inv: inout Invocation) throws -> Int32 {
        let found = try inv.arguments.map { try resolve($0, in: inv) }
        let what = found.count == 1 ? found[0].name : "\(found.count) contacts"
        try confirm("Remove \(what) for good? This cannot be undone.", inv: inv)
        let result = try inv.call(ContactsPurge(ids: found.map(\.id)))
        report(result, inv: inv)
        return 0
    }

    static func empty(_ inv: inout Invocation) throws -> Int32 {
        let total = try inv.call(ContactsTrash(limit: 0))["total"]?.intValue ?? 0
        guard total > 0 else {
            if inv.json { inv.output.json(["purged": 0]) } else { inv.output.line("The trash is empty.") }
            return 0
        }
        try confirm("Remove the \(total) contacts in the trash for good? This cannot be undone.", inv: inv)
        report(try inv.call(ContactsPurge(ids: nil)), inv: inv)
        return 0
    }

    private static func report(_ result: JSONValue, inv: Invocation) {
        if inv.json {
            inv.output.json(result)
        } else {
            let n = result["purged"]?.intValue ?? 0
            inv.output.line("Purged \(n) contact\(n == 1 ? "" : "s")")
        }
    }

    /// Goes on with `--yes`, or when a person at a terminal says so; refuses otherwise.
    private static func confirm(_ question: String, inv: Invocation) throws {
        if inv.flag("yes") { return }
        guard isatty(0) != 0 else {
            throw CommandFailure("\(question)\nGive --yes to go on without being asked.", status: 64)
        }
        inv.output.write("\(question) [y/N] ")
        inv.output.flush()
        let answer = readLine()?.trimmingWhitespace().lowercased() ?? ""
        guard answer == "y" || answer == "yes" else { throw CommandFailure("Nothing was removed.") }
    }

    /// A contact in the trash from what a person typed: its id, or a name or part of one that
    /// matches exactly one deleted contact.
    static func resolve(_ reference: String, in inv: Invocation) throws -> (id: String, name: String) {
        // An id is looked for among all of the trash; anything else is searched for in it.
        let isID = ContactResolver.looksLikeID(reference)
        let request = isID ? ContactsTrash() : ContactsTrash(text: reference, limit: 50)
        let found = (try inv.call(request)["contacts"]?.arrayValue ?? []).compactMap {
            c -> (id: String, name: String)? in
            guard let id = c["id"]?.stringValue else { return nil }
            return (id, c["name"]?.stringValue ?? "")
        }
        if isID, let c = found.first(where: { $0.id.uppercased() == reference.uppercased() }) { return c }
        let matches = isID ? [] : found
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw CommandFailure("nothing in the trash matches '\(reference)'") }
        let exact = matches.filter { ContactResolver.folded($0.name) == ContactResolver.folded(reference) }
        if exact.count == 1 { return exact[0] }
        let names = matches.prefix(5).map(\.name).joined(separator: ", ")
        throw CommandFailure("'\(reference)' matches \(matches.count) contacts in the trash (\(names)); be more specific or use the id")
    }
}
