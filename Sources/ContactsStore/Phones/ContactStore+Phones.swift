import ContactsCore
import ContactsSupport
import PhoneNumbers

/// A contact found by one of its numbers (caller ID): which phone, and how well it answers.
public struct PhoneLookupMatch: Sendable {
    public var contact: Contact
    /// The phone's position among the contact's phones.
    public var position: Int
    public var match: PhoneMatch

    public var phone: LabeledValue { contact.phones[position] }
}

/// Phones as numbers: each phone's keys in `phone_numbers` (E.164 and the last digits), made
/// in the region of `PhoneRegion.current`, and the lookup by number they serve.
extension ContactStore {
    /// The setting that says in which region the keys and search text were made ("" for none).
    static let phoneRegionSetting = "phoneRegion"

    /// Replaces a contact's phone keys (`isNew`: it has none yet).
    static func savePhoneKeys(_ db: Database, rowid: Int64, _ keys: [PhoneKeys], isNew: Bool = false) throws {
        if !isNew { try db.prepare("DELETE FROM phone_numbers WHERE contact_rowid = ?").run([.int(rowid)]) }
        guard !keys.isEmpty else { return }
        let insert = try db.prepare("INSERT INTO phone_numbers (contact_rowid, position, e164, tail) VALUES (?, ?, ?, ?)")
        for (i, k) in keys.enumerated() where k.e164 != nil || k.tail != nil {
            try insert.run([.int(rowid), .int(Int64(i)), k.e164.map { .text($0) } ?? .null, k.tail.map { .text($0) } ?? .null])
        }
    }

    /// Keys the phones of these contacts again and makes their search text again, in the
    /// region of now (their revision stays: nothing of theirs changed).
    static func rekeyPhones(_ db: Database, rowids: [Int64]) throws {
        let update = try db.prepare("UPDATE contacts SET search = ? WHERE rowid = ?")
        for (rowid, c) in try fetch(db, rowids: rowids, withCard: false, { ($0.int64(0), readContact($0)) }) where !c.phones.isEmpty {
            let keys = c.phoneKeys()
            try savePhoneKeys(db, rowid: rowid, keys)
            try update.run([.text(SearchDocument.text(for: c, phoneKeys: keys)), .int(rowid)])
        }
    }

    /// Keys every phone when the store's keys were made in another region than the current
    /// one, or never (a store from before phones were numbers). Returns how many contacts
    /// were keyed again.
    @discardableResult
    func keyPhonesIfNeeded() throws -> Int {
        let region = PhoneRegion.current ?? ""
        let made = try writer.scalarText("SELECT value FROM settings WHERE key = ?", [.text(Self.phoneRegionSetting)])
        guard made != region else { return 0 }
        var count = 0
        try writer.transaction {
            try writer.execute("DELETE FROM phone_numbers; DELETE FROM phones_unkeyed;")
            let s = try writer.prepare("SELECT rowid FROM contacts WHERE json_array_length(body, '$.phones') > 0")
            var rowids: [Int64] = []
            while try s.step() { rowids.append(s.int64(0)) }
            s.reset()
            for start in stride(from: 0, to: rowids.count, by: 500) {
                try Self.rekeyPhones(writer, rowids: Array(rowids[start..<min(rowids.count, start + 500)]))
            }
            count = rowids.count
            try writer.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)").run([
                .text(Self.phoneRegionSetting), .text(region),
            ])
        }
        if count > 0 {
            searchIndex.reset()
            cache.invalidate(nil)
        }
        return count
    }

    /// Keys the phones again after `PhoneRegion.current` changed (a reloaded configuration);
    /// returns how many contacts were keyed again.
    @discardableResult
    public func phoneRegionChanged() throws -> Int {
        writeLock.lock()
        defer { writeLock.unlock() }
        if isClosed { throw StoreError.unavailable("the store is closed") }
        return try keyPhonesIfNeeded()
    }

    /// The contacts with a phone that is `number`, best match first (the same E.164 number,
    /// then the same national number, then the same last seven digits), at most `limit`.
    /// Found through the keys' indexes, not by reading every contact.
    public func lookupPhone(_ number: String, limit: Int = 20) throws -> [PhoneLookupMatch] {
        noteRead()
        let region = PhoneRegion.current
        let asked = PhoneKeys(number, region: region)
        guard asked.e164 != nil || asked.tail != nil else { return [] }
        return try read { db in
            var candidates: [(rowid: Int64, position: Int)] = []
            let s = try db.prepare(
                "SELECT contact_rowid, position FROM phone_numbers WHERE e164 = ?1 UNION SELECT contact_rowid, position FROM phone_numbers WHERE tail = ?2 LIMIT 1000"
            )
            try s.bind([asked.e164.map { .text($0) } ?? .null, asked.tail.map { .text($0) } ?? .null])
            while try s.step() { candidates.append((s.int64(0), Int(s.int64(1)))) }
            s.reset()
            // Contacts of a large import whose phones are not keyed yet: by the tail of their
            // digits, held in memory (else a scan of those alone), every phone a candidate.
            var waiting: [Int64] = []
            if let tail = asked.tail, try Self.phonesWait(db) {
                if let known = waitingTails.rowids(tail: tail) {
                    waiting = known
                } else {
                    let w = try db.prepare(
                        "SELECT c.rowid FROM phones_unkeyed u JOIN contacts c ON c.rowid = u.contact_rowid WHERE instr(c.search, ?) > 0 LIMIT 1000"
                    )
                    try w.bind([.text(tail)])
                    while try w.step() { waiting.append(w.int64(0)) }
                    w.reset()
                }
            }
            let read = try Self.fetch(db, rowids: Array(Set(candidates.map(\.rowid) + waiting)), withCard: false) {
                ($0.int64(0), Self.readContact($0))
            }
            let byRowid = Dictionary(read, uniquingKeysWith: { a, _ in a })
            // A contact keyed since its tail was kept has rows too: each phone once.
            var seen = Set(candidates.map { "\($0.rowid):\($0.position)" })
            for rowid in Set(waiting) {
                for position in byRowid[rowid]?.phones.indices ?? 0..<0 where seen.insert("\(rowid):\(position)").inserted {
                    candidates.append((rowid, position))
                }
            }
            let parsed = PhoneNumber.parse(number, region: region, withType: false)
            var out: [PhoneLookupMatch] = []
            for (rowid, position) in candidates {
                guard let c = byRowid[rowid], position < c.phones.count,
                    let m = PhoneMatch.of(c.phones[position].value, asking: parsed, number, region: region)
                else { continue }
                out.append(PhoneLookupMatch(contact: c, position: position, match: m))
            }
            // Best match first; among equals, by name, then the phone's place.
            out.sort { a, b in
                if a.match != b.match { return a.match < b.match }
                if a.contact.name != b.contact.name { return a.contact.name < b.contact.name }
                return a.contact.id == b.contact.id ? a.position < b.position : a.contact.id < b.contact.id
            }
            return Array(out.prefix(limit))
        }
    }
}
