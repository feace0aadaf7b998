import ContactsAPI
import ContactsCSV
import ContactsCore
import ContactsStore
import ContactsSupport
import JSONCore
import JSONRPC
import VCard

/// `contacts.import` and `contacts.export`.
enum ImportExportMethods {
    static let reportSchema: JSONValue = [
        "type": "object", "required": ["created", "updated", "unchanged", "failed", "errors"],
        "properties": [
            "created": Schemas.integer, "updated": Schemas.integer, "unchanged": Schemas.integer, "failed": Schemas.integer,
            "groups": Schemas.integer,
            "errors": [
                "type": "array",
                "items": [
                    "type": "object",
                    "properties": ["index": Schemas.integer, "line": ["type": ["integer", "null"]], "message": Schemas.string],
                ],
            ],
            "warnings": [
                "type": "array", "items": ["type": "object", "properties": ["line": Schemas.integer, "message": Schemas.string]],
            ],
        ],
    ]

    /// `importer` is the daemon's: RPC imports are logged and stopped by a shutdown as the
    /// drop folder's are.
    static func all(store: ContactStore, importer: Importer) -> [RPCMethod] {
        transfer(store: store, importer: importer) + safekeeping(store: store)
    }

    /// `contacts.backup` and `contacts.restore`.
    static func safekeeping(store: ContactStore) -> [RPCMethod] {
        @Sendable func pathError(_ e: ContactStore.PathError, _ path: String) -> RPCError {
            RPCError(.invalidData, e.description, data: ["path": .string(path)])
        }
        return [
            RPCMethod(
                ContactsAPI.Method.contactsBackup,
                summary: "Writes a consistent copy of the store to a file while the daemon keeps serving (SQLite online backup).",
                params: [
                    RPCParam(
                        "path", "An absolute path for the copy; an existing regular file there is replaced.", schema: Schemas.string,
                        required: true)
                ],
                result: "backup",
                resultSchema: [
                    "type": "object", "required": ["path", "contacts"],
                    "properties": ["path": Schemas.string, "contacts": Schemas.integer],
                ],
                errors: [RPCError(.invalidData, "The path cannot be written")]
            ) { call in
                let path = try call.params.string("path")
                do {
                    return ["path": .string(path), "contacts": .int(try store.backup(to: path))]
                } catch let e as ContactStore.PathError {
                    throw pathError(e, path)
                }
            },
            RPCMethod(
                ContactsAPI.Method.contactsRestore,
                summary: "Replaces every contact and group with the contents of a backup made by contacts.backup.",
                params: [RPCParam("path", "An absolute path to the backup.", schema: Schemas.string, required: true)],
                result: "restore",
                resultSchema: ["type": "object", "required": ["contacts"], "properties": ["contacts": Schemas.integer]],
                errors: [RPCError(.invalidData, "The file is not a contacts backup, or comes from a newer version")]
            ) { call in
                let path = try call.params.string("path")
                do {
                    return ["contacts": .int(try store.restore(from: path))]
                } catch let e as ContactStore.PathError {
                    throw pathError(e, path)
                }
            },
        ]
    }

