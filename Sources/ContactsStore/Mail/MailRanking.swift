import ContactsSupport

/// Where each contact and address ranks by mail (`MailStatistics.rank`), read once from the
/// store and kept until its next commit: a mail client asks as someone types, and a store
/// with tens of thousands of addresses is not read again for each key.
final class MailRanking: Sendable {
    struct Ranks: Sendable {
        /// The commit state they were read at.
        var state: Int64 = -1
        /// Each contact's best address's rank.
        var byRowid: [Int64: Double] = [:]
        /// Each address's statistics, by key.
        var byAddress: [String: MailStatistics] = [:]
    }

    private let ranks = Locked(Ranks())

    /// The ranks as of commit `state`, read by `load` when those kept are older.
    func ranks(at state: Int64, load: () throws -> Ranks) rethrows -> Ranks {
        let kept = ranks.withLock { $0 }
        if kept.state == state { return kept }
        var fresh = try load()
        fresh.state = state
        ranks.withLock { if $0.state < state { $0 = fresh } }
        return fresh
    }

    /// Forgets them (a restore put another store in place).
    func reset() { ranks.withLock { $0 = Ranks() } }

    /// Every address seen in mail, with the contacts that have it.
    static func load(_ db: Database) throws -> Ranks {
        var r = Ranks()
        let s = try db.prepare(
            """
            SELECT e.contact_rowid, m.address, m.received, m.received_at, m.received_score, m.sent, m.sent_at, m.sent_score
            FROM mail_addresses m LEFT JOIN contact_emails e ON e.address = m.address
            """)
        defer { s.reset() }
        while try s.step() {
            let stats = ContactStore.statistics(s, from: 2)
            r.byAddress[s.text(1)] = stats
            guard let rowid = s.optionalInt64(0) else { continue }
            let rank = stats.rank
            if rank > r.byRowid[rowid] ?? -1 { r.byRowid[rowid] = rank }
        }
        return r
    }
}
