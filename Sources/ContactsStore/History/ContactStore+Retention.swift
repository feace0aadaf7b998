import ContactsCore
import ContactsSupport

/// How long the history keeps what it keeps: changes older than `days`, and the oldest
/// beyond `maxBytes` of kept states, go. Pruned in the background, never on a client's
/// request; a photo only the pruned history referred to goes with it.
public struct HistoryRetention: Sendable, Equatable {
    public var days: Int
    public var maxBytes: Int

    public init(days: Int = 30, maxBytes: Int = 256 << 20) {
        self.days = days
        self.maxBytes = maxBytes
    }
}

extension ContactStore {
    /// Prunes the history as `retention` says, as of `now` (milliseconds since 1970); returns
    /// how many changes went. Operations left with nothing to show go too, unless a contact
    /// still names one as its making.
    @discardableResult
    public func pruneHistory(_ retention: HistoryRetention, now: Int64 = Timestamp.now()) throws -> Int {
        let cutoff = now - Int64(retention.days) * 86_400_000
        return try write(origin: "retention") { db, log in
            var gone = 0
            var photos = Set<String>()
            func collect(_ sql: String, _ args: [SQLValue]) throws {
                let s = try db.prepare("SELECT photo_hash FROM history WHERE photo_hash IS NOT NULL AND " + sql)
                try s.bind(args)
                while try s.step() { photos.insert(s.text(0)) }
                s.reset()
                try db.prepare("DELETE FROM history WHERE " + sql).run(args)
                gone += db.changes
            }
            try collect("operation IN (SELECT id FROM operations WHERE at < ?)", [.int(cutoff)])
            // Then the oldest, all but the latest that fit in the limit together.
            try collect(
                """
                rowid <= coalesce((SELECT rowid FROM (SELECT rowid, sum(coalesce(length(before), 0)) OVER (ORDER BY rowid DESC) AS kept
                    FROM history) WHERE kept > ?1 ORDER BY rowid DESC LIMIT 1), 0)
                """, [.int(Int64(retention.maxBytes))])
            try db.prepare(
                """
                DELETE FROM operations WHERE at < ?
                    AND id NOT IN (SELECT operation FROM history)
                    AND id NOT IN (SELECT created_operation FROM contacts WHERE created_operation IS NOT NULL)
                    AND id NOT IN (SELECT created_operation FROM trash WHERE created_operation IS NOT NULL)
                """
            ).run([.int(cutoff)])
            // Removals from books are small and make sync tokens last: kept at least a day
            // even with the history off.
            try CommitState.prune(db, before: now - Int64(max(retention.days, 1)) * 86_400_000)
            log.releasedPhotos.formUnion(photos)
            return gone
        }
    }
}
