import ContactsSupport

/// How much a shared name says, in the address book at hand: two "Xiomara Oyelaran" are
/// likelier one person than two "Maria Garcia". A name key counts by its rarer word, the
/// contacts besides the pair whose names have it: a word nobody else has leaves the name
/// its full weight, one twenty others have halves it, and a family name a thousand share
/// (in a book where García is common) leaves the name next to nothing. Counted in the book
/// itself, so that a name common in one person's contacts (a family, a country) is weighed
/// as common there.
struct NameCommonness {
    /// The others at which a name counts half.
    static let halfWeight = 20.0

    /// For candidate i, its name key k's count of others at `2 * i + k` (at most two keys).
    private var others: [Int32]

    /// Nobody else has any word: every name at full weight.
    init(uniform count: Int) { others = Array(repeating: 0, count: 2 * count) }

    init(_ candidates: [DuplicateCandidate]) {
        // Each candidate's words once, by a hash of their bytes, counted on every core and
        // added up.
        let partial = Parallel.chunks(candidates.count, minimum: 8192) { r -> [UInt64: Int32] in
            var counts: [UInt64: Int32] = [:]
            var words: [UInt64] = []
            for i in r {
                words.removeAll(keepingCapacity: true)
                for key in candidates[i].nameKeys { Self.wordHashes(key) { if !words.contains($0) { words.append($0) } } }
                for w in words { counts[w, default: 0] += 1 }
            }
            return counts
        }
        var counts = partial.first ?? [:]
        for more in partial.dropFirst() { counts.merge(more, uniquingKeysWith: +) }
        let total = counts
        others = Parallel.chunks(candidates.count, minimum: 8192) { r -> [Int32] in
            var out: [Int32] = []
            out.reserveCapacity(2 * r.count)
            for i in r {
                let keys = candidates[i].nameKeys
                for k in 0..<2 {
                    var rarest = Int32.max
                    if k < keys.count { Self.wordHashes(keys[k]) { rarest = min(rarest, total[$0] ?? 0) } }
                    out.append(rarest == Int32.max ? 0 : max(0, rarest - 2))
                }
            }
            return out
        }.flatMap { $0 }
    }

    /// FNV-1a of each space-separated word of a key (its words are folded already).
    static func wordHashes(_ key: String, _ body: (UInt64) -> Void) {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        var inWord = false
        for b in key.utf8 {
            if b == 0x20 {
                if inWord { body(h) }
                h = 0xCBF2_9CE4_8422_2325
                inWord = false
            } else {
                h = (h ^ UInt64(b)) &* 0x100_0000_01B3
                inWord = true
            }
        }
        if inWord { body(h) }
    }

    /// The weight of candidate i's name key k as evidence: `full` when nobody else has its
    /// rarer word, half of it when `halfWeight` others do.
    func weight(_ i: Int, key k: Int, full: Double) -> Double {
        full * Self.halfWeight / (Self.halfWeight + Double(others[2 * i + min(k, 1)]))
    }
}
