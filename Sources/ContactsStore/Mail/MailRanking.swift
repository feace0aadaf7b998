import ContactsSupport

/// Where each contact and address ranks by mail (`MailStatistics.rank`), read once from the
/// store and kept until its next commit: a mail client asks as someone types, and a store
/// with tens of thousands of addresses is not read again for each key. Only the ranks are
/// kept, in sorted tables of a 64-bit key and a rank (16 bytes each: 50k addresses cost under
/// 2 MiB kept, not the 16 MiB their statistics took; contacts' ranks indexed by rowid, 8 bytes
/// each); the counts and dates of the few addresses a query gives are read when asked for.
final class MailRanking: Sendable {
    /// Ranks by key: sorted and looked up by bisection, or indexed by the key itself when the
    /// keys are small and close together.
    struct Table: Sendable {
        private var keys: [Int64] = []
        private var ranks: [Double] = []
        /// Keys that are small and close together (contacts' rowids) index the ranks directly
        /// (NaN: none), in fewer bytes than keys and ranks both: a query looks up every
        /// matching contact, and a bisection of 50k keys is a dozen cache misses each.
        private var dense: [Double]? = nil

        init() {}

        /// From (key, rank) pairs; a key given twice keeps its highest rank.
        init(_ pairs: [(key: Int64, rank: Double)]) {
            let sorted = pairs.sorted { $0.key != $1.key ? $0.key < $1.key : $0.rank > $1.rank }
            if let first = sorted.first, let last = sorted.last, first.key >= 0, last.key < 2 * Int64(sorted.count) + 1024 {
                var dense = [Double](repeating: .nan, count: Int(last.key) + 1)
                for p in sorted.reversed() { dense[Int(p.key)] = p.rank }
                self.dense = dense
                return
            }
            keys.reserveCapacity(sorted.count)
            ranks.reserveCapacity(sorted.count)
            for p in sorted where keys.last != p.key {
                keys.append(p.key)
                ranks.append(p.rank)
            }
        }

        subscript(key: Int64) -> Double? {
            if let dense {
                guard key >= 0, key < dense.count, !dense[Int(key)].isNaN else { return nil }
                return dense[Int(key)]
            }
            var (low, high) = (0, keys.count)
            while low < high {
                let mid = (low + high) / 2
                if keys[mid] < key { low = mid + 1 } else { high = mid }
            }
            return low < keys.count && keys[low] == key ? ranks[low] : nil
        }
    }

    struct Ranks: Sendable {
        /// The commit state they were read at.
        var state: Int64 = -1
        /// Each contact's best address's rank, by rowid.
        var byRowid = Table()
        /// Each address's rank, by `MailRanking.key` of it.
        var byAddress = Table()

        /// The rank of an address (nil: never seen in mail).
        func rank(of address: String) -> Double? { byAddress[MailRanking.key(address)] }
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

    /// An address's key in `byAddress`: FNV-1a of its comparison key (64 bits: two of 50k
    /// addresses share one about once in 10^10 stores, and then only their order differs).
    static func key(_ address: String) -> Int64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        // MailAddress.key's bytes, folded one by one (no string made).
        for b in address.utf8 {
            h ^= UInt64(MailAddress.folded(b))
            h = h &* 0x100_0000_01b3
        }
        return Int64(bitPattern: h)
    }

    /// Every address seen in mail, with the contacts that have it.
    static func load(_ db: Database) throws -> Ranks {
        let s = try db.prepare(
            """
            SELECT e.contact_rowid, m.address, m.received, m.received_at, m.received_score, m.sent, m.sent_at, m.sent_score
            FROM mail_addresses m LEFT JOIN contact_emails e ON e.address = m.address
            """)
        defer { s.reset() }
        var byRowid: [(key: Int64, rank: Double)] = []
        var byAddress: [(key: Int64, rank: Double)] = []
        while try s.step() {
            let rank = ContactStore.statistics(s, from: 2).rank
            byAddress.append((key(s.text(1)), rank))
            if let rowid = s.optionalInt64(0) { byRowid.append((rowid, rank)) }
        }
        var r = Ranks()
        (r.byRowid, r.byAddress) = (Table(byRowid), Table(byAddress))
        return r
    }
}
