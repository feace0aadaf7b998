import ContactsCore

/// Names as duplicates compare them: folded as search folds them, in words, and close when
/// one edit apart.
enum NameKey {
    /// The folded words of a name: "José Núñez-Ortiz" gives jose, nunez, ortiz.
    /// Read a byte at a time: a name's folded text is mostly ASCII, whose letters and digits
    /// are told by their value; other scalars by their Unicode properties.
    static func words(_ name: String) -> [String] {
        var folded = SearchFolding.fold(name)
        return folded.withUTF8 { bytes in
            var out: [String] = []
            var start = -1
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
                let inWord: Bool
                if b < 0x80 {
                    inWord = (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
                } else {
                    var v = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                    for k in 1..<length where i + k < bytes.count { v = v << 6 | UInt32(bytes[i + k] & 0x3F) }
                    inWord = Unicode.Scalar(v).map { isLetterOrNumber($0) } ?? false
                }
                if inWord {
                    if start < 0 { start = i }
                } else if start >= 0 {
                    out.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
                    start = -1
                }
                i += length
            }
            if start >= 0 { out.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)) }
            return out
        }
    }

    /// A letter or a number, as `Character.isLetter` and `isNumber` tell them.
    static func isLetterOrNumber(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        case .decimalNumber, .letterNumber, .otherNumber: return true
        default: return false
        }
    }

    /// Names this long (in letters) or longer count as close when one edit apart; shorter
    /// ones differ by too little to tell a typo from another person ("Ann Lee", "Ann Lea").
    static let closeMinimum = 6

    /// Hashes of the key itself and of the key with each of its characters left out (hashed
    /// alike): two keys one edit apart (an insertion, deletion or substitution) share one.
    static func neighbourhood(_ key: [Unicode.Scalar]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(key.count + 1)
        var whole = Hasher()
        for u in key { whole.combine(u.value) }
        out.append(whole.finalize())
        for skip in key.indices {
            var h = Hasher()
            for i in key.indices where i != skip { h.combine(key[i].value) }
            out.append(h.finalize())
        }
        return out
    }

    /// Whether two keys are at most one insertion, deletion or substitution apart.
    static func withinOneEdit(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        if a.count < b.count { return withinOneEdit(b, a) }
        guard a.count - b.count <= 1 else { return false }
        var i = 0
        while i < b.count && a[i] == b[i] { i += 1 }
        if i == b.count { return true }
        if a.count == b.count { return a[(i + 1)...] == b[(i + 1)...] }
        return a[(i + 1)...] == b[i...]
    }

    static func letters(_ key: [Unicode.Scalar]) -> Int {
        key.count { u in
            u.value < 0x80 ? (u.value >= 0x61 && u.value <= 0x7A) || (u.value >= 0x41 && u.value <= 0x5A) : u.properties.isAlphabetic
        }
    }
}
