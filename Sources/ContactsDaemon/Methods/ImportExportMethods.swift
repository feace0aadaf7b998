import ContactsAPI
import ContactsCSV
import ContactsCore
import ContactsStore
import ContactsSupport
import JSONCore
import JSONRPC
import VCard

/// `contacts.import`, `contacts.backup` and `contacts.restore` (and `contacts.export`, its own file).
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
        transfer(store: store, importer: importer) + [ExportMethod.method(store: store)] + safekeeping(store: store)
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
                summary:
                    "Replaces every contact and group with the contents of a backup made by contacts.backup. The store it replaces is kept aside; the restore is an operation, which changes.undo takes back.",
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

    /// `contacts.import`.
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
                // A client that leaves (Ctrl-C) cancels its import, which then keeps nothing.
                let log = importer.log
                let watch = ClientWatch(call.session) { log?.info("import: cancelled, its client left; nothing of it is kept") }
                var importer = importer
                let shutdown = importer.isCancelled
                importer.isCancelled = { shutdown?() == true || watch.hasGone }
                let progress: (Int, Int) -> Void = { done, total in
                    call.session?.sendNotification(
                        method: ContactsAPI.Notification.importProgress, params: ["done": .int(done), "total": .int(total)])
                }
                if let text = try call.params.optionalString("vcard") {
                    let format = ImportFormat(of: Array(text.utf8.prefix(ImportFormat.sniffBytes)), name: "")
                    guard format == .vcard else {
                        throw RPCError(.invalidData, "'vcard' holds no vCard (no BEGIN:VCARD line)", data: ["field": "vcard"])
                    }
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
                let format = ImportFormat(of: bytes, name: path)
                // The history says which file it was, as it does for the drop folder.
                let origin = "import:" + (path.split(separator: "/").last.map(String.init) ?? path)
                switch format {
                case .json:
                    guard case .array(let array)? = try? JSONParser.parse(bytes) else {
                        throw RPCError(.invalidData, "\(path) is not a JSON array of contacts", data: ["path": .string(path)])
                    }
                    return try importer.importJSON(array, origin: origin).json
                case .csv: return try importer.importCSV(bytes, origin: origin).json
                case .vcard: return try importer.importVCard(bytes, origin: origin, progress: progress).json
                case .empty, .unknown:
                    throw RPCError(.invalidData, "\(path): \(format.nothingToImport ?? "")", data: ["path": .string(path)])
                }
            }
        ]
    }
}
