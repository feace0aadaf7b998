import ContactsAPI
import Foundation
import JSONCore

/// Duplicates: `duplicates`, `merge`, `not-duplicates`.
enum DuplicateCommands {
    static func list(_ inv: inout Invocation) throws -> Int32 {
        var request = ContactsDuplicates()
        if let limit = inv.value("limit") { request.limit = try positive(limit, option: "--limit", command: "duplicates") }
        if let raw = inv.value("min-score") {
            guard let score = Double(raw), ContactsDuplicates.scores.contains(score) else {
                throw UsageError(message: "--min-score takes a number from 0 to 1, not '\(raw)'", command: "contactsctl duplicates")
            }
            request.minScore = score
        }
        if inv.flag("collected") { request.collected = .include }
        guard let result = try inv.callForPeople(request) else { return 0 }
        let groups = result["groups"]?.arrayValue ?? []
        guard !groups.isEmpty else {
            inv.output.line("No duplicates found.")
            return 0
        }
        // One row a contact; the group's number, score and shared values on its first row.
        var table = Table(headers: ["#", "SCORE", "NAME", "ID", "SHARED"], shrinkable: [4, 2])
        for (k, g) in groups.enumerated() {
            let ids = (g["ids"]?.arrayValue ?? []).compactMap(\.stringValue)
            let names = (g["names"]?.arrayValue ?? []).compactMap(\.stringValue)
            let shared = sharedValues(g)
            for (i, id) in ids.enumerated() {
                let first = i == 0
                table.add([
                    first ? String(k + 1) : "", first ? String(format: "%.2f", g["score"]?.doubleValue ?? 0) : "",
                    i < names.count ? names[i] : "", id, first ? shared : "",
                ])
            }
        }
        for line in table.render(width: inv.output.width, header: inv.output.bold) { inv.output.line(line) }
        let identical = groups.filter { $0["identical"]?.boolValue == true }.count
        inv.output.line(
            inv.output.dim(
                "\(groups.count) group\(groups.count == 1 ? "" : "s")"
                    + (identical > 0 ? "; \(identical) identical once normalised ('contactsctl merge --auto' merges those)" : "")
                    + "; 'contactsctl merge ID ID...' merges, 'contactsctl not-duplicates ID ID...' dismisses"))
        return 0
    }

    /// What a group's contacts share, as a person reads it: "email a@b.c, phone +49…, same name".
    static func sharedValues(_ group: JSONValue) -> String {
        (group["reasons"]?.arrayValue ?? []).compactMap(\.stringValue).map { r in
            switch r {
            case "name": return "same name"
            default: return r
            }
        }.joined(separator: ", ")
    }

    static func merge(_ inv: inout Invocation) throws -> Int32 {
        if inv.flag("auto") {
            guard inv.arguments.isEmpty, inv.value("into") == nil else {
                throw UsageError(
                    message: "--auto merges the identical groups it finds: give no ids and no --into", command: "contactsctl merge")
            }
            return try mergeIdentical(&inv)
        }
        guard inv.arguments.count >= 2 else {
            throw UsageError(message: "give two contacts or more to merge, or --auto", command: "contactsctl merge")
        }
        let ids = try ContactResolver.resolveAll(inv.arguments, in: inv).ids
        let dryRun = inv.flag("dry-run")
        var request = ContactsMerge(ids: ids.compactMap(\.stringValue), dryRun: dryRun)
        if let into = inv.value("into") { request.into = try ContactResolver.resolve(into, in: inv)["id"]?.stringValue }
        let merged = try inv.call(request)
        if inv.json {
            inv.output.json(merged)
        } else if dryRun {
            inv.output.line(inv.output.dim("The merged contact would be (nothing was changed):"))
            ContactView.render(merged, output: inv.output)
        } else {
            inv.output.line(
                "Merged \(ids.count) contacts into \(inv.output.bold(merged["name"]?.stringValue ?? "")) "
                    + inv.output.dim("(\(merged["id"]?.stringValue ?? "")); the others are in the trash, 'contactsctl undo' takes it back"))
        }
        return 0
    }

    /// `merge --auto`: every group whose contacts are the same once normalised.
    private static func mergeIdentical(_ inv: inout Invocation) throws -> Int32 {
        let dryRun = inv.flag("dry-run")
        let groups = (try inv.call(ContactsDuplicates())["groups"]?.arrayValue ?? []).filter {
            $0["identical"]?.boolValue == true
        }
        var merged: [JSONValue] = []
        for g in groups {
            let contact = try inv.call(ContactsMerge(ids: (g["ids"]?.arrayValue ?? []).compactMap(\.stringValue), dryRun: dryRun))
            merged.append(contact)
            if !inv.json {
                let count = g["ids"]?.arrayValue?.count ?? 0
                inv.output.line(
                    "\(dryRun ? "Would merge" : "Merged") \(count) copies of \(inv.output.bold(contact["name"]?.stringValue ?? "")) "
                        + inv.output.dim("(\(contact["id"]?.stringValue ?? ""))"))
            }
        }
        if inv.json {
            inv.output.json(["merged": .array(merged), "dryRun": .bool(dryRun)])
        } else if merged.isEmpty {
            inv.output.line("No identical duplicates; 'contactsctl duplicates' lists the likely ones to merge by hand.")
        } else if !dryRun {
            inv.output.line(
                inv.output.dim("Each merge is one operation: 'contactsctl changes' lists them, 'contactsctl undo ID' takes one back."))
        }
        return 0
    }

    static func notDuplicates(_ inv: inout Invocation) throws -> Int32 {
        guard inv.arguments.count >= 2 else {
            throw UsageError(message: "give two contacts or more that are different people", command: "contactsctl not-duplicates")
        }
        let (ids, names) = try ContactResolver.resolveAll(inv.arguments, in: inv)
        let result = try inv.call(ContactsNotDuplicates(ids: ids.compactMap(\.stringValue)))
        if inv.json {
            inv.output.json(result)
        } else {
            inv.output.line("Noted: \(names.map { inv.output.bold($0) }.joined(separator: ", ")) are different people")
        }
        return 0
    }

    private static func positive(_ raw: String, option: String, command: String) throws -> Int {
        guard let n = Int(raw), n > 0 else {
            throw UsageError(message: "\(option) takes a whole number above 0, not '\(raw)'", command: "contactsctl \(command)")
        }
        return n
    }
}
