import CSQLite
import ContactsCore
import Foundation
import Glibc

/// Photo files named by their content: `photos/ab/<sha256 hex>` beside the database. A photo
/// is written once, however many contacts share it: to a temporary file that is synced and
/// renamed into place, then the directory is synced. The store decides when one is no longer
/// referenced; every change here happens under its write lock.
struct PhotoStore {
    let root: String

    /// Why a photo file could not be written or read.
    struct FileError: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        var description: String { "\(path): \(String(cString: strerror(code)))" }
        var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }
    }

    /// The hex digest of a content address, or nil when it is not one (it names a file, so
    /// nothing else may get into a path).
    static func hex(_ hash: String) -> String? {
        guard hash.hasPrefix("sha256:") else { return nil }
        let hex = hash.utf8.dropFirst(7)
        guard hex.count == 64, hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        return String(hash.dropFirst(7))
    }

    func path(_ hash: String) -> String? {
        guard let hex = Self.hex(hash) else { return nil }
        return "\(root)/\(hex.prefix(2))/\(hex)"
    }

    /// Writes the bytes unless a complete copy is already there. With `sync` false the file
    /// is renamed into place unsynced; `syncAll()` must then run before anything refers to it.
    /// Returns whether a file was written.
    @discardableResult
    func put(_ hash: String, _ bytes: [UInt8], sync: Bool = true) throws(FileError) -> Bool {
        guard let path = path(hash) else { throw FileError(path: hash, code: EINVAL) }
        var st = stat()
        // A crash before a sync can leave a short file under the final name: only a full one counts.
        if stat(path, &st) == 0, Int(st.st_size) == bytes.count { return false }
        let dir = String(path[..<path.lastIndex(of: "/")!])
        for d in [root, dir] where mkdir(d, 0o700) != 0 && errno != EEXIST {
            throw FileError(path: d, code: errno)
        }
        do {
            try FileIO.writeAtomically(path, bytes, sync: sync)
        } catch {
            throw FileError(path: path, code: error.code)
        }
        if sync {
            try Self.syncDirectory(dir)
            try Self.syncDirectory(root)
        }
        return true
    }

    /// Flushes every file written unsynced (one `syncfs` for the whole batch).
    func syncAll() throws(FileError) {
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return }
            throw FileError(path: root, code: errno)
        }
        defer { close(fd) }
        guard syncfs(fd) == 0 else { throw FileError(path: root, code: errno) }
    }

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
                    hashes.append("sha256:" + name)
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

    static func syncDirectory(_ dir: String) throws(FileError) {
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: dir, code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileError(path: dir, code: errno) }
    }
}
