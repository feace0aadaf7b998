import Glibc

/// A file written piece by piece that appears whole or not at all: the pieces go to a new
/// temporary file beside `path` (mode 0600, never through a symlink, never shared with another
/// writer of the same path), which `commit` syncs and renames over `path`. A failed write, a
/// `discard`, or a file let go of without a commit leaves `path` as it was and no temporary.
public final class AtomicFile {
    public let path: String
    private let temporary: String
    private var fd: Int32
    /// Whether the temporary file is still there to be removed (not yet renamed or unlinked).
    private var pending = true

    public init(_ path: String) throws(SystemError) {
        self.path = path
        let temporary = path + ".tmp-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        self.temporary = temporary
        fd = try retryingSyscall("open", detail: path) { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
    }

    deinit { discard() }

    public func write(_ bytes: [UInt8]) throws(SystemError) {
        let failure: SystemError? = bytes.withUnsafeBytes { buffer in
            do throws(SystemError) {
                try write(buffer)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    public func write(_ text: String) throws(SystemError) {
        var text = text
        let failure: SystemError? = text.withUTF8 { utf8 in
            do throws(SystemError) {
                try write(UnsafeRawBufferPointer(utf8))
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Writes all of `buffer`; on a failure (a full disk) the temporary file is removed and
    /// nothing more can be written.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(SystemError) {
        guard fd >= 0 else { throw SystemError("write", errno: EBADF, detail: path) }
        do {
            try FileIO.writeAll(fd, buffer, detail: path)
        } catch {
            discard()
            throw error
        }
    }

    /// Syncs the file (unless `sync` is false, for files that can be made again) and puts it
    /// in `path`'s place.
    public func commit(sync: Bool = true) throws(SystemError) {
        guard fd >= 0 else { throw SystemError("rename", errno: EBADF, detail: path) }
        do {
            if sync { try retryingSyscall("fsync", detail: path) { fsync(fd) } }
            close(fd)
            fd = -1
            try retryingSyscall("rename", detail: path) { rename(temporary, path) }
            pending = false
        } catch {
            discard()
            throw error
        }
    }

    /// Gives up the file: `path` stays as it was.
    public func discard() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        if pending {
            unlink(temporary)
            pending = false
        }
    }
}
