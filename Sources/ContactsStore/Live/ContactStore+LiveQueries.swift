import ContactsCore
import ContactsSupport
import Foundation

/// Live queries: a query kept open whose window the store brings up to date at each commit,
/// telling its owner what changed in it (`LiveQuery`, `LiveQueryChange`).
extension ContactStore {
    /// Opens a live query: its first window, at the state it is given with, and from then on
    /// one call of `onChange` (under the store's write lock: it must only hand the change on)
    /// for each commit that changes the window or the count of matches. `query`'s offset and
    /// limit are the window. With `since` (a state this store gave), also what changed in the
    /// window since then (`resume`); nil there when the change log no longer reaches back.
    public func openLiveQuery(
        _ query: ContactQuery, since: ChangeCursor? = nil, onChange: @escaping @Sendable (LiveQueryChange) -> Void
    ) throws -> (live: LiveQuery, resumed: LiveQueryResume?) {
        noteRead()
        writeLock.lock()
        defer { writeLock.unlock() }
        if isClosed { throw StoreError.unavailable("the store is closed") }
        var q = query
        var groupRowid: Int64?
        if let group = query.group {
            let g = try read { db in try Self.fetchGroup(db, group) }
            groupRowid = try read { db in try Self.groupRowid(db, id: g.id) }
            // Held by id: a rename does not change what the query is.
            q.group = g.id
        }
        if case .account(let name)? = query.account, try (read { db in try Self.hasAccount(db, name) }) == false {
            throw StoreError.notFound(kind: "account", id: name)
        }
        let live = LiveQuery(query: q, groupRowid: groupRowid, onChange: onChange)
        let window = try liveWindow(live)
        live.set(total: window.total, members: window.members, state: try commitState().state)
        let resumed = try since.flatMap { try resume(live, since: $0) }
        liveQueries.add(live)
        return (live, resumed)
    }

    /// Stops bringing the query up to date.
    public func closeLiveQuery(_ live: LiveQuery) { liveQueries.remove(live) }

    /// How many live queries are open.
    public var liveQueryCount: Int { liveQueries.count }

    /// The microseconds commits have spent bringing live queries up to date, in all.
    public var liveQueryMicroseconds: Int { liveQueries.spentNanoseconds.wall / 1000 }

    /// Of those, the microseconds of CPU time (the rest went waiting for a core).
    public var liveQueryCPUMicroseconds: Int { liveQueries.spentNanoseconds.cpu / 1000 }

    /// Returns once the live queries have followed every commit made so far and handed on
    /// what changed (they follow after the writer has its answer).
    public func awaitLiveQueries() { writeLock.withLock {} }

    /// The query's window, total and state, as one (a commit under way finishes first).
    public func snapshot(_ live: LiveQuery) -> (state: Int64, total: Int, members: [LiveQuery.Member]) {
        writeLock.lock()
        defer { writeLock.unlock() }
        return (live.state, live.total, live.members)
    }

