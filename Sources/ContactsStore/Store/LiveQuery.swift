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
    public struct Member: Sendable, Equatable {
        public var id: String
        public var rowid: Int64
        /// The sort key (empty in an order by time).
        var key: [UInt8]

        var place: SearchIndex.Place { SearchIndex.Place(rowid: rowid, key: key) }
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
        filter = SearchIndex.Filter(needles: needles, favoritesOnly: query.favoritesOnly, members: nil)
    }

    /// Whether the query orders by name alone, the order the index keeps.
    var inNameOrder: Bool { query.sort.count <= 1 && (query.sort.first?.field ?? .name) == .name }
    var ascending: Bool { query.sort.first?.ascending ?? true }
    /// The text matches nothing (letters the folding drops): nothing ever matches.
    var matchesNothing: Bool { query.text.map { !$0.trimmingWhitespace().isEmpty && filter.needles.isEmpty } ?? false }

    /// Puts the window and total in place (opened, or answered again).
    func set(total: Int, members: [Member], state: Int64) {
        self.total = total
        self.members = members
        self.state = state
    }

    /// Brings the window to the commit's state and says what changed in it; nil when nothing
    /// did. `store` answers the query again when the change cannot be followed.
    func advance(_ commit: LiveCommit, in store: ContactStore) throws -> LiveQueryChange? {
        let old = members
        let (oldTotal, from) = (total, state)
        let fresh = try (commit.replaced ? nil : follow(commit, in: store)) ?? store.liveWindow(self)
        set(total: fresh.total, members: fresh.members, state: commit.state)
        let touched = commit.changedIDs
        var change = LiveQueryChange.between(
            old, fresh.members, offset: query.offset, changed: { touched.contains($0.id) }, from: from, to: commit.state,
            total: fresh.total)
        change.origin = commit.origin
        if commit.replaced || change.size > resetBound(old.count, fresh.members.count) {
            return LiveQueryChange(from: from, to: commit.state, total: fresh.total, reset: true, origin: commit.origin)
        }
        if change.size == 0 && change.touched.isEmpty && fresh.total == oldTotal { return nil }
        return change
    }

    /// A change with more entries than this is a reset: more than the window holds (the
    /// whole list without a window), and never more than a thousand.
    func resetBound(_ before: Int, _ after: Int) -> Int { min(query.limit ?? max(before, after, 1), 1000) }

    /// The window and total after a commit, worked out from the window before and the
    /// contacts the commit changed; nil when that cannot be done (then the query is answered
    /// again).
    func follow(_ commit: LiveCommit, in store: ContactStore) throws -> (total: Int, members: [Member])? {
        guard inNameOrder, query.account == nil, let before = commit.before, let after = commit.after else { return nil }
        if matchesNothing { return (0, []) }
        let inWindow = Set(members.map(\.rowid))
        var filter = self.filter
        if let groupRowid {
            // Memberships the commit changed, or a deleted contact the window did not hold, leave
            // what matched before unknown.
            if commit.membershipsChanged || !commit.deleted.isSubset(of: inWindow) { return nil }
            filter.members = Set(try store.read { db in try ContactStore.memberRowids(db, groupRowid: groupRowid) })
        } else if query.group != nil {
            return (0, [])
        }
        let asc = ascending
        func sorted(_ places: [SearchIndex.Place]) -> [SearchIndex.Place] { places.sorted { $0.precedes($1, ascending: asc) } }
        var wasIn: [SearchIndex.Place] = [], isIn: [SearchIndex.Place] = []
        for x in commit.rowids {
            if let e = before[x] {
                if inWindow.contains(x) || filter.matches(e) { wasIn.append(SearchIndex.Place(rowid: x, key: e.key)) }
            } else if inWindow.contains(x) {
                return nil
            }
            if let e = after[x], filter.matches(e) { isIn.append(SearchIndex.Place(rowid: x, key: e.key)) }
        }
        let newTotal = total - wasIn.count + isIn.count
        let offset = query.offset, limit = query.limit ?? Int.max
        var window: [SearchIndex.Place] = []
        guard let first = members.first, let last = members.last else {
            // An empty window over an empty list: the list is what matches now.
            guard total == 0 else { return nil }
            window = Array(sorted(isIn).dropFirst(offset).prefix(limit))
            return (newTotal, try named(window, store: store, commit: commit))
        }
        let (lo, hi) = (first.place, last.place)
        // The list now: what lies before the window's first place, the window's range, and
        // what lies after its last.
        let addedBefore = sorted(isIn.filter { $0.precedes(lo, ascending: asc) })
        let addedAfter = sorted(isIn.filter { hi.precedes($0, ascending: asc) })
        let unchangedBefore = offset - wasIn.filter { $0.precedes(lo, ascending: asc) }.count
        let unchangedAfter = (total - offset - members.count) - wasIn.filter { hi.precedes($0, ascending: asc) }.count
        let middle = sorted(
            members.filter { !commit.rowids.contains($0.rowid) }.map(\.place)
                + isIn.filter { !$0.precedes(lo, ascending: asc) && !hi.precedes($0, ascending: asc) })
        let beforeCount = unchangedBefore + addedBefore.count
        let afterCount = unchangedAfter + addedAfter.count
        if beforeCount > offset {
            // The window now starts before its first place: the last of what lies before it.
            let need = beforeCount - offset
            if need > limit { return nil }
            if unchangedBefore == 0 {
                window = Array(addedBefore.suffix(need))
            } else {
                guard let walked = store.searchIndex.walk(from: lo, forward: false, ascending: asc, filter: filter, count: need),
                    walked.count == need
                else { return nil }
                window = walked.reversed()
            }
        }
        let skip = max(0, offset - beforeCount)
        if skip > middle.count { return nil }
        window += middle.dropFirst(skip).prefix(limit - window.count)
        if window.count < limit && afterCount > 0 {
            let need = min(limit - window.count, afterCount)
            if unchangedAfter == 0 {
                window += addedAfter.prefix(need)
            } else {
                guard let walked = store.searchIndex.walk(from: hi, forward: true, ascending: asc, filter: filter, count: need),
                    walked.count == need
                else { return nil }
                window += walked
            }
        }
        return (newTotal, try named(window, store: store, commit: commit))
    }

    /// The places as members: ids from the window before, else from the store (once a commit).
    func named(_ places: [SearchIndex.Place], store: ContactStore, commit: LiveCommit) throws -> [Member] {
        var ids: [Int64: String] = [:]
        for m in members { ids[m.rowid] = m.id }
        let missing = places.map(\.rowid).filter { ids[$0] == nil && commit.ids.known[$0] == nil }
        if !missing.isEmpty {
            for (rowid, id) in try store.ids(ofRowids: missing) { commit.ids.known[rowid] = id }
        }
        return places.compactMap { p in
            (ids[p.rowid] ?? commit.ids.known[p.rowid]).map { Member(id: $0, rowid: p.rowid, key: p.key) }
        }
    }
}
