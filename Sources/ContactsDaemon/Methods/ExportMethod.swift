import ContactsAPI
import ContactsCSV
import ContactsCore
import ContactsStore
import ContactsSupport
import JSONCore
import JSONRPC

/// `contacts.export`: everyone, the given ids or a query's matches as vCard 3.0 or 4.0, JSON or
/// CSV, written block by block into a file (`path`) or into the reply (`ExportOutput`).
enum ExportMethod {
    static func method(store: ContactStore) -> RPCMethod {
        RPCMethod(
            ContactsAPI.Method.contactsExport,
            summary:
                "Exports contacts as vCard 3.0, vCard 4.0, JSON, CSV (Google's dialect) or their birthdays and dates as an iCalendar file of yearly events (ics): everyone, the given ids, or the matches of a query. With path, the daemon writes the file (whole or not at all, mode 0600); without it, an export over 1 MiB arrives as export.chunk notifications {data, index} before a reply without data.",
            params: [
                RPCParam(
                    "format", "vcard3, vcard4 (the default), json, csv or ics.",
                    schema: ["enum": .array(ExportFormat.allCases.map { .string($0.rawValue) })]),
                RPCParam("ids", "Only these contacts.", schema: Schemas.stringArray),
                RPCParam(
                    "query", "Only the matches of this contacts.query (text, favoritesOnly, group, account).",
                    schema: ["type": ["object", "string"]]),
                RPCParam(
                    "path",
                    "An absolute path for the daemon to write the export to (a temporary file beside it, synced and renamed; an existing regular file is replaced, a symlink, directory or device is refused).",
                    schema: Schemas.string),
            ],
            result: "export",
            resultSchema: [
                "type": "object", "required": ["count"],
                "properties": [
                    "data": Schemas.string, "path": Schemas.string, "count": Schemas.integer, "bytes": Schemas.integer,
                    "chunks": Schemas.integer,
                ],
            ],
            errors: [
                RPCError(.notFound, "No contact with one of the ids"),
                RPCError(.invalidData, "The path cannot be written (not absolute, a symlink or directory, no such directory, a full disk)"),
            ]
        ) { call in
            let name = try call.params.optionalString("format") ?? "vcard4"
            guard let format = ExportFormat(rawValue: name) else {
                throw RPCError.invalidParams("'format' must be vcard3, vcard4, json, csv or ics", field: "format")
            }
            let path = try call.params.optionalString("path")
            if let path {
                do {
                    try ContactStore.checkTarget(path)
                } catch let e as ContactStore.PathError {
                    throw RPCError(.invalidData, e.description, data: ["path": .string(path)])
                }
            }
            let chosen = try chosenContacts(call.params, store: store)
            let output: ExportOutput
            do {
                output = try ExportOutput(path: path, session: call.session)
            } catch let e as SystemError {
                throw RPCError(.invalidData, e.description, data: path.map { ["path": .string($0)] })
            }
            do {
                let count = try write(chosen, as: format, to: output, store: store)
                defer { if count > 1000 { Memory.releaseSoon() } }
                return try output.finish(count: count)
            } catch let e as SystemError {
                output.abandon()
                throw RPCError(.invalidData, e.description, data: path.map { ["path": .string($0)] })
            } catch {
                output.abandon()
                throw error
            }
        }
    }

    /// The contacts asked for by `ids` and `query` (both: the given ids that match, in the
    /// order given); nil for everyone.
    static func chosenContacts(_ params: RPCParams, store: ContactStore) throws -> [Contact]? {
        var ids: [String]?
        if params.has("ids") { ids = try params.stringArray("ids") }
        guard let q = params["query"] else { return try ids.map { try store.exportContacts(ids: $0) } }
        let query: ContactQuery
        if let text = q.stringValue {
            query = ContactQuery(text: text)
        } else if let o = q.objectValue {
            query = try ContactMethods.parseQuery(RPCParams(o))
        } else {
            throw RPCError.invalidParams("'query' must be an object or a string", field: "query")
        }
        let matching = try store.exportContacts(matching: query)
        guard let ids else { return matching }
        let byID = Dictionary(matching.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return ids.compactMap { byID[$0] }
    }

    /// Writes the contacts (nil: everyone, read from one snapshot block by block) and returns
    /// how many there were.
    static func write(_ chosen: [Contact]?, as format: ExportFormat, to output: ExportOutput, store: ContactStore) throws -> Int {
        var first = true
        func put(_ text: String) throws {
            guard !text.isEmpty else { return }
            if !first { try output.write(format.separator) }
            first = false
            try output.write(text)
        }
        if let chosen {
            let columns = format == .csv ? CSVExport.Columns(chosen) : CSVExport.Columns()
            try output.write(format.opening(columns))
            let blocks = stride(from: 0, to: chosen.count, by: 1000).map { chosen[$0..<min($0 + 1000, chosen.count)] }
            for texts in Parallel.chunks(
                blocks.count, minimum: 2, { r in blocks[r].map { format.text(Array($0), columns: columns, store: store) } })
            {
                for text in texts { try put(text) }
            }
            try output.write(format.closing)
            return chosen.count
        }
        return try store.exportSnapshot { snapshot in
            var columns = CSVExport.Columns()
            if format == .csv { try snapshot.each({ CSVExport.Columns($0) }, consume: { columns.widen(to: $0) }) }
            try output.write(format.opening(columns))
            let count = try snapshot.each({ [columns] in format.text($0, columns: columns, store: store) }, consume: put)
            try output.write(format.closing)
            return count
        }
    }
}