    /// The query's window and total, answered from the index (or, for an order the index does
    /// not keep, as `contacts.query` answers it). `offset` and `limit` default to the window.
    func liveWindow(_ live: LiveQuery, offset: Int? = nil, limit: Int?? = nil) throws -> (total: Int, members: [LiveQuery.Member]) {
        if live.matchesNothing { return (0, []) }
        var q = live.query
        q.offset = offset ?? q.offset
        q.limit = limit ?? q.limit
        if q.group != nil && live.groupRowid == nil { return (0, []) }
        return try read { db in
            if live.inNameOrder && q.account == nil {
                try searchIndex.loadIfNeeded(db)
                var filter = live.filter
                if let g = live.groupRowid { filter.members = Set(try Self.memberRowids(db, groupRowid: g)) }
                let page = searchIndex.places(filter: filter, ascending: live.ascending, offset: q.offset, limit: q.limit)
                let ids = try Self.ids(db, rowids: page.places.map(\.rowid))
                return (
                    page.total, page.places.compactMap { p in ids[p.rowid].map { LiveQuery.Member(id: $0, rowid: p.rowid, key: p.key) } }
                )
            }
            let rowids: [Int64]
            let total: Int
            do {
                switch try matches(db, q, withCard: false) {
                case .page(let count, let page): (total, rowids) = (count, page)
                case .listed(let result):
                    total = result.total
                    let byID = try Self.rowids(db, ids: result.contacts.map(\.id))
                    rowids = result.contacts.compactMap { byID[$0.id] }
                }
            } catch StoreError.notFound(kind: "group", _) {
                return (0, [])
            }
            let ids = try Self.ids(db, rowids: rowids)
            // In a time order, each member's key is its time and name key (`LiveQuery.timeKey`),
            // for the window to be followed from.
            var keys: [Int64: [UInt8]] = [:]
            if case .time(let column) = live.order, q.offset == 0, live.query.account == nil, searchIndex.loaded {
                let times = try Self.times(db, rowids, column: column)
                let ascending = q.sort.first?.ascending ?? true
                for p in searchIndex.keys(of: rowids) {
                    if let t = times[p.rowid] { keys[p.rowid] = LiveQuery.timeKey(t, ascending: ascending, name: p.key) }
                }
            }
            return (total, rowids.compactMap { r in ids[r].map { LiveQuery.Member(id: $0, rowid: r, key: keys[r] ?? []) } })
        }
    }

    /// The times in `column` of these contacts, as a commit under way left them (read on the
    /// writer's connection, whose lock the caller holds).
    func times(of rowids: [Int64], column: TimeColumn) throws -> [Int64: Int64] {
        try Self.times(writer, rowids, column: column)
    }

    static func times(_ db: Database, _ rowids: [Int64], column: TimeColumn) throws -> [Int64: Int64] {
        var out: [Int64: Int64] = [:]
        for (rowid, t) in try fetch(db, rowids: rowids, columns: "c.rowid, c.\(column.rawValue)", { s in (s.int64(0), s.int64(1)) }) {
            out[rowid] = t
        }
        return out
    }

    /// What changed in a query's window since `cursor`, for a client that held it then:
    /// `removed` holds every contact changed or deleted since, and the contacts near the
    /// window's ends that may have crossed them; `added` those of the window now, with their
    /// places. (A window's ends move by at most one place a change: the contacts that
    /// entered it unchanged are within that many of an end.) Nil when the log no longer
    /// reaches back, or the change would be larger than the window.
    func resume(_ live: LiveQuery, since cursor: ChangeCursor) throws -> LiveQueryResume? {
        let cap = 1000
        guard let page = try changes(in: nil, after: cursor, limit: cap), !page.more else { return nil }
        let changedIDs = Set(page.changed.map(\.id))
        let gone = Set(page.removed.map(\.id)).union(changedIDs)
        let n = gone.count
        if n == 0 { return LiveQueryResume(removed: [], added: []) }
        let q = live.query
        var near = Set<String>()
        if q.offset > 0 || q.limit != nil {
            // The list around both ends of the window, 2n places either side.
            let start = max(0, q.offset - 2 * n)
            let end = q.limit.map { q.offset + $0 + 2 * n + 1 } ?? (q.offset + 2 * n + 1)
            let around = try liveWindow(live, offset: start, limit: .some(end - start))
            for (k, m) in around.members.enumerated() where !gone.contains(m.id) {
                let position = start + k
                let nearStart = q.offset > 0 && abs(position - q.offset) <= 2 * n
                let nearEnd = q.limit.map { abs(position - (q.offset + $0)) <= 2 * n } ?? false
                if nearStart || nearEnd { near.insert(m.id) }
            }
        }
        let removed = gone.union(near)
        let added = live.members.enumerated().filter { removed.contains($0.element.id) }.map {
            LiveQueryChange.Placed(id: $0.element.id, rowid: $0.element.rowid, index: q.offset + $0.offset)
        }
        if removed.count + added.count > max(live.resetBound(live.members.count, live.members.count), 2 * cap) { return nil }
        return LiveQueryResume(removed: removed.sorted(), added: added)
    }

