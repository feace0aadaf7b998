/// What one commit changed in a live query's window (`LiveQuery`), with positions in the
/// whole list of matches (a window at offset 100 starts at index 100).
///
/// Applied to the window as it was: drop the `removed` and `moved` ids, then insert the
/// `added` and `moved` contacts at their new indexes, lowest first. `touched` are contacts
/// in the window before and after that the commit changed (a client tells whether a field
/// it shows changed).
public struct LiveQueryChange: Sendable, Equatable {
    public struct Placed: Sendable, Equatable {
        public var id: String
        public var rowid: Int64
        public var index: Int
    }

    public struct Move: Sendable, Equatable {
        public var id: String
        public var rowid: Int64
        public var from: Int
        public var to: Int
    }

    /// The store's states before and after the commit.
    public var from: Int64
    public var to: Int64
    /// How many contacts match now.
    public var total: Int
    public var removed: [String] = []
    public var added: [Placed] = []
    public var moved: [Move] = []
    public var touched: [Placed] = []
    /// The change is larger than the window: the window is to be read again.
    public var reset = false
    /// What made the commit (`rpc:PID`, `import:FILE`, ...).
    public var origin = ""

    /// How many entries the change has.
    var size: Int { removed.count + added.count + moved.count }

    /// The change from window `old` to window `new` (ids in order, the window starting at
    /// `offset`): removed, added, and the fewest moves that put the rest in order (those not
    /// in a longest run that kept its order). `changed` says which ids the commit changed.
    static func between(
        _ old: [LiveQuery.Member], _ new: [LiveQuery.Member], offset: Int, changed: (LiveQuery.Member) -> Bool, from: Int64, to: Int64,
        total: Int
    ) -> LiveQueryChange {
        var change = LiveQueryChange(from: from, to: to, total: total)
        var oldIndex: [String: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (i, m) in old.enumerated() { oldIndex[m.id] = i }
        var kept: [(newIndex: Int, oldIndex: Int)] = []
        var inNew = Set<String>(minimumCapacity: new.count)
        for (j, m) in new.enumerated() {
            inNew.insert(m.id)
            if let i = oldIndex[m.id] {
                kept.append((j, i))
            } else {
                change.added.append(Placed(id: m.id, rowid: m.rowid, index: offset + j))
            }
        }
        change.removed = old.filter { !inNew.contains($0.id) }.map(\.id)
        let staying = longestIncreasingRun(kept.map(\.oldIndex), bound: old.count) { !changed(new[kept[$0].newIndex]) }
        for (k, pair) in kept.enumerated() {
            let m = new[pair.newIndex]
            if !staying.contains(k) {
                change.moved.append(Move(id: m.id, rowid: m.rowid, from: offset + pair.oldIndex, to: offset + pair.newIndex))
            }
            if changed(m) { change.touched.append(Placed(id: m.id, rowid: m.rowid, index: offset + pair.newIndex)) }
        }
        return change
    }

    /// The positions of one longest strictly increasing subsequence of `values` (distinct,
    /// in `0..<bound`), of those the one that keeps the most positions `preferred` says (the
    /// contacts the commit did not change: a renamed contact is the one that moves, not its
    /// neighbour). A prefix-maximum tree over the values: n log n.
    static func longestIncreasingRun(_ values: [Int], bound: Int, preferred: (Int) -> Bool) -> Set<Int> {
        // Already in order: the usual case (nothing moved).
        if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) { return Set(values.indices) }
        // Each kept position counts far more than a preferred one: the length comes first.
        let unit = values.count + 1
        var tree = [(weight: Int, at: Int)](repeating: (0, -1), count: bound + 1)
        var previous = [Int](repeating: -1, count: values.count)
        var best = (weight: 0, at: -1)
        for (i, v) in values.enumerated() {
            // The heaviest run ending below v.
            var below = (weight: 0, at: -1)
            var k = v
            while k > 0 {
                if tree[k].weight > below.weight { below = tree[k] }
                k -= k & -k
            }
            let here = (weight: below.weight + unit + (preferred(i) ? 1 : 0), at: i)
            previous[i] = below.at
            if here.weight > best.weight { best = here }
            k = v + 1
            while k <= bound {
                if here.weight > tree[k].weight { tree[k] = here }
                k += k & -k
            }
        }
        var run = Set<Int>()
        var k = best.at
        while k >= 0 {
            run.insert(k)
            k = previous[k]
        }
        return run
    }
}
