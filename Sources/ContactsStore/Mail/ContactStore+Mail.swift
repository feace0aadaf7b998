import ContactsCore
import ContactsSupport
import Foundation

/// Addresses from mail: each message counted once, each address it names counted (heard from
/// or written to), and an address no contact has collected as a contact of its own.
extension ContactStore {
    /// Counts the messages in one transaction. An address on a contact already only counts;
    /// one no contact has becomes a collected contact (named as the message names it), so that
    /// the person's own book never fills with strangers.
    public func recordMail(_ sightings: [MailSighting], origin: String = "mail") throws -> MailRecording {
        guard !sightings.isEmpty else { return MailRecording() }
        let now = Timestamp.now()
        return try write(origin: origin) { db, log in
            var result = MailRecording()
            let seen = try db.prepare("INSERT OR IGNORE INTO mail_messages (id) VALUES (?)")
            let known = try db.prepare("SELECT 1 FROM contact_emails WHERE address = ? LIMIT 1")
            var stats: [String: MailStatistics] = [:]
            // Addresses of this batch already on a contact (or collected now); those collected
            // now named by their address, and the name learnt for them later in the batch.
            var onContact: Set<String> = []
            var namedByAddress: [String: String?] = [:]
            for m in sightings {
                try seen.run([.text(m.messageID)])
                guard db.changes > 0 else {
                    result.repeated += 1
                    continue
                }
                result.messages += 1
                let at = min(m.date, now)
                var counted: Set<String> = []
                for (a, written) in m.writtenTo.map({ ($0, true) }) + m.heardFrom.map({ ($0, false) }) {
                    let key = a.key
                    guard !key.isEmpty, counted.insert(key).inserted else { continue }
                    if stats[key] == nil { stats[key] = try Self.statistics(db, key) ?? MailStatistics() }
                    stats[key]?.count(at: at, written: written)
                    result.addresses += 1
                    if onContact.contains(key) {
                        if namedByAddress[key] == .some(nil), Self.isName(a.name, for: a.address) { namedByAddress[key] = a.name }
                        continue
                    }
                    try known.bind([.text(key)])
                    let has = try known.step()
                    known.reset()
                    onContact.insert(key)
                    if has {
                        try Self.nameCollected(db, key: key, name: a.name, address: a.address, log: &log)
                        continue
                    }
                    var c = Contact(name: Self.isName(a.name, for: a.address) ? a.name : a.address)
                    c.emails = [LabeledValue(value: a.address)]
                    c.collected = true
                    let made = try Self.insert(db, c, log: &log)
                    if c.name == a.address { namedByAddress[key] = .some(nil) }
                    result.collected.append(made.id)
                }
            }
            // A name learnt later in the batch for a contact collected earlier in it.
            for (key, learnt) in namedByAddress {
                if let name = learnt { try Self.nameCollected(db, key: key, name: name, address: key, log: &log) }
            }
            try Self.saveStatistics(db, stats)
            return result
        }
    }

    /// Whether a display name says more than the address (not empty, not the address again).
    static func isName(_ name: String, for address: String) -> Bool {
        let n = name.trimmingWhitespace()
        return !n.isEmpty && MailAddress.key(n) != MailAddress.key(address)
    }

    /// Gives a collected contact named only by its address the name a message gave it (the
    /// contact stays collected: this is no person's edit).
    static func nameCollected(_ db: Database, key: String, name: String, address: String, log: inout ChangeLog) throws {
        guard isName(name, for: address) else { return }
        // The contacts with the address by its index, then each by its rowid: asked in one
        // statement, SQLite would read every contact's body for its collected flag.
        let withAddress = try db.prepare("SELECT contact_rowid FROM contact_emails WHERE address = ?")
        try withAddress.bind([.text(key)])
        var rowids: [Int64] = []
        while try withAddress.step() { rowids.append(withAddress.int64(0)) }
        withAddress.reset()
        let row = try db.prepare("SELECT id, name, collected FROM contacts WHERE rowid = ?")
        var found: String?
        for rowid in rowids where found == nil {
            try row.bind([.int(rowid)])
            if try row.step(), row.int64(2) == 1, MailAddress.key(row.text(1)) == key { found = row.text(0) }
            row.reset()
        }
        guard let id = found else { return }
        guard var c = try fetch(db, id: id, withCard: true) else { return }
        let before = c
        c.name = name.trimmingWhitespace()
        try rewrite(db, &c, previous: before, log: &log)
    }

    static func statistics(_ db: Database, _ key: String) throws -> MailStatistics? {
        let s = try db.prepare(
            "SELECT received, received_at, received_score, sent, sent_at, sent_score FROM mail_addresses WHERE address = ?")
        defer { s.reset() }
        try s.bind([.text(key)])
        guard try s.step() else { return nil }
        return statistics(s, from: 0)
    }

    /// The statistics in the columns of `s` from `i` on (received, its time and score, sent, its time and score).
    static func statistics(_ s: Statement, from i: Int32) -> MailStatistics {
        var m = MailStatistics()
        m.received = s.int(i)
        m.lastReceived = s.optionalInt64(i + 1)
        m.receivedScore = s.double(i + 2)
        m.sent = s.int(i + 3)
        m.lastSent = s.optionalInt64(i + 4)
        m.sentScore = s.double(i + 5)
        return m
    }

    static func saveStatistics(_ db: Database, _ stats: [String: MailStatistics]) throws {
        let s = try db.prepare(
            """
            INSERT OR REPLACE INTO mail_addresses (address, received, received_at, received_score, sent, sent_at, sent_score)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for (key, m) in stats {
            try s.run([
                .text(key), .int(Int64(m.received)), m.lastReceived.map { .int($0) } ?? .null, .real(m.receivedScore),
                .int(Int64(m.sent)), m.lastSent.map { .int($0) } ?? .null, .real(m.sentScore),
            ])
        }
    }

    /// Makes collected contacts ordinary (`contactsctl keep`): they join lists, searches,
    /// exports and sync from now on.
    public func keep(id: String, origin: String = CommitOrigin.current) throws -> Contact {
        try update(id: id, origin: origin) { $0.collected = false }
    }

    /// How often and when each of these addresses was seen in mail (by key; those never seen
    /// are left out).
    public func mailStatistics(_ addresses: [String]) throws -> [String: MailStatistics] {
        try read { db in
            var out: [String: MailStatistics] = [:]
            for a in addresses {
                let key = MailAddress.key(a)
                if out[key] == nil, let m = try Self.statistics(db, key) { out[key] = m }
            }
            return out
        }
    }
}
