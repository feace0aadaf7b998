import ContactsCore

/// A query kept open (`ContactStore.openLiveQuery`): its window of matches, in order, and how
/// many match, brought up to date by every commit, which tells its owner what changed in it.
///
/// What a query keeps is its window (each member's id, rowid and sort key) and a few numbers,
/// not the list of every match: after a small commit in name order the new window is worked
/// out from the old one, the changed contacts' entries before and after, and a walk over the
/// index next to the window's ends (`advance(_:in:)`); otherwise, and for the orders the
/// index does not keep, it is answered again from the index. Changed only under the store's
/// write lock.
public final class LiveQuery: @unchecked Sendable {
    /// A contact in the window: its rowid, and its sort key and id in one allocation (a copy
    /// of the window retains one object a member).
    public struct Member: Sendable, Equatable {
        public let rowid: Int64
        /// The sort key (empty in an order that is answered again), then the id's bytes.
        private let bytes: [UInt8]
        private let keyCount: Int32

        init(id: String, rowid: Int64, key: [UInt8]) {
            self.rowid = rowid
            var bytes = key
            bytes.append(contentsOf: id.utf8)
            self.bytes = bytes
            keyCount = Int32(key.count)
        }

        public var id: String { String(decoding: bytes[Int(keyCount)...], as: UTF8.self) }
        var key: [UInt8] { Array(bytes[..<Int(keyCount)]) }
        var place: SearchIndex.Place { SearchIndex.Place(rowid: rowid, key: key) }
        var hasKey: Bool { keyCount > 0 }

        /// Whether it comes before `other` in the window's order (`ascending`) or the reverse.
        func precedes(_ other: Member, ascending: Bool) -> Bool {
            let (x, y) = ascending ? (self, other) : (other, self)
            return x.bytes.withUnsafeBytes { a in
                y.bytes.withUnsafeBytes { b in
                    SearchIndex.before(
                        UnsafeRawBufferPointer(rebasing: a[..<Int(x.keyCount)]), x.rowid,
                        UnsafeRawBufferPointer(rebasing: b[..<Int(y.keyCount)]), y.rowid)
                }
            }
        }
    }

    /// The query; its `offset` and `limit` are the window.
    public let query: ContactQuery
    let filter: SearchIndex.Filter
    /// The group the query names, found when it was opened (nil: none, or gone since).
    let groupRowid: Int64?
    public private(set) var members: [Member] = []
    public private(set) var total = 0
    /// The store's state the window is at.
    public private(set) var state: Int64 = 0
    let onChange: @Sendable (LiveQueryChange) -> Void

    init(query: ContactQuery, groupRowid: Int64?, onChange: @escaping @Sendable (LiveQueryChange) -> Void) {
        self.query = query
        self.groupRowid = groupRowid
        self.onChange = onChange
        let needles = (query.text.map(SearchDocument.patterns(for:)) ?? []).map { Array($0.utf8) }
        filter = SearchIndex.Filter(needles: needles, favoritesOnly: query.favoritesOnly, members: nil, collected: query.collected)
        matchesNothing = query.text.map { !$0.trimmingWhitespace().isEmpty && needles.isEmpty } ?? false
    }

    /// The order the window follows: by name (the index's order), by a time column (the
    /// key: the time, then the name key, so that ties fall in name order as a query puts
    /// them), or another (answered again at each commit).
    enum Order: Equatable {
        case name
        case time(ContactStore.TimeColumn)
        case other
    }

    var order: Order {
        guard query.sort.count <= 1, let first = query.sort.first else { return .name }
        switch first.field {
        case .name: return .name
        case .updatedAt: return .time(.updated)
        case .createdAt: return .time(.created)
        case .frequency: return .other
        }
    }

    var inNameOrder: Bool { order == .name }
    /// Whether the keys run upwards: a time key holds its direction itself.
    var ascending: Bool { order == .name ? query.sort.first?.ascending ?? true : true }
    /// The text matches nothing (letters the folding drops): nothing ever matches.
    let matchesNothing: Bool

