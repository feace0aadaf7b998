import ContactsCore
import ContactsSupport
import Foundation
import Glibc

/// Photo files named by their content: `photos/ab/<sha256 hex>` beside the database. A photo
/// is written once, however many contacts share it: to a temporary file that is synced and
/// renamed into place, then the directory is synced. The store decides when one is no longer
/// referenced; every change here happens under its write lock.
struct PhotoStore {
    let root: String

    func path(_ hash: String) -> String? {
        guard let hex = ContentAddress.hex(of: hash) else { return nil }
        return "\(root)/\(hex.prefix(2))/\(hex)"
    }

    /// Writes the bytes unless a complete copy is already there. With `sync` false the file
    /// is renamed into place unsynced; `syncAll()` must then run before anything refers to it.
    /// Returns whether a file was written.
    @discardableResult
    func put(_ hash: String, _ bytes: [UInt8], sync: Bool = true) throws(SystemError) -> Bool {
        guard let path = path(hash) else { throw SystemError("open", errno: EINVAL, detail: "photo '\(hash)'") }
        var st = stat()
        // A crash before a sync can leave a short file under the final name: only a full one counts.
        if stat(path, &st) == 0, Int(st.st_size) == bytes.count { return false }
        let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? root
        for d in [root, dir] where mkdir(d, 0o700) != 0 && errno != EEXIST {
            throw SystemError("mkdir", detail: d)
        }
        try FileIO.writeAtomically(path, bytes, sync: sync)
        if sync {
            try FileIO.syncDirectory(dir)
            try FileIO.syncDirectory(root)
        }
        return true
    }

    /// Flushes every file written unsynced (one `syncfs` for the whole batch).
    func syncAll() throws(SystemError) { try FileIO.syncFileSystem(of: root) }

    func read(_ hash: String) -> [UInt8]? {
        guard let path = path(hash) else { return nil }
        return try? FileIO.readRegularFile(path, limit: .max)
    }

    func contains(_ hash: String) -> Bool {
        guard let path = path(hash) else { return false }
        return access(path, F_OK) == 0
    }

    func remove(_ hash: String) {
        guard let path = path(hash) else { return }
        unlink(path)
    }

    /// Every stored content address, and temporary files a crash left behind.
    func inventory() -> (hashes: [String], leftovers: [String]) {
        var hashes: [String] = []
        var leftovers: [String] = []
        for sub in Self.list(root) where sub.utf8.count == 2 {
            for name in Self.list(root + "/" + sub) {
                if name.utf8.count == 64 && name.hasPrefix(sub) {
                    hashes.append(ContentAddress.prefix + name)
                } else if name.contains(".tmp-") {
                    leftovers.append(root + "/" + sub + "/" + name)
                }
            }
        }
        return (hashes, leftovers)
    }

    static func list(_ dir: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    }
}

/// Flushes the photo files a long write puts down unsynced, in the background while the write
/// goes on, so that the flush its commit must wait for finds little left to do. (That last
/// flush also carries whatever else the file system holds unwritten, such as the file being
/// imported, just copied into the inbox: the one before it already did.)
final class PhotoFlusher: @unchecked Sendable {
    private let photos: PhotoStore
    private let running = DispatchGroup()
    /// Whether a flush runs, when the last began, whether any file was written, and the first
    /// failure to flush.
    private struct State {
        var busy = false
        var lastStart: Int64 = 0
        var wrote = false
        var failure: SystemError?
    }
    private let state = Locked(State())
    /// Flushes start at most this often.
    static let intervalMillis: Int64 = 250

    init(_ photos: PhotoStore) { self.photos = photos }

    /// Flushes wait on the disk: on a thread of their own, not the worker pool's.
    private let flushing = TaskQueue(label: "photo-flush")

    /// A photo file was written unsynced.
    func wroteFile() {
        let start = state.withLock { s in
            s.wrote = true
            let now = Timestamp.monotonicMillis()
            guard !s.busy, now - s.lastStart >= Self.intervalMillis else { return false }
            s.busy = true
            s.lastStart = now
            return true
        }
        guard start else { return }
        running.enter()
        flushing.async { [self] in
            var failed: SystemError?
            do throws(SystemError) { try photos.syncAll() } catch { failed = error }
            state.withLock { s in
                if s.failure == nil { s.failure = failed }
                s.busy = false
            }
            running.leave()
        }
    }

    /// Every file written so far is on disk when this returns; the first failure to flush
    /// one is thrown.
    func finish() throws(SystemError) {
        running.wait()
        let (wrote, failure) = state.withLock { ($0.wrote, $0.failure) }
        guard wrote else { return }
        if let failure { throw failure }
        try photos.syncAll()
    }
}
