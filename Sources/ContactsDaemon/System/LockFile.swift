import ContactsSupport
import Foundation
import Glibc

/// An exclusive `flock` on a file in the data directory, so that only one daemon uses a store.
public final class LockFile {
    public let path: String
    private let fd: Int32

    public enum Failure: Error, CustomStringConvertible {
        case heldBy(pid: Int32?, path: String)
        case cannotOpen(SystemError)

        public var description: String {
            switch self {
            case .heldBy(let pid, let path):
                "another contactsd\(pid.map { " (pid \($0))" } ?? "") is already using this data directory (lock \(path))"
            case .cannotOpen(let error): "the lock file: \(error)"
            }
        }
    }

    public init(path: String) throws(Failure) {
        self.path = path
        let fd: Int32
        do {
            fd = try retryingSyscall("open", detail: path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        } catch {
            throw .cannotOpen(error)
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = read(fd, &buffer, buffer.count)
            close(fd)
            let pid = n > 0 ? Int32(String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
            throw .heldBy(pid: pid, path: path)
        }
        self.fd = fd
        ftruncate(fd, 0)
        let text = "\(getpid())\n"
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }

    deinit { close(fd) }
}
