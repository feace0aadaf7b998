/// Folding of the scripts that `FoldTables` holds, a word at a time: each gives nil for a word
/// with anything else in it, which the transliterator then reads.
extension SearchFolding {
    /// A script a table holds, or ASCII digits, which the transliterator reads as they are.
    enum TabledRun {
        case digits, cyrillic, han, hangul

        init?(_ u: Unicode.Scalar) {
            switch u.value {
            case 0x30...0x39: self = .digits
            // The combining marks U+0483 to U+0489 are left to the transliterator.
            case 0x400...0x482, 0x48A...0x4FF: self = .cyrillic
            // With the iteration mark 々, which Japanese names write for a repeated character.
            case 0x4E00...0x9FFF, SearchFolding.iterationMark: self = .han
            case 0xAC00...0xD7A3: self = .hangul
            default: return nil
            }
        }
    }

    /// A word of one tabled script, or of runs of them and of digits ("张三丰42"): the
    /// transliterator reads each run as it reads it alone and puts nothing between them
    /// (checked for random such words in SearchFoldingTests).
    static func foldTabled(_ word: String) -> String? {
        let scalars = Array(word.unicodeScalars)
        var out = ""
        var start = 0
        while start < scalars.count {
            guard let kind = TabledRun(scalars[start]) else { return nil }
            var end = start + 1
            while end < scalars.count, TabledRun(scalars[end]) == kind { end += 1 }
            let run = scalars[start..<end]
            switch kind {
            case .digits: out.unicodeScalars.append(contentsOf: run)
            case .cyrillic: foldCyrillic(run, into: &out)
            case .han: foldHan(run, into: &out)
            case .hangul: foldHangul(run, into: &out)
            }
            start = end
        }
        return out
    }

    /// Cyrillic letters (U+0400 to U+04FF but for the combining marks), which the
    /// transliterator reads one at a time (checked for every pair of them when the table is
    /// made).
    static func foldCyrillic(_ run: ArraySlice<Unicode.Scalar>, into out: inout String) {
        for u in run { out += FoldTables.cyrillic[Int(u.value) - 0x400] }
    }

    /// CJK Unified Ideographs, a syllable per character: the transliterator reads each of
    /// these characters alone and puts a space between them.
    /// The iteration mark 々 reads as the character before it ("佐々木" as "佐佐木", "zuo zuo
    /// mu"), where the transliterator makes it "⓶" glued to its neighbours, which no one
    /// types; one that starts a run has nothing to repeat and is passed over.
    static func foldHan(_ run: ArraySlice<Unicode.Scalar>, into out: inout String) {
        var previous: String?
        for u in run {
            let reading = u.value == iterationMark ? previous : FoldTables.hanSyllables[hanReading(Int(u.value) - 0x4E00)]
            guard let reading else { continue }
            if previous != nil { out.append(" ") }
            out += reading
            previous = reading
        }
    }

    /// 々, U+3005.
    static let iterationMark: UInt32 = 0x3005

    /// Which of `FoldTables.hanSyllables` reads the `k`th character from U+4E00.
    static func hanReading(_ k: Int) -> Int {
        func digit(_ c: UInt8) -> Int {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(c - UInt8(ascii: "A")) + 10
            case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(c - UInt8(ascii: "a")) + 36
            case UInt8(ascii: "+"): 62
            default: 63
            }
        }
        let digits = FoldTables.hanReading.utf8Start
        return digit(digits[2 * k]) * 64 + digit(digits[2 * k + 1])
    }

    /// Hangul syllables (U+AC00 to U+D7A3): each reads as its initial, vowel and final, with
    /// a hyphen between two where the transliterator puts one to keep the reading unambiguous.
    static func foldHangul(_ run: ArraySlice<Unicode.Scalar>, into out: inout String) {
        let byConsonants = FoldTables.hangulHyphenByConsonants.utf8Start
        let byVowels = FoldTables.hangulHyphenByVowels.utf8Start
        var previous: Int?
        for u in run {
            let s = Int(u.value) - 0xAC00
            let (initial, vowel, final) = (s / 588, s / 28 % 21, s % 28)
            if let p = previous {
                let (pVowel, pFinal) = (p / 28 % 21, p % 28)
                // Initial 11 is ieung, silent before the vowel.
                let rule = pFinal == 0 && initial == 11 ? byVowels[pVowel * 21 + vowel] : byConsonants[pFinal * 19 + initial]
                if rule == UInt8(ascii: "1") { out.append("-") }
            }
            out += FoldTables.hangulInitials[initial] + FoldTables.hangulVowels[vowel] + FoldTables.hangulFinals[final]
            previous = s
        }
    }
}
