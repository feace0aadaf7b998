/// Base64 over bytes, for photos inside vCards and requests: in decoding, whitespace (folded
/// lines) is skipped, padding may be missing.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in the standard alphabet, padded.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let v = UInt32(bytes[i]) << 16 | (n > 1 ? UInt32(bytes[i + 1]) << 8 : 0) | (n > 2 ? UInt32(bytes[i + 2]) : 0)
            for k in 0..<4 { out.append(k <= n ? alphabet[Int((v >> (18 - 6 * UInt32(k))) & 63)] : UInt8(ascii: "=")) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let table: [UInt8] = {
        var t = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() { t[Int(c)] = UInt8(i) }
        // The URL-safe alphabet's two letters, which some producers use.
        t[Int(UInt8(ascii: "-"))] = 62
        t[Int(UInt8(ascii: "_"))] = 63
        return t
    }()

    /// The decoded bytes, or nil when a byte is neither base64 nor whitespace (with
    /// `lenient`, such bytes are skipped, as vCard producers' stray characters are), or when
    /// the text ends in the middle of a byte.
    public static func decode<C: Collection<UInt8>>(_ text: C, lenient: Bool = false) -> [UInt8]? {
        // Through contiguous storage when there is some (a String's UTF-8 usually is): byte by
        // byte, a generic collection from another module is several times slower.
        if let done = text.withContiguousStorageIfAvailable({ decode(buffer: $0, lenient: lenient) }) { return done }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0, lenient: lenient) }
    }

    private static func decode(buffer text: UnsafeBufferPointer<UInt8>, lenient: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var acc: UInt32 = 0
        var n = 0
        var ended = false
        for c in text {
            let v = table[Int(c)]
            if v == 0xFF {
                if c == UInt8(ascii: "=") {
                    ended = true
                    continue
                }
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || lenient { continue }
                return nil
            }
            if ended {
                if lenient { break }
                return nil
            }
            acc = acc << 6 | UInt32(v)
            n += 1
            if n == 4 {
                out.append(UInt8(acc >> 16 & 0xFF))
                out.append(UInt8(acc >> 8 & 0xFF))
                out.append(UInt8(acc & 0xFF))
                acc = 0
                n = 0
            }
        }
        switch n {
        case 0: break
        case 2: out.append(UInt8(acc >> 4 & 0xFF))
        case 3:
            out.append(UInt8(acc >> 10 & 0xFF))
            out.append(UInt8(acc >> 2 & 0xFF))
        default: return nil
        }
        return out
    }
}