    /// The sort key of a contact in a time order: its time (upwards or, inverted, downwards)
    /// then its name key.
    static func timeKey(_ time: Int64, ascending: Bool, name: [UInt8]) -> [UInt8] {
        var t = UInt64(bitPattern: time) ^ (1 << 63)
        if !ascending { t = ~t }
        return withUnsafeBytes(of: t.bigEndian) { Array($0) } + name
    }

    /// Where a contact that matched outside a window at the start of a time order was: after it.
    static let afterAll = SearchIndex.Place(rowid: Int64.max, key: [UInt8](repeating: 0xFF, count: 9))

    /// A window this large keeps a set of its rowids; a smaller one is searched.
    static let rowidSetThreshold = 64
    /// The window's rowids, when it is large.
    private var rowidSet: Set<Int64>?

    func holds(_ rowid: Int64) -> Bool {
        if let rowidSet { return rowidSet.contains(rowid) }
        return members.contains { $0.rowid == rowid }
    }

    /// Puts the window and total in place (opened, or answered again).
    func set(total: Int, members: [Member], state: Int64) {
        self.total = total
        self.members = members
        self.state = state
        rowidSet = members.count > Self.rowidSetThreshold ? Set(members.map(\.rowid)) : nil
    }

    /// Brings the window to the commit's state and says what changed in it; nil when nothing
    /// did. `store` answers the query again when the change cannot be followed.
    func advance(_ commit: LiveCommit, in store: ContactStore) throws -> LiveQueryChange? {
        let (oldTotal, from, oldCount) = (total, state, members.count)
        let followed = try commit.replaced ? nil : follow(commit, in: store)
        if let followed, followed.same {
            state = commit.state
            return nil
        }
        if let followed, let change = followed.change {
            // Changed in place: the set of rowids follows what the change says.
            if var set = rowidSet {
                rowidSet = nil
                for r in change.removedRowids { set.remove(r) }
                for a in change.added { set.insert(a.rowid) }
                rowidSet = set
            }
            (total, state) = (followed.total, commit.state)
            if followed.members.count <= Self.rowidSetThreshold {
                rowidSet = nil
            } else if rowidSet == nil {
                rowidSet = Set(followed.members.map(\.rowid))
            }
            if change.size > resetBound(oldCount, followed.members.count) {
                return LiveQueryChange(from: from, to: commit.state, total: followed.total, reset: true, origin: commit.origin)
            }
            if change.size == 0 && change.touched.isEmpty && followed.total == oldTotal { return nil }
            return change
        }
        let old = members
        let fresh = try followed.map { (total: $0.total, members: $0.members) } ?? store.liveWindow(self)
        var change = LiveQueryChange.between(
            old, fresh.members, offset: query.offset, changed: commit.rowids.subtracting(commit.deleted), from: from, to: commit.state,
            total: fresh.total, keyedAscending: keyed(old) && keyed(fresh.members) ? ascending : nil)
        change.origin = commit.origin
        if var set = rowidSet, followed != nil, fresh.members.count > Self.rowidSetThreshold {
            // The same window but for what the change says: the set is brought along.
            rowidSet = nil
            for r in change.removedRowids { set.remove(r) }
            for a in change.added { set.insert(a.rowid) }
            (total, members, state) = (fresh.total, fresh.members, commit.state)
            rowidSet = set
        } else {
            set(total: fresh.total, members: fresh.members, state: commit.state)
        }
        if commit.replaced || change.size > resetBound(old.count, fresh.members.count) {
            return LiveQueryChange(from: from, to: commit.state, total: fresh.total, reset: true, origin: commit.origin)
        }
        if change.size == 0 && change.touched.isEmpty && fresh.total == oldTotal { return nil }
        return change
    }

