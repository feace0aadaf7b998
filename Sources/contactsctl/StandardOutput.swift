import Glibc

/// Writes all of a text to a descriptor; false when it could not (a reader that went away).
enum StandardOutput {
    static func write(_ text: String, fd: Int32 = 1) -> Bool { write(Array(text.utf8), fd: fd) }

    static func write(_ all: [UInt8], fd: Int32 = 1) -> Bool {
        var bytes = all[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            bytes = bytes.dropFirst(n)
        }
        return true
    }
}
