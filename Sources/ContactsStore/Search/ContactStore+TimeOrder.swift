import ContactsCore

/// Matches in the order they were made or last changed. The search index keeps name order
/// only (two times would cost it 16 bytes a contact, 16 MiB a million); these orders read the
/// times from the database, where an index keeps each in order.
extension ContactStore {
    /// The page `offset ..< offset + limit` of `rowids` (matches, in name order) ordered by
    /// `column` (`created_at` or `updated_at`), ties in name order.
    static func timeOrdered(_ db: Database, _ rowids: [Int64], column: TimeColumn, ascending: Bool, offset: Int, limit: Int?)
        throws -> [Int64]
    {
        var end = rowids.count
        if let limit, case let (sum, overflow) = offset.addingReportingOverflow(limit), !overflow { end = min(end, sum) }
        guard offset < end else { return [] }
        let positions = NamePositions(rowids)
        var ordered: [Int64] = []
        ordered.reserveCapacity(end)
        if rowids.count <= timesByRowidLimit {
            // A few matches: their times, read by rowid.
            var timed = try fetch(db, rowids: rowids, columns: "c.rowid, c.\(column.rawValue)") { s in
                (time: s.int64(1), position: positions[s.int64(0)] ?? 0)
            }
            timed.sort { a, b in a.time == b.time ? a.position < b.position : (ascending ? a.time < b.time : a.time > b.time) }
            ordered = timed.prefix(end).map { rowids[$0.position] }
        } else {
            // Many: the column's index walked in order, each run of equal times put in name
            // order, until the page is full.
            let s = try db.prepare(
                "SELECT rowid, \(column.rawValue) FROM contacts ORDER BY \(column.rawValue) \(ascending ? "ASC" : "DESC")")
            defer { s.reset() }
            var run: [Int] = []
            var runTime: Int64?
            func flush() {
                run.sort()
                for p in run where ordered.count < end { ordered.append(rowids[p]) }
                run.removeAll(keepingCapacity: true)
            }
            while ordered.count < end, try s.step() {
                guard let p = positions[s.int64(0)] else { continue }
                let time = s.int64(1)
                if time != runTime { flush() }
                runTime = time
                run.append(p)
            }
            flush()
        }
        return Array(ordered.dropFirst(offset))
    }

    /// Above this many matches, walking the whole index of times costs less than reading
    /// each match's time by its rowid.
    nonisolated(unsafe) static var timesByRowidLimit = 20_000

    enum TimeColumn: String {
        case created = "created_at"
        case updated = "updated_at"
    }

    /// Where each rowid stands in the name order of the matches: an array indexed by rowid
    /// where rowids are dense (they mostly are), else a dictionary.
    struct NamePositions {
        private var dense: [Int32] = []
        private var sparse: [Int64: Int] = [:]

        init(_ rowids: [Int64]) {
            let top = rowids.max() ?? 0
            if top < Int64(4 * rowids.count + 1024), rowids.count < Int(Int32.max), rowids.allSatisfy({ $0 >= 0 }) {
                dense = [Int32](repeating: -1, count: Int(top) + 1)
                for (p, r) in rowids.enumerated() { dense[Int(r)] = Int32(p) }
            } else {
                sparse.reserveCapacity(rowids.count)
                for (p, r) in rowids.enumerated() { sparse[r] = p }
            }
        }

        subscript(rowid: Int64) -> Int? {
            if dense.isEmpty { return sparse[rowid] }
            guard rowid >= 0, rowid < Int64(dense.count), dense[Int(rowid)] >= 0 else { return nil }
            return Int(dense[Int(rowid)])
        }
    }
}
