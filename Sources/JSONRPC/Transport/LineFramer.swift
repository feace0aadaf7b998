/// Splits a byte stream into newline-terminated messages, with a limit on a message's size.
///
/// Bytes may arrive in any pieces. A trailing `\r` before the newline is dropped and blank
/// lines are skipped, so that hand-typed input from `socat` or `nc` works too.
public struct LineFramer {
    public enum Next: Equatable {
        case line(ArraySlice<UInt8>)
        case needMore
        /// The message in progress is longer than the limit; the stream cannot be resynchronised.
        case tooLong
    }

    public let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0

    public init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count && buffer.capacity > 1 << 20 {
            // Everything was consumed: a large message's room goes back, not kept for later.
            buffer = []
            scanned = 0
            start = 0
        } else if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

    public mutating func next() -> Next {
        while true {
            var i = max(scanned, start)
            let end = buffer.count
            var found = -1
            buffer.withUnsafeBufferPointer { p in
                while i < end {
                    if p[i] == 0x0A {
                        found = i
                        return
                    }
                    i += 1
                }
            }
            if found < 0 {
                scanned = end
                return end - start > maxLineBytes ? .tooLong : .needMore
            }
            var lineEnd = found
            if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let lineStart = start
            start = found + 1
            scanned = start
            if lineEnd - lineStart > maxLineBytes { return .tooLong }
            if isBlank(lineStart, lineEnd) { continue }
            return .line(buffer[lineStart..<lineEnd])
        }
    }

    private func isBlank(_ from: Int, _ to: Int) -> Bool {
        var i = from
        while i < to {
            switch buffer[i] {
            case 0x20, 0x09, 0x0D: i += 1
            default: return false
            }
        }
        return true
    }
}
