import ContactsCore

/// Names as duplicates compare them: folded as search folds them, in words, and close when
/// one edit apart.
enum NameKey {
    /// The folded words of a name: "José Núñez-Ortiz" gives jose, nunez, ortiz.
    static func words(_ name: String) -> [String] {
        SearchFolding.fold(name).split { !$0.isLetter && !$0.isNumber }.map(String.init)
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

    static func letters(_ key: [Unicode.Scalar]) -> Int { key.count { $0.properties.isAlphabetic } }
}
