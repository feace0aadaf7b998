import ContactsSupport
import Foundation
import Glibc

/// An answer's body kept in a temporary file that only this process can reach: made with
/// mode 0600 and unlinked at once, so nothing of it stays behind, even after a crash.
public final class BodyFile: @unchecked Sendable {
    private let fd: Int32
    public private(set) var size = 0

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/contactsd-answer-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends `chunk`; what went wrong, when something did (a full disk).
    func write(_ chunk: Data) -> String? {
        let failure: SystemError? = chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> SystemError? in
            do throws(SystemError) {
                try FileIO.writeAll(fd, raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { return failure.reason }
        size += chunk.count
        return nil
    }

    /// The body from its start, as a stream of its own.
    public func stream() -> InputStream? { InputStream(fileAtPath: "/proc/self/fd/\(fd)") }

    /// The first `count` bytes.
    func prefix(_ count: Int) -> Data {
        var out = [UInt8](repeating: 0, count: min(count, size))
        let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return Data(out.prefix(max(0, n)))
    }
}
