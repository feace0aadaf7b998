import Foundation

/// Bytes to text: file encodings, quoted-printable and per-property charsets.
enum TextDecoding {
    /// The file as UTF-8 bytes: a UTF-8 BOM dropped, UTF-16 (with or without a BOM) converted.
    static func normalizeFileEncoding(_ b: [UInt8]) -> [UInt8] {
        if b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { return Array(b[3...]) }
        var bigEndian: Bool?
        var start = 0
        if b.count >= 2 && b[0] == 0xFF && b[1] == 0xFE {
            bigEndian = false
            start = 2
        } else if b.count >= 2 && b[0] == 0xFE && b[1] == 0xFF {
            bigEndian = true
            start = 2
        } else if b.count >= 4 {
            // UTF-16 without a BOM: every other byte of ASCII text is zero.
            let sample = b.prefix(200)
            let evenZeros = stride(from: 0, to: sample.count, by: 2).filter { sample[$0] == 0 }.count
            let oddZeros = stride(from: 1, to: sample.count, by: 2).filter { sample[$0] == 0 }.count
            if evenZeros > sample.count / 4 && oddZeros == 0 { bigEndian = true }
            if oddZeros > sample.count / 4 && evenZeros == 0 { bigEndian = false }
        }
        guard let be = bigEndian else { return b }
        var units: [UInt16] = []
        units.reserveCapacity((b.count - start) / 2)
        var i = start
        while i + 1 < b.count {
            units.append(be ? UInt16(b[i]) << 8 | UInt16(b[i + 1]) : UInt16(b[i + 1]) << 8 | UInt16(b[i]))
            i += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    /// `s` without whitespace (base64 data folded over lines). Bytes when it is ASCII, as
    /// base64 is: filtering characters costs far more on a photo of a few hundred kilobytes.
    static func removingWhitespace(_ s: String) -> String {
        var s = s
        enum Outcome { case unchanged, filtered([UInt8]), notASCII }
        let outcome: Outcome = s.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 >= 0x80 }) else { return .notASCII }
            guard utf8.contains(where: { $0 == 0x20 || (0x09...0x0D).contains($0) }) else { return .unchanged }
            return .filtered(utf8.filter { $0 != 0x20 && !(0x09...0x0D).contains($0) })
        }
        switch outcome {
        case .unchanged: return s
        case .filtered(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .notASCII: return s.filter { !$0.isWhitespace }
        }
    }

    /// Quoted-printable to bytes (soft breaks are already joined). A stray '=' stays as it is.
    static func quotedPrintable(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "="), i + 2 < b.count, let h = hex(b[i + 1]), let l = hex(b[i + 2]) {
                out.append(h << 4 | l)
                i += 3
                continue
            }
            out.append(b[i])
            i += 1
        }
        return out
    }

    /// Text from bytes in a declared charset; without one, UTF-8 when it is valid, else
    /// Windows-1252 (what Outlook writes). Invalid UTF-8 in a 3.0/4.0 card is repaired.
    static func string(_ b: [UInt8], charset: String?, legacy: Bool) -> String {
        if let charset, let encoding = encoding(named: charset), encoding != .utf8 {
            if let s = String(data: Data(b), encoding: encoding) { return s }
        }
        if let s = UTF8Check.string(b) { return s }
        if legacy || charset == nil {
            if let s = String(data: Data(b), encoding: .windowsCP1252) { return s }
        }
        return String(decoding: b, as: UTF8.self)
    }

    static func encoding(named name: String) -> String.Encoding? {
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "utf-8", "utf8": .utf8
        case "us-ascii", "ascii": .ascii
        case "iso-8859-1", "latin1", "iso8859-1", "l1": .isoLatin1
        case "iso-8859-2", "latin2": .isoLatin2
        case "windows-1252", "cp1252", "x-ansi", "ansi": .windowsCP1252
        case "windows-1250", "cp1250": .windowsCP1250
        case "windows-1251", "cp1251": .windowsCP1251
        case "windows-1253", "cp1253": .windowsCP1253
        case "windows-1254", "cp1254": .windowsCP1254
        case "shift-jis", "sjis", "x-sjis", "ms-kanji", "windows-31j", "cp932": .shiftJIS
        case "euc-jp": .japaneseEUC
        case "iso-2022-jp": .iso2022JP
        case "macintosh", "mac", "x-mac-roman", "macroman": .macOSRoman
        case "utf-16": .utf16
        case "utf-16le": .utf16LittleEndian
        case "utf-16be": .utf16BigEndian
        default: nil
        }
    }
}