    /// Whether the members carry the keys of the window's order (a time order answered again
    /// further in than its start carries none).
    func keyed(_ members: [Member]) -> Bool {
        switch order {
        case .name: return true
        case .time: return members.allSatisfy(\.hasKey)
        case .other: return false
        }
    }

    /// A change with more entries than this is a reset: more than the window holds (the
    /// whole list without a window), and never more than a thousand.
    func resetBound(_ before: Int, _ after: Int) -> Int { min(query.limit ?? max(before, after, 1), 1000) }

    /// What `follow` found: the window and total after the commit, or that nothing in them
    /// changed.
    struct Followed {
        var total: Int
        var members: [Member]
        var same = false
        /// The change, when the window was changed in place (`inPlace`).
        var change: LiveQueryChange?
    }

    /// A large window of the whole list (a search's every match) after a commit, changed in
    /// place: the changed contacts it held come out, those that match now go in at their
    /// places (`isIn`, in order), and the change is told from that, each kept contact whose
    /// count of unchanged contacts before it differs having moved. No copy of the window, no
    /// pass over it but the one that finds what it held of the commit.
    private func inPlace(_ commit: LiveCommit, isIn: [SearchIndex.Place], total newTotal: Int, store: ContactStore) throws -> Followed? {
        let incoming = try named(isIn, store, commit)
        guard incoming.count == isIn.count else { return nil }
        var leaving: [(index: Int, rank: Int, member: Member)] = []
        for (k, i) in heldIndexes(commit).enumerated() { leaving.append((i, i - k, members[i])) }
        var change = LiveQueryChange(from: state, to: commit.state, total: newTotal)
        change.origin = commit.origin
        if incoming.count == leaving.count && zip(incoming, leaving).allSatisfy({ $0 == $1.member }) {
            // Each changed contact keeps its place (a favorite set, a phone added): touched there.
            change.touched = leaving.map { LiveQueryChange.Placed(id: $0.member.id, rowid: $0.member.rowid, index: $0.index) }
            return Followed(total: newTotal, members: members, change: change)
        }
        var window = members
        members = []  // the window is changed where it lies
        for l in leaving.reversed() { window.remove(at: l.index) }
        let asc = ascending
        var was: [Int64: (index: Int, rank: Int)] = [:]
        for l in leaving { was[l.member.rowid] = (l.index, l.rank) }
        var byRank: [Int: [(from: Int, to: Int, member: Member)]] = [:]
        var lower = 0
        for (k, m) in incoming.enumerated() {
            let a = Self.place(of: m, in: window, from: lower, ascending: asc)
            window.insert(m, at: a)
            lower = a + 1
            guard let before = was.removeValue(forKey: m.rowid) else {
                change.added.append(LiveQueryChange.Placed(id: m.id, rowid: m.rowid, index: a))
                continue
            }
            change.touched.append(LiveQueryChange.Placed(id: m.id, rowid: m.rowid, index: a))
            if before.rank != a - k {
                change.moved.append(LiveQueryChange.Move(id: m.id, rowid: m.rowid, from: before.index, to: a))
            } else {
                byRank[a - k, default: []].append((before.index, a, m))
            }
        }
        for group in byRank.values where group.count > 1 && !zip(group, group.dropFirst()).allSatisfy({ $0.from < $1.from }) {
            for g in group { change.moved.append(LiveQueryChange.Move(id: g.member.id, rowid: g.member.rowid, from: g.from, to: g.to)) }
        }
        for l in leaving where was[l.member.rowid] != nil {
            change.removed.append(l.member.id)
            change.removedRowids.append(l.member.rowid)
        }
        change.moved.sort { $0.to < $1.to }
        members = window
        return Followed(total: newTotal, members: window, change: change)
    }

    /// Where `m` goes in `window` (kept in order), at `lower` or after: before the first member
    /// it does not follow.
    static func place(of m: Member, in window: [Member], from lower: Int = 0, ascending: Bool) -> Int {
        var (a, b) = (lower, window.count)
        while a < b {
            let mid = (a + b) / 2
            if window[mid].precedes(m, ascending: ascending) { a = mid + 1 } else { b = mid }
        }
        return a
    }

