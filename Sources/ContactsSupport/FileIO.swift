import CSystem
import Glibc

/// How contactsd and contactsctl write files (all of a buffer to a descriptor; a whole file
/// that appears complete or not at all), make directories, and read the files clients and
/// photos name.
public enum FileIO {
    /// Writes every byte, retrying interrupted and short writes.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], detail: String? = nil) throws(SystemError) {
        // The buffer's closure cannot throw a typed error: its failure comes back as a value.
        let failure: SystemError? = bytes.withUnsafeBytes { buffer in
            do throws(SystemError) {
                try writeAll(fd, buffer, detail: detail)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Writes every byte of `buffer`, retrying interrupted and short writes.
    public static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, detail: String? = nil) throws(SystemError) {
        var offset = 0
        while offset < buffer.count {
            // offset < count, so the buffer is not empty and has a base address.
            // swift-format-ignore: NeverForceUnwrap
            let n = try retryingSyscall("write", detail: detail) { write(fd, buffer.baseAddress! + offset, buffer.count - offset) }
            guard n > 0 else { throw SystemError("write", errno: EIO, detail: detail) }
            offset += n
        }
    }

    /// Reads until the end, retrying interrupted reads (standard input, a pipe, a file).
    public static func readAll(_ fd: Int32, detail: String? = nil) throws(SystemError) -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try retryingSyscall("read", detail: detail) { read(fd, &chunk, chunk.count) }
            if n == 0 { return data }
            data.append(contentsOf: chunk[0..<n])
        }
    }

    /// Writes `path` whole or not at all: a new temporary file beside it (mode 0600, never
    /// through a symlink), synced unless `sync` is false (for files that can be made again),
    /// then renamed over the old one. Concurrent writers of one path never share a temporary.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], sync: Bool = true) throws(SystemError) {
        let file = try AtomicFile(path)
        try file.write(bytes)
        try file.commit(sync: sync)
    }

    /// Makes `path` and the directories above it that are missing, each with `mode`; a path
    /// that is there already must be a directory.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(SystemError) {
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else { throw SystemError("mkdir", errno: ENOTDIR, detail: path) }
            return
        }
        if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex {
            try makeDirectories(String(path[..<slash]), mode: mode)
        }
        if mkdir(path, mode) != 0 && errno != EEXIST { throw SystemError("mkdir", detail: path) }
    }

    /// Flushes what is unwritten on `path`'s file system and then `path` itself (a directory,
    /// so that the names just made in it are on disk too). A missing path has nothing to flush.
    public static func syncFileSystem(of path: String) throws(SystemError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return }
            throw SystemError("open", detail: path)
        }
        defer { close(fd) }
        try retryingSyscall("syncfs", detail: path) { syncfs(fd) }
    }

    /// Flushes a directory, so that the names made in it are on disk.
    public static func syncDirectory(_ path: String) throws(SystemError) {
        let fd = try retryingSyscall("open", detail: path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(fd) }
        try retryingSyscall("fsync", detail: path) { fsync(fd) }
    }

    /// Why a file could not be read.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var description: String
        /// The file is over the size limit.
        public var isTooLarge = false
    }

    /// Reads a regular file safely: no symlink followed at the last step, no FIFO or device
    /// opened for reading (it could block forever), a bounded size.
    public static func readRegularFile(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
        guard path.hasPrefix("/") else { throw ReadError(description: "'\(path)' is not an absolute path") }
        let fd: Int32
        do {
            fd = try retryingSyscall("open", detail: path) { open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        } catch {
            if error.errno == ELOOP { throw ReadError(description: "\(path) is a symbolic link; give the file it points to") }
            throw ReadError(description: "cannot open \(path): \(error.reason)")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ReadError(description: "cannot read \(path): \(SystemError("fstat").reason)") }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ReadError(description: "\(path) is a directory, not a file")
        default: throw ReadError(description: "\(path) is not a regular file")
        }
        guard Int(st.st_size) <= limit else {
            throw ReadError(description: "\(path) is \(st.st_size) bytes; files over \(limit) bytes are refused", isTooLarge: true)
        }
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        var offset = 0
        while offset < out.count {
            // offset < count here, so the buffer is not empty and has a base address.
            // swift-format-ignore: NeverForceUnwrap
            let n = out.withUnsafeMutableBytes { b in
                Result { () throws(SystemError) in
                    try retryingSyscall("read", detail: path) { read(fd, b.baseAddress! + offset, b.count - offset) }
                }
            }
            switch n {
            case .success(0): return Array(out[0..<offset])
            case .success(let count): offset += count
            case .failure(let error): throw ReadError(description: "cannot read \(path): \(error.reason)")
            }
        }
        return Array(out[0..<offset])
    }
}
