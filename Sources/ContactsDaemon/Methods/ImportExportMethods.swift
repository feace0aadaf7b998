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
            RPCMethod(ContactsBackup.self) { request, _ in
                do {
                    return ["path": .string(request.path), "contacts": .int(try store.backup(to: request.path))]
                } catch let e as ContactStore.PathError {
                    throw pathError(e, request.path)
                }
            },
            RPCMethod(ContactsRestore.self) { request, _ in
                do {
                    return ["contacts": .int(try store.restore(from: request.path))]
                } catch let e as ContactStore.PathError {
                    throw pathError(e, request.path)
                }
            },
        ]
    }

    /// `contacts.import`.
    static func transfer(store: ContactStore, importer: Importer) -> [RPCMethod] {
        [
            RPCMethod(ContactsImport.self) { request, call in
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
                let path: String
                switch request.source {
                case .vcard(let text):
                    let format = ImportFormat(of: Array(text.utf8.prefix(ImportFormat.sniffBytes)), name: "")
                    guard format == .vcard else {
                        throw RPCError(.invalidData, "'vcard' holds no vCard (no BEGIN:VCARD line)", data: ["field": "vcard"])
                    }
                    return try importer.importVCard(Array(text.utf8), progress: progress).json
                case .csv(let text): return try importer.importCSV(Array(text.utf8)).json
                case .json(let array): return try importer.importJSON(array).json
                case .path(let given): path = given
                }
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
