import ContactsAPI
import ContactsSupport
import Foundation
import Glibc
import JSONCore
import JSONRPC

/// `import` and `export`.
enum TransferCommands {
    static func importFiles(_ inv: inout Invocation) throws -> Int32 {
        var anyFailed = false
        var reports: [JSONValue] = []
        for file in inv.arguments {
            let request: ContactsImport
            if file == "-" {
                let text = try ContactCommands.readStandardInput()
                let trimmed = text.drop { $0.isWhitespace }
                guard !trimmed.isEmpty else { throw CommandFailure("standard input is empty: nothing to import") }
                if trimmed.hasPrefix("[") {
                    guard case .array(let list) = try JSONParser.parse(text) else {
                        throw CommandFailure("standard input is not a JSON array of contacts")
                    }
                    request = ContactsImport(.json(list))
                } else if text.prefix(4096).range(of: "BEGIN:VCARD", options: .caseInsensitive) != nil {
                    request = ContactsImport(.vcard(text))
                } else {
                    // Neither JSON nor vCard: a CSV export, whose header tells its dialect.
                    request = ContactsImport(.csv(text))
                }
            } else {
                let absolute = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
                guard FileManager.default.fileExists(atPath: absolute) else { throw CommandFailure("\(file): no such file") }
                request = ContactsImport(.path(absolute))
            }
            let name = file == "-" ? "standard input" : file
            let bar = ProgressBar(label: name, enabled: isatty(2) != 0 && !inv.json)
            let client = try inv.client()
            client.onNotification = { n in
                guard n["method"]?.stringValue == ContactsAPI.Notification.importProgress, let p = n["params"] else { return }
                bar.update(done: p["done"]?.intValue ?? 0, total: p["total"]?.intValue ?? 0)
            }
            InterruptNotice.install(
                "interrupted: contactsd cancels the import of \(name) and keeps nothing of it"
                    + (reports.isEmpty ? "" : " (the files before it were imported)"))
            defer { InterruptNotice.clear() }
            let report: JSONValue
            do {
                report = try inv.call(request)
            } catch let e as RPCError where e.code == .invalidData || e.code == .tooLarge {
                // This file cannot be read as contacts: said, and the next one is imported.
                bar.finish()
                anyFailed = true
                reports.append(["file": .string(name), "error": .string(e.message)])
                inv.output.error(e.message)
                continue
            }
            bar.finish()
            reports.append(["file": .string(name), "report": report])
            let failed = report["failed"]?.intValue ?? 0
            if failed > 0 { anyFailed = true }
            guard !inv.json else { continue }
            let counts = ["created", "updated", "unchanged", "failed"].map { "\(report[$0]?.intValue ?? 0) \($0)" }.joined(separator: ", ")
            inv.output.line("\(name): \(counts)")
            let isCSV = if case .csv = request.source { true } else { false }
            let item = isCSV || file.lowercased().hasSuffix(".csv") ? "row" : "card"
            for e in report["errors"]?.arrayValue ?? [] {
                let number = (e["index"]?.intValue ?? 0) + 1
                let line = e["line"]?.intValue.map { ", line \($0)" } ?? ""
                inv.output.line("  \(item) \(number)\(line): \(e["message"]?.stringValue ?? "")")
            }
        }
        if inv.json { inv.output.json(.array(reports)) }
        if anyFailed {
            inv.output.flush()
            throw CommandFailure("some contacts or files were not imported (see above)")
        }
        return 0
    }

    static func export(_ inv: inout Invocation) throws -> Int32 {
        let name = inv.value("format") ?? ContactsExport.Format.vcard4.rawValue
        guard let format = ContactsExport.Format(rawValue: name) else {
            throw CommandFailure("--format takes vcard3, vcard4, json, csv or ics, not \(name)", status: 64)
        }
        var request = ContactsExport(format: format)
        if !inv.arguments.isEmpty {
            var ids: [String] = []
            for ref in inv.arguments { ids.append(try ContactResolver.resolve(ref, in: inv)["id"]?.stringValue ?? "") }
            request.ids = ids
        }
        let filter = ContactFilter(
            text: inv.value("query"), favoritesOnly: inv.flag("favorites"), group: inv.value("group"),
            account: SyncCommands.account(inv.value("account")))
        if filter != ContactFilter() { request.query = ContactsQuery(filter: filter) }
        // The daemon writes a named file itself; to standard output the export streams, each
        // chunk written as it comes, so that neither side holds all of it.
        let output = inv.value("output").flatMap { $0 == "-" ? nil : $0 }
        request.path = output.map(absolute)
        let client = try inv.client()
        let out = inv.output
        client.onNotification = { n in
            guard n["method"]?.stringValue == ContactsAPI.Notification.exportChunk else { return }
            out.write(n["params"]?["data"]?.stringValue ?? "")
        }
        defer { client.onNotification = nil }
        let result = try client.call(request)
        guard let output else {
            inv.output.write(result["data"]?.stringValue ?? "")
            return 0
        }
        if inv.output.isTerminal || inv.json {
            let count = result["count"]?.intValue ?? 0
            if inv.json {
                inv.output.json(["file": .string(output), "count": .int(count), "bytes": result["bytes"] ?? .null])
            } else {
                inv.output.line("Exported \(count) contacts to \(output)")
            }
        }
        return 0
    }

    static func absolute(_ file: String) -> String {
        file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
    }

    static func backup(_ inv: inout Invocation) throws -> Int32 {
        let r = try inv.call(ContactsBackup(path: absolute(inv.arguments[0])))
        if inv.json {
            inv.output.json(r)
        } else {
            inv.output.line("Backed up \(r["contacts"]?.intValue ?? 0) contacts to \(inv.arguments[0])")
        }
        return 0
    }

    static func restore(_ inv: inout Invocation) throws -> Int32 {
        if !inv.flag("yes") {
            guard isatty(0) != 0 else {
                throw UsageError(message: "restore replaces every contact: confirm with --yes", command: "contactsctl restore")
            }
            inv.output.write(
                "Replace every contact with those in \(inv.arguments[0])? (The store now is kept aside; 'undo' puts it back.) [y/N] ")
            inv.output.flush()
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else { return 1 }
        }
        let r = try inv.call(ContactsRestore(path: absolute(inv.arguments[0])))
        if inv.json {
            inv.output.json(r)
        } else {
            inv.output.line(
                "Restored \(r["contacts"]?.intValue ?? 0) contacts from \(inv.arguments[0]);"
                    + " 'contactsctl undo' puts back the store as it was before")
        }
        return 0
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        do {
            try FileIO.writeAtomically(path, bytes)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

/// A one-line progress bar on standard error, redrawn in place; silent off a terminal.
final class ProgressBar {
    let label: String
    let enabled: Bool
    private var drawn = false

    init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled
    }

    /// Redraws the bar; with no total yet (an answer still being read), the count alone.
    func update(done: Int, total: Int, label: String? = nil) {
        guard enabled else { return }
        let name = label ?? self.label
        let line: String
        if total > 0 {
            let width = 30
            let filled = min(width, done * width / total)
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            line = "\r\u{1B}[K\(name) [\(bar)] \(done * 100 / total)% (\(done)/\(total))"
        } else {
            line = "\r\u{1B}[K\(name) \(done)"
        }
        _ = line.withCString { write(2, $0, strlen($0)) }
        drawn = true
    }

    func finish() {
        guard drawn else { return }
        let clear = "\r\u{1B}[K"
        _ = clear.withCString { write(2, $0, strlen($0)) }
    }
}
