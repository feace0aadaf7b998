import Glibc

/// The two ways contactsd and contactsctl write files: all of a buffer to a descriptor, and a
/// whole file that either appears complete or not at all.
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
}