    /// The ids of contacts by rowid, for live queries following a commit (once a commit, for
    /// all of them; on the writer's connection, whose lock the caller holds, a contact at a
    /// time by one prepared statement when they are few).
    func ids(ofRowids rowids: [Int64]) throws -> [Int64: String] {
        if rowids.count > 8 { return try Self.ids(writer, rowids: rowids) }
        let s = try writer.prepare("SELECT id FROM contacts WHERE rowid = ?")
        var out: [Int64: String] = [:]
        for rowid in rowids {
            try s.bind([.int(rowid)])
            if try s.step() { out[rowid] = s.text(0) }
            s.reset()
        }
        return out
    }

    static func ids(_ db: Database, rowids: [Int64]) throws -> [Int64: String] {
        var out: [Int64: String] = [:]
        out.reserveCapacity(rowids.count)
        for (rowid, id) in try fetch(db, rowids: rowids, columns: "c.rowid, c.id", { s in (s.int64(0), s.text(1)) }) { out[rowid] = id }
        return out
    }

    static func rowids(_ db: Database, ids: [String]) throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        for chunk in stride(from: 0, to: ids.count, by: 500) {
            let part = ids[chunk..<min(ids.count, chunk + 500)]
            let s = try db.prepare(
                "SELECT id, rowid FROM contacts WHERE id IN (\(Array(repeating: "?", count: part.count).joined(separator: ",")))")
            try s.bind(part.map { .text($0) })
            while try s.step() { out[s.text(0)] = s.int64(1) }
        }
        return out
    }

    static func hasAccount(_ db: Database, _ name: String) throws -> Bool {
        try db.scalarInt("SELECT count(*) FROM accounts WHERE name = ?", [.text(name)]) > 0
    }

    /// Brings every live query to a commit's state, under the write lock; a query that cannot
    /// be answered again is told to reset. The changes are handed on once every query is up
    /// to date, so that their owners' work on them does not compete with the commit for a core.
    func liveCommitted(_ commit: LiveCommit) {
        var told: [(LiveQuery, LiveQueryChange)] = []
        for live in liveQueries.all {
            do {
                if let change = try live.advance(commit, in: self) { told.append((live, change)) }
            } catch {
                told.append(
                    (live, LiveQueryChange(from: live.state, to: commit.state, total: live.total, reset: true, origin: commit.origin)))
            }
        }
        for (live, change) in told { live.onChange(change) }
    }
}

/// What changed in a live query's window since a state its client gave (`openLiveQuery`):
/// the client drops the `removed` ids from the window it held, then inserts the `added` at
/// their indexes, lowest first.
public struct LiveQueryResume: Sendable, Equatable {
    public var removed: [String]
    public var added: [LiveQueryChange.Placed]
}

/// The open live queries.
final class LiveQueryRegistry: Sendable {
    /// The queries, and the time commits spent on them (wall and CPU, in nanoseconds).
    private struct State {
        var queries: [ObjectIdentifier: LiveQuery] = [:]
        var spent = (wall: 0, cpu: 0)
    }
    private let state = Locked(State())

    func add(_ q: LiveQuery) { state.withLock { $0.queries[ObjectIdentifier(q)] = q } }

    func remove(_ q: LiveQuery) { state.withLock { $0.queries[ObjectIdentifier(q)] = nil } }

    var all: [LiveQuery] { state.withLock { Array($0.queries.values) } }

    var count: Int { state.withLock { $0.queries.count } }

    var isEmpty: Bool { count == 0 }

    /// The time a commit spent on the queries (reading its entries, following each query),
    /// and the CPU time of it.
    func spent(nanoseconds: UInt64, cpu: UInt64) {
        state.withLock { s in
            s.spent.wall += Int(nanoseconds)
            s.spent.cpu += Int(cpu)
        }
    }

    var spentNanoseconds: (wall: Int, cpu: Int) { state.withLock { $0.spent } }
}
