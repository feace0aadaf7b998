import ContactsCore
import ContactsSupport
import Foundation
import Glibc

extension ContactStore {
    /// Why a backup or restore path cannot be used.
    public struct PathError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Checks a path a client gave for writing: absolute, in an existing directory, and not
    /// an existing symlink, directory or device.
    public static func checkTarget(_ path: String) throws {
        guard path.hasPrefix("/") else { throw PathError(description: "'\(path)' is not an absolute path") }
        var st = stat()
        if lstat(path, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFLNK: throw PathError(description: "\(path) is a symbolic link; name the file itself")
            case S_IFDIR: throw PathError(description: "\(path) is a directory; name a file in it")
            default: throw PathError(description: "\(path) is not a regular file")
            }
        }
        let dir = (path as NSString).deletingLastPathComponent
        guard stat(dir, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw PathError(description: "the directory \(dir) does not exist")
        }
    }

    /// Copies a consistent snapshot of the store to `path` while it keeps serving: the copy is
    /// made from one read transaction, into a temporary file that is synced and then renamed.
    /// Returns the number of contacts in it.
    @discardableResult
    public func backup(to path: String) throws -> Int {
        try Self.checkTarget(path)
        let tmp = path + ".tmp-\(getpid())-\(Identifier.make().prefix(8))"
        defer { unlink(tmp) }
        // No photo file goes away while the snapshot's photos are copied.
        let count: Int = try withPhotosPinned {
            try read { source in
                try source.execute("BEGIN")
                defer { try? source.execute("COMMIT") }
                let n = Int(try source.scalarInt("SELECT count(*) FROM contacts"))
                let target = try Database(path: tmp)
                try source.copy(into: target)
                try target.execute("PRAGMA journal_mode=DELETE")
                try copyPhotos(referencedIn: source, into: target)
                return n
            }
        }
        let fd = open(tmp, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            Glibc.close(fd)
        }
        chmod(tmp, 0o600)
        guard rename(tmp, path) == 0 else {
            throw PathError(description: SystemError("write", detail: path).description)
        }
        return count
    }

    /// Replaces everything in the store with the contents of a backup. The file is checked
    /// first (a contacts database, not from a newer version); the store it replaces is kept
    /// aside (`restores/` beside the store, the latest three); the store is replaced in one
    /// step under the write lock, brought to the current schema, and the restore is an
    /// operation of its history, which `undo` takes back by putting the kept store back.
    /// `undoing` is the restore this one undoes. Returns the number of contacts restored.
    @discardableResult
    public func restore(from path: String, undoing: Int64? = nil) throws -> Int {
        guard path.hasPrefix("/") else { throw PathError(description: "'\(path)' is not an absolute path") }
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw PathError(description: "\(path) is not a regular file")
        }
        let source: Database
        let version: Int
        do {
            source = try Database(path: path, readOnly: true)
            version = Int(try source.scalarInt("PRAGMA user_version"))
            _ = try source.scalarInt("SELECT count(*) FROM contacts")
        } catch {
            throw PathError(description: "\(path) is not a contacts backup (\(error))")
        }
        guard version <= Migrations.latestVersion else {
            throw PathError(description: "\(path) comes from a newer contactsd (schema \(version)); it was not restored")
        }
        let kept = try keepAside()
        try replaceContents(
            from: source, version: version,
            beforeCopy: {
                // The backup's photos land first, so the restored contacts never refer to a missing file.
                guard try source.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'backup_photos'") > 0 else {
                    return
                }
                let s = try source.prepare("SELECT hash, bytes FROM backup_photos")
                defer { s.reset() }
                while try s.step() {
                    let hash = s.text(0)
                    let bytes = s.withBytes(1) { [UInt8]($0) }
                    guard ContentAddress.hex(of: hash) != nil, ContentAddress.of(bytes) == hash else { continue }
                    try photos.put(hash, bytes, sync: false)
                }
                try photos.syncAll()
            },
            afterCopy: { db in
                let summary =
                    undoing == nil
                    ? "the store replaced with the backup \((path as NSString).lastPathComponent)"
                    : "the store put back as it was before the restore"
                try db.prepare(
                    """
                    INSERT INTO operations (id, at, origin, contacts, groups, summary, undoes, kept)
                    SELECT coalesce(max(id), 0) + 1, ?, ?, (SELECT count(*) FROM contacts), (SELECT count(*) FROM groups), ?, ?, ? FROM operations
                    """
                ).run([
                    .int(Timestamp.now()), .text(undoing == nil ? "restore" : "undo"), .text(summary), undoing.map { .int($0) } ?? .null,
                    .text(kept),
                ])
            })
        return try counts().contacts
    }

    /// How many stores replaced by a restore are kept, for their restore to be undone.
    public static let keptStores = 3

    /// Backs the store up into `restores/` beside it before a restore replaces it, and lets
    /// the oldest of those go beyond `keptStores`. Returns the file.
    private func keepAside() throws -> String {
        let dir = (path as NSString).deletingLastPathComponent + "/restores"
        if mkdir(dir, 0o700) != 0 && errno != EEXIST {
            throw PathError(description: SystemError("mkdir", detail: dir).description)
        }
        let kept = dir + "/before-restore-\(Timestamp.now()).sqlite3"
        try backup(to: kept)
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0.hasPrefix("before-restore-") && $0.hasSuffix(".sqlite3") }
            .sorted { (Int64($0.dropFirst(15).dropLast(8)) ?? 0) > (Int64($1.dropFirst(15).dropLast(8)) ?? 0) }
        for old in all.dropFirst(Self.keptStores) { unlink(dir + "/" + old) }
        return kept
    }

    /// The file that keeps the store a restore replaced, if `operation` is a restore (or its undo).
    func keptStore(of operation: Int64) throws -> String? {
        try read { db in try db.scalarText("SELECT kept FROM operations WHERE id = ?", [.int(operation)]) }
    }

    /// Puts the bytes of every photo the snapshot refers to into the backup file, so that one
    /// file holds everything (`backup_photos`, read back by `restore`).
    private func copyPhotos(referencedIn source: Database, into target: Database) throws {
        try target.execute("CREATE TABLE backup_photos (hash TEXT PRIMARY KEY, bytes BLOB NOT NULL)")
        let hashes = try source.prepare(
            """
            SELECT photo_hash FROM contacts WHERE photo_hash IS NOT NULL UNION SELECT photo_hash FROM trash WHERE photo_hash IS NOT NULL
            UNION SELECT photo_hash FROM history WHERE photo_hash IS NOT NULL
            """)
        defer { hashes.reset() }
        try target.execute("BEGIN")
        let insert = try target.prepare("INSERT INTO backup_photos (hash, bytes) VALUES (?, ?)")
        while try hashes.step() {
            let hash = hashes.text(0)
            // A photo kept only inside its card (bytes that were never decodable) has no file.
            guard let bytes = photos.read(hash) else { continue }
            try insert.run([.text(hash), .blob(bytes)])
        }
        try target.execute("COMMIT")
    }
}
