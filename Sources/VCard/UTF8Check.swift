/// Whether bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// past U+10FFFF), as the standard library's `String(validating:as:)` decides, without its
/// generic path: that one looks its type metadata up at run time on every call, which cost
/// more than the check itself for the short values of a card.
enum UTF8Check {
    static func isValid(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return true }
        let n = b.count
        var i = 0
        while i < n {
            // Eight ASCII bytes at a time: most values are nothing else.
            if i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let c = base[i]
            if c < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xED: (length, high) = (3, 0x9F)
            case 0xE1...0xEF: length = 3
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF4: (length, high) = (4, 0x8F)
            case 0xF1...0xF3: length = 4
            default: return false
            }
            guard i + length <= n, base[i + 1] >= low, base[i + 1] <= high else { return false }
            for k in 2..<length where base[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }

    /// The text of `b` when it is well-formed UTF-8, nil otherwise.
    static func string(_ b: [UInt8]) -> String? {
        b.withUnsafeBufferPointer { u in isValid(u) ? String(decoding: u, as: UTF8.self) : nil }
    }
}
