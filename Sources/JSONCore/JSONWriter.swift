/// Serialises JSON values to compact UTF-8 text on one line.
///
/// Strings are escaped so that the output never holds a raw newline, which keeps every
/// message on exactly one line for newline-delimited framing.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// What was written, as a string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public static func serialize(_ value: JSONValue) -> [UInt8] {
        var w = JSONWriter()
        w.write(value)
        return w.bytes
    }

    public static func string(_ value: JSONValue) -> String {
        String(decoding: serialize(value), as: UTF8.self)
    }

    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: appendASCII("null")
        case .bool(let b): appendASCII(b ? "true" : "false")
        case .number(let n), .encoded(let n): appendString(raw: n)
        case .string(let s): writeString(s)
        case .array(let a):
            bytes.append(UInt8(ascii: "["))
            var first = true
            for e in a {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(e)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let o):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for m in o.members {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                writeString(m.key)
                bytes.append(UInt8(ascii: ":"))
                write(m.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    // Pieces for writers that produce a known shape directly, without building a JSONValue.

    /// Writes punctuation or other text that is already JSON (`{`, `],`, `null`).
    public mutating func writeRaw(_ s: StaticString) { appendASCII(s) }

    /// Writes bytes that are already JSON (a member copied from JSON this program wrote).
    public mutating func writeRaw(_ text: UnsafeRawBufferPointer) { bytes.append(contentsOf: text) }

    /// Writes `"key":`, preceded by a comma unless it is the first member (`first` says so,
    /// and is cleared).
    public mutating func writeKey(_ key: StaticString, first: inout Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        appendASCII(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes a string, or `null` for nil.
    public mutating func writeString(_ s: String?) {
        if let s { writeString(s) } else { appendASCII("null") }
    }

    /// Writes an integer, or `null` for nil.
    public mutating func writeInt(_ v: Int?) {
        guard let v else { return appendASCII("null") }
        appendString(raw: String(v))
    }

    private mutating func appendASCII(_ s: StaticString) {
        // Mostly one byte of punctuation: appended as a byte, it costs a tenth.
        if s.utf8CodeUnitCount == 1 {
            bytes.append(s.utf8Start.pointee)
        } else {
            bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }
    }

    private mutating func appendString(raw s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    public mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        // Read in place: a mutable copy for `withUTF8` would retain and release the string.
        if s.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var copy = s
            copy.withUTF8 { appendEscaped($0) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for i in 0..<utf8.count {
            let b = utf8[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C { continue }
            if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            runStart = i + 1
            bytes.append(UInt8(ascii: "\\"))
            switch b {
            case 0x22: bytes.append(0x22)
            case 0x5C: bytes.append(0x5C)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, Self.hex[Int(b >> 4)], Self.hex[Int(b & 0xF)]])
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { JSONWriter.string(self) }
}
