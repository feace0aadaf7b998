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
        RPCMethod(ContactsExport.self) { request, call in
            let path = request.path
            if let path {
                do {
                    try ContactStore.checkTarget(path)
                } catch let e as ContactStore.PathError {
                    throw RPCError(.invalidData, e.description, data: ["path": .string(path)])
                }
            }
            let chosen = try chosenContacts(request, store: store)
            let output: ExportOutput
            do {
                output = try ExportOutput(path: path, session: call.session)
            } catch let e as SystemError {
                throw RPCError(.invalidData, e.description, data: path.map { ["path": .string($0)] })
            }
            do {
                let count = try write(chosen, as: request.format, to: output, store: store)
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
    static func chosenContacts(_ request: ContactsExport, store: ContactStore) throws -> [Contact]? {
        let ids = request.ids
        guard let q = request.query else { return try ids.map { try store.exportContacts(ids: $0) } }
        var query = ContactMethods.query(q.filter, sort: q.sort)
        (query.limit, query.offset) = (q.limit, q.offset)
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
