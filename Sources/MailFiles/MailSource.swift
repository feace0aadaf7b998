import ContactsAPI
import Foundation
import Glibc

/// Where messages are: maildirs (their `cur/` and `new/`, and the folders inside them, as
/// Maildir++ and mbsync keep them), mbox files, and files of one message each.
public enum MailSource {
    /// A file of mail.
    public struct File: Sendable {
        public var path: String
        /// An mbox file (messages after `From ` lines) rather than one message.
        public var isMbox: Bool
        public var size: Int
        /// When it was last written, in milliseconds since 1970 (the date of a message without one).
        public var modified: Int64
    }

    /// Why a path holds no mail that can be read.
    public struct Unreadable: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The most of a message's header read (a larger header is read this far): what
    /// `mail.add` and `mail.read` take of one.
    public static let headerLimit = MailHeader.byteLimit

    /// Every file of mail under `paths`, in order (a maildir's by name).
    public static func files(under paths: [String]) throws -> [File] {
        var out: [File] = []
        for p in paths {
            var st = stat()
            guard stat(p, &st) == 0 else { throw Unreadable(path: p, reason: String(cString: strerror(errno))) }
            if st.st_mode & S_IFMT == S_IFDIR {
                try directory(p, into: &out)
            } else if st.st_mode & S_IFMT == S_IFREG {
                out.append(try file(p, st))
            } else {
                throw Unreadable(path: p, reason: "neither a folder of mail nor a file")
            }
        }
        return out
    }

    static func file(_ path: String, _ st: stat) throws -> File {
        let modified = Int64(st.st_mtim.tv_sec) * 1000 + Int64(st.st_mtim.tv_nsec) / 1_000_000
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var start = [UInt8](repeating: 0, count: 5)
        let n = read(fd, &start, 5)
        return File(path: path, isMbox: n == 5 && start == Array("From ".utf8), size: Int(st.st_size), modified: modified)
    }

    /// A maildir's messages and the folders inside it; a folder that is no maildir, what it holds.
    static func directory(_ dir: String, into out: inout [File]) throws {
        let names = try entries(dir)
        let isMaildir = names.contains("cur") || names.contains("new")
        for name in names where !name.hasPrefix(".") || (isMaildir && name.count > 1 && name != "..") {
            let path = dir + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            let isDir = st.st_mode & S_IFMT == S_IFDIR
            if isMaildir && (name == "cur" || name == "new") && isDir {
                for m in try entries(path) where !m.hasPrefix(".") {
                    var ms = stat()
                    let mp = path + "/" + m
                    guard stat(mp, &ms) == 0, ms.st_mode & S_IFMT == S_IFREG else { continue }
                    let modified = Int64(ms.st_mtim.tv_sec) * 1000 + Int64(ms.st_mtim.tv_nsec) / 1_000_000
                    out.append(File(path: mp, isMbox: false, size: Int(ms.st_size), modified: modified))
                }
            } else if name == "tmp" && isMaildir {
                continue
            } else if isDir {
                try directory(path, into: &out)
            } else if st.st_mode & S_IFMT == S_IFREG && !isMaildir {
                if let f = try? file(path, st) { out.append(f) }
            }
        }
    }

    /// The maildirs at or under `folder` (Maildir++ folders inside one too), at most `limit`:
    /// the folders whose `new/` and `cur/` a watcher watches. The same walk as `files(under:)`.
    public static func maildirs(under folder: String, limit: Int = 10_000) -> [String] {
        var out: [String] = []
        var pending = [folder]
        while let dir = pending.popLast(), out.count < limit {
            guard let names = try? entries(dir) else { continue }
            let isMaildir = names.contains("cur") || names.contains("new")
            if isMaildir { out.append(dir) }
            for name in names where !["new", "cur", "tmp"].contains(name) && (!name.hasPrefix(".") || isMaildir) {
                var st = stat()
                if lstat(dir + "/" + name, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR { pending.append(dir + "/" + name) }
            }
        }
        return out
    }

    static func entries(_ dir: String) throws -> [String] {
        guard let d = opendir(dir) else { throw Unreadable(path: dir, reason: String(cString: strerror(errno))) }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Each message's header in `file`, to the empty line that ends it (with where it is, for a
    /// report: the path, and in an mbox the message's number).
    public static func headers(of file: File, _ each: (_ header: UnsafeRawBufferPointer, _ place: String) throws -> Void) throws {
        if !file.isMbox {
            let bytes = try header(ofFileAt: file.path)
            try bytes.withUnsafeBytes { try each($0, file.path) }
            return
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file.path), options: .alwaysMapped)
        } catch {
            throw Unreadable(path: file.path, reason: "cannot be read (\(error.localizedDescription))")
        }
        try data.withUnsafeBytes { (all: UnsafeRawBufferPointer) in
            var n = 0
            for start in messageStarts(all) {
                n += 1
                let most = UnsafeRawBufferPointer(rebasing: all[start..<min(all.count, start + headerLimit)])
                try each(UnsafeRawBufferPointer(rebasing: most[..<headerLength(most)]), "\(file.path), message \(n)")
            }
        }
    }

    /// Where each message of an mbox starts: its `From ` line, at the start or after a newline.
    static func messageStarts(_ bytes: UnsafeRawBufferPointer) -> [Int] {
        var starts: [Int] = []
        guard let base = bytes.baseAddress else { return [] }
        if bytes.starts(with: "From ".utf8) { starts.append(0) }
        var at = 0
        while at < bytes.count {
            guard let hit = memchr(base + at, 0x0A, bytes.count - at) else { break }
            let line = base.distance(to: UnsafeRawPointer(hit)) + 1
            if line + 5 <= bytes.count && memcmp(base + line, "From ", 5) == 0 { starts.append(line) }
            at = line
        }
        return starts
    }

    /// The first bytes of a message file, up to the empty line after its header (or
    /// `headerLimit`).
    public static func header(ofFileAt path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while out.count < headerLimit {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            let searchFrom = max(0, out.count - 3)
            out.append(contentsOf: chunk[..<n])
            if out.withUnsafeBytes({ headerEnd(UnsafeRawBufferPointer(rebasing: $0[searchFrom...])) }) != nil { break }
        }
        return Array(out.prefix(headerLength(out)))
    }

    /// How many of `bytes` the header is: up to and with the empty line that ends it (all of
    /// them when none does).
    public static func headerLength(_ bytes: UnsafeRawBufferPointer) -> Int { headerEnd(bytes) ?? bytes.count }

    public static func headerLength(_ bytes: [UInt8]) -> Int { bytes.withUnsafeBytes { headerLength($0) } }

    /// Where the empty line that ends a header ends in `bytes`, if there is one.
    static func headerEnd(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x0A {
                if bytes[i + 1] == 0x0A { return i + 2 }
                if bytes[i + 1] == 0x0D && i + 2 < bytes.count && bytes[i + 2] == 0x0A { return i + 3 }
            }
            i += 1
        }
        return nil
    }
}
