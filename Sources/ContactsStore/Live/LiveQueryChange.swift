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
    /// The rowids of the removed, in the same order.
    public var removedRowids: [Int64] = []
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
    /// in a longest run that kept its order). `changed` holds the rowids the commit changed,
    /// whose members in both windows are `touched`.
    /// What the two windows share at their starts and ends is passed over first: after a
    /// small commit, only what lies between is compared.
    static func between(
        _ old: [LiveQuery.Member], _ new: [LiveQuery.Member], offset: Int, changed: Set<Int64>, from: Int64, to: Int64, total: Int,
        keyedAscending: Bool? = nil
    ) -> LiveQueryChange {
        var change = LiveQueryChange(from: from, to: to, total: total)
        var head = 0
        while head < old.count && head < new.count && old[head].rowid == new[head].rowid { head += 1 }
        var tail = 0
        while tail < old.count - head && tail < new.count - head && old[old.count - 1 - tail].rowid == new[new.count - 1 - tail].rowid {
            tail += 1
        }
        // The members shared at either end that the commit changed: looked for by rowid, with
        // the smallest and largest of the changed ones passing over the rest.
        if !changed.isEmpty, head + tail > 0, let low = changed.min(), let high = changed.max() {
            for j in Array(0..<head) + Array((new.count - tail)..<new.count) {
                let m = new[j]
                if m.rowid >= low && m.rowid <= high && changed.contains(m.rowid) {
                    change.touched.append(Placed(id: m.id, rowid: m.rowid, index: offset + j))
                }
            }
        }
        let oldMiddle = old[head..<(old.count - tail)], newMiddle = new[head..<(new.count - tail)]
        if oldMiddle.isEmpty && newMiddle.isEmpty {
            change.touched.sort { $0.index < $1.index }
            return change
        }
        if let ascending = keyedAscending {
            return inKeyOrder(old, new, head: head, tail: tail, offset: offset, changed: changed, ascending: ascending, into: change)
        }
        var oldIndex: [Int64: Int] = [:]
        oldIndex.reserveCapacity(oldMiddle.count)
        for (i, m) in zip(oldMiddle.indices, oldMiddle) { oldIndex[m.rowid] = i }
        var kept: [(newIndex: Int, oldIndex: Int)] = []
        var inNew = Set<Int64>(minimumCapacity: newMiddle.count)
        for (j, m) in zip(newMiddle.indices, newMiddle) {
            inNew.insert(m.rowid)
            if let i = oldIndex[m.rowid] {
                kept.append((j, i))
            } else {
                change.added.append(Placed(id: m.id, rowid: m.rowid, index: offset + j))
            }
        }
        for m in oldMiddle where !inNew.contains(m.rowid) {
            change.removed.append(m.id)
            change.removedRowids.append(m.rowid)
        }
        let staying = longestIncreasingRun(kept.map { $0.oldIndex - head }, bound: oldMiddle.count) {
            !changed.contains(new[kept[$0].newIndex].rowid)
        }
        for (k, pair) in kept.enumerated() {
            let m = new[pair.newIndex]
            if !staying.contains(k) {
                change.moved.append(Move(id: m.id, rowid: m.rowid, from: offset + pair.oldIndex, to: offset + pair.newIndex))
            }
            if changed.contains(m.rowid) { change.touched.append(Placed(id: m.id, rowid: m.rowid, index: offset + pair.newIndex)) }
        }
        change.touched.sort { $0.index < $1.index }
        return change
    }

    /// `between` for windows whose members carry their keys, in one pass over the middle: the
    /// contacts the commit did not change have the same keys in both and keep their order, so
    /// of two that differ, the one that comes first is the one the other window lacks. The
    /// changed ones are set apart as the pass meets them, each with how many unchanged
    /// contacts both windows hold before it; one whose count differs moved (and so do those
    /// that changed order among themselves between the same two unchanged neighbours).
    static func inKeyOrder(
        _ old: [LiveQuery.Member], _ new: [LiveQuery.Member], head: Int, tail: Int, offset: Int, changed: Set<Int64>, ascending: Bool,
        into change: LiveQueryChange
    ) -> LiveQueryChange {
        var change = change
        let (low, high) = (changed.min() ?? 0, changed.max() ?? -1)
        func isChanged(_ m: LiveQuery.Member) -> Bool { m.rowid >= low && m.rowid <= high && changed.contains(m.rowid) }
        var oldChanged: [Int64: (index: Int, rank: Int)] = [:]
        var newChanged: [(index: Int, rank: Int)] = []
        let (oldEnd, newEnd) = (old.count - tail, new.count - tail)
        var (i, j, rank) = (head, head, 0)
        while i < oldEnd || j < newEnd {
            if i < oldEnd && isChanged(old[i]) {
                oldChanged[old[i].rowid] = (i, rank)
                i += 1
            } else if j < newEnd && isChanged(new[j]) {
                newChanged.append((j, rank))
                j += 1
            } else if i < oldEnd && j < newEnd && old[i].rowid == new[j].rowid {
                rank += 1
                i += 1
                j += 1
            } else if j >= newEnd || (i < oldEnd && old[i].precedes(new[j], ascending: ascending)) {
                change.removed.append(old[i].id)
                change.removedRowids.append(old[i].rowid)
                i += 1
            } else {
                change.added.append(Placed(id: new[j].id, rowid: new[j].rowid, index: offset + j))
                j += 1
            }
        }
        // The changed contacts both windows hold, by the count before them.
        var byRank: [Int: [(from: Int, to: Int)]] = [:]
        for (to, rankNow) in newChanged {
            let m = new[to]
            guard let was = oldChanged.removeValue(forKey: m.rowid) else {
                change.added.append(Placed(id: m.id, rowid: m.rowid, index: offset + to))
                continue
            }
            change.touched.append(Placed(id: m.id, rowid: m.rowid, index: offset + to))
            if was.rank != rankNow {
                change.moved.append(Move(id: m.id, rowid: m.rowid, from: offset + was.index, to: offset + to))
            } else {
                byRank[rankNow, default: []].append((was.index, to))
            }
        }
        for pairs in byRank.values where pairs.count > 1 && !zip(pairs, pairs.dropFirst()).allSatisfy({ $0.from < $1.from }) {
            for p in pairs { change.moved.append(Move(id: new[p.to].id, rowid: new[p.to].rowid, from: offset + p.from, to: offset + p.to)) }
        }
        for (rowid, was) in oldChanged.sorted(by: { $0.value.index < $1.value.index }) {
            change.removed.append(old[was.index].id)
            change.removedRowids.append(rowid)
        }
        change.added.sort { $0.index < $1.index }
        change.moved.sort { $0.to < $1.to }
        change.touched.sort { $0.index < $1.index }
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
