import Glibc

/// How contactsd and contactsctl write files (all of a buffer to a descriptor; a whole file
/// that appears complete or not at all) and read the files clients and photos name.
public enum FileIO {
    /// Why a file could not be written.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var code: Int32
        public var reason: String { String(cString: strerror(code)) }
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes every byte, retrying interrupted and short writes. Returns false (with errno
    /// set) when the descriptor refuses more.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                // offset < count, so the buffer is not empty and has a base address.
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    /// Writes `path` whole or not at all: a new temporary file beside it (mode 0600, never
    /// through a symlink), synced unless `sync` is false (for files that can be made again),
    /// then renamed over the old one. Concurrent writers of one path never share a temporary.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], sync: Bool = true) throws(WriteError) {
        let tmp = path + ".tmp-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteError(path: path, code: errno) }
        let written = writeAll(fd, bytes) && (!sync || fsync(fd) == 0)
        let code = errno
        close(fd)
        guard written else {
            unlink(tmp)
            throw WriteError(path: path, code: code)
        }
        guard rename(tmp, path) == 0 else {
            let code = errno
            unlink(tmp)
            throw WriteError(path: path, code: code)
        }
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
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            if e == ELOOP { throw ReadError(description: "\(path) is a symbolic link; give the file it points to") }
            throw ReadError(description: "cannot open \(path): \(String(cString: strerror(e)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ReadError(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
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
            let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw ReadError(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            offset += n
        }
        return Array(out[0..<offset])
    }
}
