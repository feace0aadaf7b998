import ContactsAPI
import ContactsSupport
import JSONCore
import JSONRPC

/// Where an export's text goes as it is made: into a file the daemon writes (`path`: whole or
/// not at all), or into the reply, as one `data` string when the export is small and otherwise
/// as `export.chunk` notifications of about `chunkBytes` each ahead of a reply without `data`.
/// Either way a million contacts are never one string.
final class ExportOutput {
    static let chunkBytes = 1 << 20

    private let file: AtomicFile?
    private let session: RPCSession?
    private var pending = ""
    private var bytes = 0
    private var chunks = 0

    /// `session` nil (a call from inside the daemon): the reply holds everything.
    init(path: String?, session: RPCSession?) throws(SystemError) {
        file = try path.map { path throws(SystemError) in try AtomicFile(path) }
        self.session = session
    }

    func write(_ text: String) throws {
        guard !text.isEmpty else { return }
        bytes += text.utf8.count
        if let file {
            try file.write(text)
            return
        }
        pending += text
        if pending.utf8.count >= Self.chunkBytes, session != nil { try sendChunk() }
    }

    private func sendChunk() throws {
        guard let session else { return }
        let params: JSONValue = ["data": .string(pending), "index": .int(chunks)]
        pending = ""
        guard session.sendPart(method: ContactsAPI.Notification.exportChunk, params: params) else {
            throw RPCError(.unavailable, "the client closed the connection during the export")
        }
        chunks += 1
    }

    /// The reply once the last text is written: `{path, count, bytes}` for a file (synced and
    /// in place), `{count, bytes, chunks}` after chunks (the last one sent now), else
    /// `{data, count, bytes}`.
    func finish(count: Int) throws -> JSONValue {
        if let file {
            try file.commit()
            return ["path": .string(file.path), "count": .int(count), "bytes": .int(bytes)]
        }
        if chunks > 0 {
            if !pending.isEmpty { try sendChunk() }
            return ["count": .int(count), "bytes": .int(bytes), "chunks": .int(chunks)]
        }
        return ["data": .string(pending), "count": .int(count), "bytes": .int(bytes)]
    }

    /// Gives up: a file being written is removed and what was at its path stays.
    func abandon() { file?.discard() }
}
