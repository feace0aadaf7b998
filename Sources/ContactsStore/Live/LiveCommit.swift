/// What live queries learn of one commit: which contacts' entries in the search index it
/// changed, as they were and as they are (for a small commit), and what else it changed that a
/// query's matches depend on.
struct LiveCommit {
    /// How many contacts a commit may change for live queries to follow it contact by contact;
    /// beyond, each query is answered again from the index.
    static let followLimit = 64

    var state: Int64
    var origin: String
    /// Contacts whose entry in the index the commit changed (made, edited, deleted, their
    /// phones read as numbers, their timestamps moved by a group).
    var rowids: Set<Int64> = []
    var deleted: Set<Int64> = []
    /// Their entries before and after; nil when the commit changed too many to say.
    var before: [Int64: SearchIndex.Entry]?
    var after: [Int64: SearchIndex.Entry]?
    /// The ids of the contacts the commit made or changed.
    var changedIDs: Set<String> = []
    var membershipsChanged = false
    var accountsChanged = false
    /// The whole store was replaced (a restore).
    var replaced = false

    /// Ids of contacts read once for every query that needs them in this commit.
    var ids = IDMemo()

    final class IDMemo {
        var known: [Int64: String] = [:]
        /// The times of the commit's contacts, by column, read once for every query in a time order.
        var times: [ContactStore.TimeColumn: [Int64: Int64]] = [:]
    }

    /// The times in `column` of the contacts the commit left in the index.
    func times(_ column: ContactStore.TimeColumn, in store: ContactStore) throws -> [Int64: Int64] {
        if let known = ids.times[column] { return known }
        let read = try store.times(of: after.map { Array($0.keys) } ?? [], column: column)
        ids.times[column] = read
        return read
    }

    /// The commit as `log` records it, its entries read from the index before the index
    /// learns it (when few enough).
    static func before(_ log: ChangeLog, index: SearchIndex) -> LiveCommit {
        var c = LiveCommit(state: log.state, origin: log.origin)
        c.rowids = log.indexDeletes.union(log.indexUpserts.map(\.rowid)).union(log.indexRefresh).union(log.indexTexts.keys)
        c.deleted = log.indexDeletes.subtracting(log.indexUpserts.map(\.rowid))
        c.changedIDs = Set(log.contacts.lazy.filter { $0.kind != .deleted }.map(\.id))
        c.membershipsChanged = log.membershipsChanged
        c.accountsChanged = log.accountsChanged
        if c.rowids.count <= followLimit && index.loaded { c.before = index.entries(of: c.rowids) }
        return c
    }

    /// The entries as the index holds them once it has learnt the commit.
    mutating func readAfter(_ index: SearchIndex) {
        guard before != nil else { return }
        if index.loaded { after = index.entries(of: rowids) } else { before = nil }
    }
}
