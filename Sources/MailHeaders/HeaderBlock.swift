/// A message's header fields: its lines up to the first empty one, each field with its folded
/// lines joined, as bytes (a header's charset is for GMime to read, not for this split).
public struct HeaderBlock: Sendable {
    public struct Field: Sendable {
        /// As written (`From`, `to`, `CC`); compared without case.
        public var name: String
        /// The value's bytes after the colon, folds joined (CRLF or LF and the white space after
        /// them become one space), leading white space dropped.
        public var value: [UInt8]
        /// The line it starts on, from 1.
        public var line: Int
    }

    public var fields: [Field] = []
    /// Lines of the header that are neither a field nor the fold of one (line, text).
    public var broken: [(line: Int, text: String)] = []
    /// The bytes the header takes (with the empty line after it, when there is one).
    public var length = 0
    /// Whether the empty line that ends the header was found in the bytes given.
    public var isComplete = false

    /// The header of the message at the start of `bytes`. A first line `From ...` (an mbox
    /// file's separator) is passed over.
    public init(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        var lineNumber = 0
        var current: Field?
        func finish() {
            if let f = current { fields.append(f) }
            current = nil
        }
        while i < bytes.count {
            var end = i
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let next = min(end + 1, bytes.count)
            var lineEnd = end
            if lineEnd > i && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            lineNumber += 1
            let line = UnsafeRawBufferPointer(rebasing: bytes[i..<lineEnd])
            i = next
            if line.isEmpty {
                isComplete = end < bytes.count
                break
            }
            if lineNumber == 1 && line.starts(with: "From ".utf8) { continue }
            if line[0] == 0x20 || line[0] == 0x09 {
                if current != nil {
                    current?.value.append(0x20)
                    current?.value.append(contentsOf: line.drop { $0 == 0x20 || $0 == 0x09 })
                } else {
                    broken.append((lineNumber, Self.text(line)))
                }
                continue
            }
            finish()
            guard let colon = line.firstIndex(of: 0x3A), colon > 0,
                line[..<colon].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            else {
                broken.append((lineNumber, Self.text(line)))
                continue
            }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = Array(line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 })
            current = Field(name: name, value: value, line: lineNumber)
        }
        finish()
        length = i
    }

    /// The first field of that name.
    public func first(_ name: String) -> Field? { fields.first { $0.name.lowercased() == name.lowercased() } }

    /// Every field of that name, in order.
    public func all(_ name: String) -> [Field] { fields.filter { $0.name.lowercased() == name.lowercased() } }

    /// A line as text for a message to a person (cut short, bytes that are no UTF-8 replaced).
    static func text(_ line: UnsafeRawBufferPointer) -> String {
        let s = String(decoding: line.prefix(80), as: UTF8.self)
        return line.count > 80 ? s + "…" : s
    }
}
