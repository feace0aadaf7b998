import ContactsCore
import ContactsSupport
import JSONCore

/// An address that matches a mail client's query, with the contact it is on.
public struct RankedAddress: Sendable, Equatable {
    public var address: String
    public var label: String?
    /// The contact's id, name and whether it was collected.
    public var contactID: String
    public var name: String
    public var collected: Bool
    /// How often and when it was seen in mail; nil: never (or not asked for).
    public var statistics: MailStatistics? = nil
}

/// The addresses a mail client completes: every contact that matches (collected ones too),
/// its addresses ranked by how the user mails them.
extension ContactStore {
    /// The addresses of the contacts that match `text` (as search matches), best first:
    /// written to before only heard from before never seen in mail; within each, a match at
    /// the start of a name or address before one inside it, then the more often and more
    /// lately seen, then name order. An address on several contacts is given once (an
    /// ordinary contact's before a collected one's). `total` counts the matching contacts.
    /// `statistics`: with each address's counts and dates (read for the addresses given).
    public func mailAddresses(matching text: String, limit: Int, statistics: Bool = true) throws -> (
        total: Int, addresses: [RankedAddress]
    ) {
        noteRead()
        let patterns = SearchDocument.patterns(for: text)
        if !text.trimmingWhitespace().isEmpty && patterns.isEmpty { return (0, []) }
        return try read { db in
            // One read transaction for the rows below (each a statement reset and stepped
            // again): without it, each would take and drop SQLite's locks on the WAL.
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            try searchIndex.loadIfNeeded(db)
            let ranks = try mailRanks(db)
            let matches = searchIndex.matchesWithStarts(patterns: patterns.map { Array($0.utf8) }, collected: .included)
            let order = Self.mailOrder(matches, ranks: ranks.byRowid)
            var out: [RankedAddress] = []
            out.reserveCapacity(min(limit, 1000))
            var given = GivenAddresses()
            var next = order[...]
            // Contacts without an address match too: read on until `limit` addresses are found.
            // Each contact's id, name and the emails of its body (the rest of the body stepped
            // over, not built), a cached statement a row: not the whole contact decoded; the
            // rows the last queries read are kept until the next commit. (Whether a contact was
            // collected, the search index knows.)
            let known = mailRows.rows(at: ranks.state)
            var read: [Int64: MailRows.Row] = [:]
            let select = try db.prepare("SELECT id, name, body FROM contacts WHERE rowid = ?")
            defer { select.reset() }
            while out.count < limit, let i = next.popFirst() {
                let rowid = matches[i].rowid
                let row: MailRows.Row
                if let kept = known[rowid] {
                    row = kept
                } else {
                    guard let fresh = try Self.mailRow(select, rowid) else { continue }
                    (row, read[rowid]) = (fresh, fresh)
                }
                let addresses = row.emails.map {
                    RankedAddress(address: $0.value, label: $0.label, contactID: row.id, name: row.name, collected: matches[i].collected)
                }
                for a in Self.ordered(addresses, ranks: ranks) where out.count < limit && given.insert(a.address) {
                    out.append(a)
                }
            }
            mailRows.keep(read, at: ranks.state)
            if statistics {
                for i in out.indices where ranks.rank(of: out[i].address) != nil {
                    out[i].statistics = try Self.statistics(db, MailAddress.key(out[i].address))
                }
            }
            return (matches.count, out)
        }
    }

    /// A contact's id, name and addresses, read with `select` (nil: no such row).
    static func mailRow(_ select: Statement, _ rowid: Int64) throws -> MailRows.Row? {
        select.reset()
        try select.bind([.int(rowid)])
        guard try select.step() else { return nil }
        let emails = select.withBytes(2) { (try? JSONParser.members($0, ["emails"]))?[0]?.arrayValue ?? [] }
        return MailRows.Row(
            id: select.text(0), name: select.text(1),
            emails: emails.compactMap { e in e["value"]?.stringValue.map { ($0, e["label"]?.stringValue) } })
    }

    /// The ranks as of the store's last commit.
    func mailRanks(_ db: Database) throws -> MailRanking.Ranks {
        let state = try CommitState.read(db).state
        return try mailRanking.ranks(at: state) { try MailRanking.load(db) }
    }

    /// The positions of `matches` (in name order) best first for mail: ranked contacts by tier,
    /// a match at a start, rank, an ordinary contact before a collected one, then name order;
    /// the rest with matches at a start first.
    static func mailOrder(_ matches: [(rowid: Int64, atStart: Bool, collected: Bool)], ranks: MailRanking.Table) -> [Int] {
        var ranked: [(i: Int, rank: Double, atStart: Bool, collected: Bool)] = []
        var atStart: [Int] = [], inside: [Int] = []
        for (i, m) in matches.enumerated() {
            if let r = ranks[m.rowid] {
                ranked.append((i, r, m.atStart, m.collected))
            } else if m.atStart {
                atStart.append(i)
            } else {
                inside.append(i)
            }
        }
        // The tier and the two flags in one key, compared before the rank (then the position,
        // which keeps name order among equals).
        func key(_ r: (i: Int, rank: Double, atStart: Bool, collected: Bool)) -> Int {
            Int(r.rank.rounded(.down)) * 4 + (r.atStart ? 2 : 0)
        }
        let keyed = ranked.map { (key: key($0), rank: $0.rank, collected: $0.collected, i: $0.i) }.sorted { a, b in
            if a.key != b.key { return a.key > b.key }
            if a.rank != b.rank { return a.rank > b.rank }
            if a.collected != b.collected { return !a.collected }
            return a.i < b.i
        }
        return keyed.map(\.i) + atStart + inside
    }

    /// One contact's addresses, the best ranked first (an ordinary contact's before a
    /// collected one's among equals, so that the ordinary one is kept of an address on both).
    static func ordered(_ addresses: [RankedAddress], ranks: MailRanking.Ranks) -> [RankedAddress] {
        if addresses.count < 2 { return addresses }
        let rank = addresses.map { ranks.rank(of: $0.address) ?? 0 }
        return addresses.indices.sorted { rank[$0] != rank[$1] ? rank[$0] > rank[$1] : $0 < $1 }.map { addresses[$0] }
    }
}

/// The addresses a query has given, so that each is given once (by `MailAddress.key`): found
/// by the 64-bit hash of the key, made without a string; the keys are compared only when two
/// hashes agree, so that two addresses sharing a hash are both given.
private struct GivenAddresses {
    private var byHash: [Int64: String] = [:]
    /// The keys of addresses whose hash an earlier, other address had.
    private var sharingAHash: Set<String> = []

    /// Whether `address` is new (and now given).
    mutating func insert(_ address: String) -> Bool {
        let hash = MailRanking.key(address)
        guard let first = byHash[hash] else {
            byHash[hash] = address
            return true
        }
        let key = MailAddress.key(address)
        return MailAddress.key(first) != key && sharingAHash.insert(key).inserted
    }
}