    static func transfer(store: ContactStore, importer: Importer) -> [RPCMethod] {
        [
            RPCMethod(
                ContactsAPI.Method.contactsImport,
                summary:
                    "Imports contacts from vCard text (2.1, 3.0 or 4.0, any producer), a Google or Outlook CSV export, a JSON array of contacts, or a file. A UID already stored updates that contact; an identical card is unchanged; one bad card or row never stops the others.",
                params: [
                    RPCParam("vcard", "vCard text.", schema: Schemas.string),
                    RPCParam("csv", "A Google or Outlook contacts CSV export, as text.", schema: Schemas.string),
                    RPCParam("json", "Contacts in the API's shape.", schema: ["type": "array", "items": Schemas.ref("ContactInput")]),
                    RPCParam("path", "An absolute path to a .vcf, .csv or .json file.", schema: Schemas.string),
                ],
                result: "report", resultSchema: reportSchema,
                errors: [RPCError(.invalidData, "The input cannot be read"), RPCError(.tooLarge, "The file is too large")]
            ) { call in
                let given = ["vcard", "csv", "json", "path"].filter { call.params.has($0) }
                guard given.count == 1 else {
                    throw RPCError.invalidParams("give exactly one of 'vcard', 'csv', 'json' or 'path'")
                }
                let progress: (Int, Int) -> Void = { done, total in
                    call.session?.sendNotification(
                        method: ContactsAPI.Notification.importProgress, params: ["done": .int(done), "total": .int(total)])
                }
                if let text = try call.params.optionalString("vcard") {
                    return try importer.importVCard(Array(text.utf8), progress: progress).json
                }
                if let text = try call.params.optionalString("csv") { return try importer.importCSV(Array(text.utf8)).json }
                if let list = call.params["json"] {
                    guard let array = list.arrayValue else {
                        throw RPCError.invalidParams("'json' must be an array of contacts", field: "json")
                    }
                    return try importer.importJSON(array).json
                }
                let path = try call.params.string("path")
                let bytes: [UInt8]
                do {
                    bytes = try FileIO.readRegularFile(path, limit: Importer.maxFileBytes)
                } catch let e as FileIO.ReadError {
                    let code: RPCError.Code = e.isTooLarge ? .tooLarge : .invalidData
                    throw RPCError(code, e.description, data: ["path": .string(path)])
                }
                if path.lowercased().hasSuffix(".json") {
                    guard case .array(let array)? = try? JSONParser.parse(bytes) else {
                        throw RPCError(.invalidData, "\(path) is not a JSON array of contacts", data: ["path": .string(path)])
                    }
                    return try importer.importJSON(array).json
                }
                if Importer.isCSV(path) { return try importer.importCSV(bytes).json }
                return try importer.importVCard(bytes, progress: progress).json
            },
            RPCMethod(
                ContactsAPI.Method.contactsExport,
                summary:
                    "Exports contacts as vCard 3.0, vCard 4.0, JSON or CSV (Google's dialect): everyone, the given ids, or the matches of a query.",
                params: [
                    RPCParam(
                        "format", "vcard3, vcard4 (the default), json or csv.", schema: ["enum": ["vcard3", "vcard4", "json", "csv"]]),
                    RPCParam("ids", "Only these contacts.", schema: Schemas.stringArray),
                    RPCParam(
                        "query", "Only the matches of this contacts.query (text, favoritesOnly, group).",
                        schema: ["type": ["object", "string"]]),
                ],
                result: "export",
                resultSchema: [
                    "type": "object", "required": ["data", "count"], "properties": ["data": Schemas.string, "count": Schemas.integer],
                ],
                errors: [RPCError(.notFound, "No contact with one of the ids")]
            ) { call in
                let format = try call.params.optionalString("format") ?? "vcard4"
                guard ["vcard3", "vcard4", "json", "csv"].contains(format) else {
                    throw RPCError.invalidParams("'format' must be vcard3, vcard4, json or csv", field: "format")
                }
                var ids: [String]?
                if call.params.has("ids") { ids = try call.params.stringArray("ids") }
                let contacts: [Contact]
                if let q = call.params["query"] {
                    let query: ContactQuery
                    if let text = q.stringValue {
                        query = ContactQuery(text: text)
                    } else if let o = q.objectValue {
                        query = try ContactMethods.parseQuery(RPCParams(o))
                    } else {
                        throw RPCError.invalidParams("'query' must be an object or a string", field: "query")
                    }
                    let matching = try store.exportContacts(matching: query)
                    if let ids {
                        // Both: the given ids that match, in the order given.
                        let byID = Dictionary(matching.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
                        contacts = ids.compactMap { byID[$0] }
                    } else {
                        contacts = matching
                    }
                } else if ids == nil && format.hasPrefix("vcard") {
                    // Everyone as vCards: written while the rows are read.
                    let version: VCardWriter.Version = format == "vcard3" ? .v3 : .v4
                    let parts = try store.exportEach { contacts in
                        (text: vcards(contacts, version: version, store: store), count: contacts.count)
                    }
                    let count = parts.reduce(0) { $0 + $1.count }
                    defer { if count > 1000 { Memory.releaseSoon() } }
                    return ["data": .string(joined(parts.map(\.text))), "count": .int(count)]
                } else {
                    contacts = try store.exportContacts(ids: ids)
                }
                let data: String
                switch format {
                case "json": data = JSONWriter.string(.array(contacts.map(\.json)))
                case "csv": data = CSVExport.csv(contacts)
                default:
                    data = vcards(contacts, version: format == "vcard3" ? .v3 : .v4, store: store)
                }
                defer { if contacts.count > 1000 { Memory.releaseSoon() } }
                return ["data": .string(data), "count": .int(contacts.count)]
            },
        ]
    }

    /// The contacts as vCards, in order. Each card is independent of the others, so a large
    /// export writes its parts on all cores and joins them.
    static func vcards(_ contacts: [Contact], version: VCardWriter.Version, store: ContactStore) -> String {
        let parts = Parallel.chunks(contacts.count, minimum: 2000) { range in
            var text = ""
            for c in contacts[range] { VCardWriter.write(VCard(properties: store.cardProperties(for: c)), version: version, into: &text) }
            return text
        }
        return joined(parts)
    }

    /// The parts as one string, made in one allocation rather than one per doubling.
    static func joined(_ parts: [String]) -> String {
        var text = ""
        text.reserveCapacity(parts.reduce(0) { $0 + $1.utf8.count })
        for p in parts { text += p }
        return text
    }
}