    /// Where the window holds the contacts the commit changed, in order: found by their keys
    /// before the commit in name order (a search of the window, not a pass over it), else by a
    /// pass that the smallest and largest changed rowid hurry.
    private func heldIndexes(_ commit: LiveCommit) -> [Int] {
        let held = commit.rowids.filter(holds)
        if held.isEmpty { return [] }
        if order == .name, let before = commit.before {
            let asc = ascending
            var found: [Int] = []
            for x in held {
                guard let e = before[x] else { break }
                let a = Self.place(of: Member(id: "", rowid: x, key: e.key), in: members, ascending: asc)
                guard a < members.count, members[a].rowid == x else { break }
                found.append(a)
            }
            if found.count == held.count { return found.sorted() }
        }
        let (low, high) = (commit.rowids.min() ?? 0, commit.rowids.max() ?? -1)
        return members.indices.filter { i in
            let r = members[i].rowid
            return r >= low && r <= high && commit.rowids.contains(r)
        }
    }

    /// The window and total after a commit, worked out from the window before and the
    /// contacts the commit changed; nil when that cannot be done (then the query is answered
    /// again). In a time order, only a window at the start of the list is followed: what lies
    /// before a later one is not known without its times.
    func follow(_ commit: LiveCommit, in store: ContactStore) throws -> Followed? {
        guard order != .other, query.account == nil, let before = commit.before, let after = commit.after else { return nil }
        if matchesNothing { return Followed(total: 0, members: []) }
        let offset = query.offset, limit = query.limit ?? Int.max
        var timeColumn: ContactStore.TimeColumn?
        if case .time(let column) = order {
            guard offset == 0 else { return nil }
            timeColumn = column
        }
        var filter = self.filter
        if let groupRowid {
            // Memberships the commit changed, or a deleted contact the window did not hold, leave
            // what matched before unknown.
            if commit.membershipsChanged || !commit.deleted.allSatisfy(holds) { return nil }
            filter.members = Set(try store.read { db in try ContactStore.memberRowids(db, groupRowid: groupRowid) })
        } else if query.group != nil {
            return Followed(total: 0, members: [])
        }
        let asc = ascending
        func sorted(_ places: [SearchIndex.Place]) -> [SearchIndex.Place] { places.sorted { $0.precedes($1, ascending: asc) } }
        // In a time order, the times of the contacts that match now.
        var times: [Int64: Int64] = [:]
        if let timeColumn { times = try commit.times(timeColumn, in: store) }
        let timeAscending = query.sort.first?.ascending ?? true
        var wasIn: [SearchIndex.Place] = [], isIn: [SearchIndex.Place] = []
        var windowChanged = false
        for x in commit.rowids {
            let held = holds(x)
            windowChanged = windowChanged || held
            if let e = before[x] {
                if held {
                    let key = timeColumn == nil ? e.key : members.first { $0.rowid == x }?.key ?? []
                    wasIn.append(SearchIndex.Place(rowid: x, key: key))
                } else if filter.matches(e) {
                    wasIn.append(timeColumn == nil ? SearchIndex.Place(rowid: x, key: e.key) : Self.afterAll)
                }
            } else if held {
                return nil
            }
            if let e = after[x], filter.matches(e) {
                if timeColumn != nil {
                    guard let t = times[x] else { return nil }
                    isIn.append(SearchIndex.Place(rowid: x, key: Self.timeKey(t, ascending: timeAscending, name: e.key)))
                } else {
                    isIn.append(SearchIndex.Place(rowid: x, key: e.key))
                }
            }
        }
        // Nothing it held changed, and what matched still matches in the same place (a
        // favorite set outside the window, in a list of everyone): the same window.
        if !windowChanged && wasIn == isIn { return Followed(total: total, members: members, same: true) }
        let newTotal = total - wasIn.count + isIn.count
        if query.limit == nil && offset == 0 && members.count > Self.rowidSetThreshold {
            return try inPlace(commit, isIn: sorted(isIn), total: newTotal, store: store)
        }
        guard let first = members.first, let last = members.last else {
            // An empty window over an empty list: the list is what matches now.
            guard total == 0 else { return nil }
            return Followed(total: newTotal, members: try named(Array(sorted(isIn).dropFirst(offset).prefix(limit)), store, commit))
        }
        let (lo, hi) = (first.place, last.place)
        // The list now: what lies before the window's first place, the window's range, and
        // what lies after its last.
        let addedBefore = sorted(isIn.filter { $0.precedes(lo, ascending: asc) })
        let addedAfter = sorted(isIn.filter { hi.precedes($0, ascending: asc) })
        let unchangedBefore = offset - wasIn.filter { $0.precedes(lo, ascending: asc) }.count
        let unchangedAfter = (total - offset - members.count) - wasIn.filter { hi.precedes($0, ascending: asc) }.count
        // The window's range: its members the commit left alone, with those that came into it
        // put in their places.
        var middle = members
        if windowChanged {
            // Passed over by the smallest and largest changed rowid before any hashing.
            let (low, high) = (commit.rowids.min() ?? 0, commit.rowids.max() ?? -1)
            middle = members.filter { $0.rowid < low || $0.rowid > high || !commit.rowids.contains($0.rowid) }
        }
        let into = sorted(isIn.filter { !$0.precedes(lo, ascending: asc) && !hi.precedes($0, ascending: asc) })
        if !into.isEmpty {
            let named = try self.named(into, store, commit)
            guard named.count == into.count else { return nil }
            for m in named { middle.insert(m, at: Self.place(of: m, in: middle, ascending: asc)) }
        }
        let beforeCount = unchangedBefore + addedBefore.count
        let afterCount = unchangedAfter + addedAfter.count
        var head: [SearchIndex.Place] = []
        if beforeCount > offset {
            // The window now starts before its first place: the last of what lies before it.
            let need = beforeCount - offset
            if need > limit { return nil }
            if unchangedBefore == 0 {
                head = Array(addedBefore.suffix(need))
            } else {
                guard timeColumn == nil,
                    let walked = store.searchIndex.walk(from: lo, forward: false, ascending: asc, filter: filter, count: need),
                    walked.count == need
                else { return nil }
                head = walked.reversed()
            }
        }
        let skip = max(0, offset - beforeCount)
        if skip > middle.count { return nil }
        var window: [Member]
        if head.isEmpty && skip == 0 && middle.count <= limit {
            window = middle  // the usual case of a large window: no copy
        } else {
            window = try named(head, store, commit)
            window += middle.dropFirst(skip).prefix(limit - window.count)
        }
        if window.count < limit && afterCount > 0 {
            let need = min(limit - window.count, afterCount)
            if unchangedAfter == 0 {
                window += try named(Array(addedAfter.prefix(need)), store, commit)
            } else {
                guard timeColumn == nil,
                    let walked = store.searchIndex.walk(from: hi, forward: true, ascending: asc, filter: filter, count: need),
                    walked.count == need
                else { return nil }
                window += try named(walked, store, commit)
            }
        }
        return Followed(total: newTotal, members: window)
    }

    /// The places as members, their ids read once a commit for every query that needs them.
    func named(_ places: [SearchIndex.Place], _ store: ContactStore, _ commit: LiveCommit) throws -> [Member] {
        if places.isEmpty { return [] }
        let missing = places.map(\.rowid).filter { commit.ids.known[$0] == nil }
        if !missing.isEmpty {
            for (rowid, id) in try store.ids(ofRowids: missing) { commit.ids.known[rowid] = id }
        }
        return places.compactMap { p in commit.ids.known[p.rowid].map { Member(id: $0, rowid: p.rowid, key: p.key) } }
    }
}
