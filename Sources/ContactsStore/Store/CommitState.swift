import ContactsSupport

/// The store's commit sequence (`commit_state`): each write transaction takes the next
/// number, and every contact it makes, changes or moves keeps it. What changed after a
/// state is then the contacts with a later one and the removals kept with a later one —
/// as long as no removal after it has been pruned (`floor`).
enum CommitState {
    /// Takes the next state, in the write transaction that will carry it.
    static func next(_ db: Database) throws -> Int64 {
        try db.scalarInt("UPDATE commit_state SET state = state + 1 WHERE id = 0 RETURNING state")
    }

    /// The latest state and the oldest one the log still answers changes after.
    static func read(_ db: Database) throws -> (state: Int64, floor: Int64) {
        let s = try db.prepare("SELECT state, floor FROM commit_state WHERE id = 0")
        defer { s.reset() }
        guard try s.step() else { return (0, 0) }
        return (s.int64(0), s.int64(1))
    }

    /// Keeps the removal of the contacts `condition` picks (on `contacts c`) from their
    /// books, at `state`, before their rows go.
    static func recordRemovals(_ db: Database, where condition: String, _ args: [SQLValue], state: Int64) throws {
        try db.prepare(
            """
            INSERT OR REPLACE INTO removals (book, contact_id, name, state, at)
            SELECT CASE WHEN c.collected = 1 THEN '\(AccountScope.collected.removalsBook)'
                ELSE coalesce((SELECT si.account FROM sync_items si WHERE si.contact_id = c.id LIMIT 1), '') END, c.id,
                coalesce((SELECT name FROM served_names WHERE contact_id = c.id), c.id || '.vcf'), \(state), \(Timestamp.now())
            FROM contacts c WHERE \(condition)
            """
        ).run(args)
    }

    /// After the store's contents were replaced (a restore): the sequence goes on from past
    /// both the old contents' state and the new ones', and no earlier state is answered, so
    /// that a client holding a token from either starts again.
    static func restart(_ db: Database, after previous: Int64) throws {
        let (restored, _) = try read(db)
        let state = max(previous, restored) + 1
        try db.prepare("UPDATE commit_state SET state = ?1, floor = ?1 WHERE id = 0").run([.int(state)])
    }

    /// Forgets removals kept from before `cutoff` (milliseconds since 1970); states before
    /// the latest one forgotten are answered no more.
    static func prune(_ db: Database, before cutoff: Int64) throws {
        let s = try db.prepare("DELETE FROM removals WHERE at < ? RETURNING state")
        try s.bind([.int(cutoff)])
        var latest: Int64 = 0
        while try s.step() { latest = max(latest, s.int64(0)) }
        s.reset()
        if latest > 0 { try db.prepare("UPDATE commit_state SET floor = max(floor, ?) WHERE id = 0").run([.int(latest)]) }
    }
}
