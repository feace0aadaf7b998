import Glibc

/// What a live query reads of the index between two commits: a contact's entry as it is, the
/// matches next to a place in the name order, and the places of a page of matches.
extension SearchIndex {
    /// A contact's place in the name order: its rowid and its key.
    struct Place: Equatable {
        var rowid: Int64
        var key: [UInt8]

        /// Whether it comes before `other` in name order (`ascending`) or in the reverse.
        func precedes(_ other: Place, ascending: Bool) -> Bool {
            let (x, y) = ascending ? (self, other) : (other, self)
            return x.key.withUnsafeBytes { a in y.key.withUnsafeBytes { b in SearchIndex.before(a, x.rowid, b, y.rowid) } }
        }
    }

    /// What a query asks of each contact, for telling one contact's entry apart from the index
    /// (`matches`) and for walking the order.
    struct Filter {
        var needles: [[UInt8]]
        var favoritesOnly: Bool
        var members: Set<Int64>?
        var collected: CollectedScope = .excluded

        /// Whether a contact with this text and flags matches (any needle is in the text, as the
        /// scan marks them).
        func matches(rowid: Int64, text: UnsafeRawBufferPointer, favorite: Bool, collected isCollected: Bool) -> Bool {
            if favoritesOnly && !favorite { return false }
            if !collected.admits(isCollected) { return false }
            if let members, !members.contains(rowid) { return false }
            if needles.isEmpty { return true }
            return needles.contains { n in n.withUnsafeBytes { Self.contains(text, $0) } }
        }

        /// Whether `needle` (not empty) occurs in `text`: its first byte found by memchr, the rest
        /// compared.
        static func contains(_ text: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
            guard let t = text.baseAddress, let n = needle.baseAddress, needle.count <= text.count else { return false }
            let first = Int32(needle[0])
            var at = 0
            let lastStart = text.count - needle.count
            while at <= lastStart {
                guard let hit = memchr(t + at, first, lastStart - at + 1) else { return false }
                let i = t.distance(to: UnsafeRawPointer(hit))
                if memcmp(t + i, n, needle.count) == 0 { return true }
                at = i + 1
            }
            return false
        }

        func matches(_ e: Entry) -> Bool {
            e.text.withUnsafeBytes { matches(rowid: e.rowid, text: $0, favorite: e.favorite, collected: e.collected) }
        }
    }

    /// The entries of these contacts as the index holds them now (before a commit changes
    /// them): one pass over the slots.
    func entries(of rowids: Set<Int64>) -> [Int64: Entry] {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        guard isLoaded, !rowids.isEmpty else { return [:] }
        var out: [Int64: Entry] = [:]
        // A few rowids are looked for in a small array, and only among the slots between the
        // smallest and the largest: the pass then mostly compares two numbers a slot.
        let few = rowids.count <= 16 ? Array(rowids) : nil
        let (low, high) = (rowids.min() ?? 0, rowids.max() ?? 0)
        textBuffer.withUnsafeBytes { t in
            keyBuffer.withUnsafeBytes { k in
                for slot in slots
                where slot.rowid >= low && slot.rowid <= high && (few?.contains(slot.rowid) ?? rowids.contains(slot.rowid)) {
                    let text = Array(UnsafeRawBufferPointer(rebasing: t[Int(slot.textStart)..<slot.textEnd]))
                    out[slot.rowid] = Entry(
                        rowid: slot.rowid, key: Array(slot.key(texts: t, keys: k)), text: text, favorite: slot.favorite,
                        collected: slot.collected)
                    if out.count == rowids.count { break }
                }
            }
        }
        return out
    }

    /// Whether the index is loaded (a live query's incremental answer needs it).
    var loaded: Bool {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return isLoaded
    }

    /// The places of up to `count` matches next to `place`, in view order (`ascending` is the
    /// view's): those after it (`forward`) or before it, nearest first. Nil when the index is
    /// not loaded.
    func walk(from place: Place, forward: Bool, ascending: Bool, filter: Filter, count: Int) -> [Place]? {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        guard isLoaded else { return nil }
        guard count > 0 else { return [] }
        // The first slot at or after the place in name order.
        var lo = 0, hi = slots.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if slot(mid, isBefore: place.key, rowid: place.rowid) { lo = mid + 1 } else { hi = mid }
        }
        let up = forward == ascending
        var out: [Place] = []
        textBuffer.withUnsafeBytes { t in
            keyBuffer.withUnsafeBytes { k in
                var i = up ? lo : lo - 1
                while i >= 0 && i < slots.count && out.count < count {
                    let s = slots[i]
                    let text = UnsafeRawBufferPointer(rebasing: t[Int(s.textStart)..<s.textEnd])
                    // The place itself is not next to it; the same contact at another key is.
                    let key = s.key(texts: t, keys: k)
                    let isPlace = s.rowid == place.rowid && key.elementsEqual(place.key)
                    if !isPlace && filter.matches(rowid: s.rowid, text: text, favorite: s.favorite, collected: s.collected) {
                        out.append(Place(rowid: s.rowid, key: Array(key)))
                    }
                    i += up ? 1 : -1
                }
            }
        }
        return out
    }

    /// The places of the matches at `offset..<offset+limit` in view order, and how many match.
    func places(filter: Filter, ascending: Bool, offset: Int, limit: Int?) -> (total: Int, places: [Place]) {
        let page = search(
            patterns: filter.needles, favoritesOnly: filter.favoritesOnly, members: filter.members, collected: filter.collected,
            ascending: ascending, offset: offset, limit: limit)
        return (page.total, keys(of: page.rowids))
    }

    /// The places of these contacts, in the order given; those the index does not hold are
    /// left out. (One pass over the slots when there are many.)
    func keys(of rowids: [Int64]) -> [Place] {
        let wanted = Set(rowids)
        let found = entries(of: wanted)
        return rowids.compactMap { r in found[r].map { Place(rowid: r, key: $0.key) } }
    }
}
