import ContactsCore
import ContactsSupport
import Duplicates
import PhoneNumbers

/// A group of likely duplicates as the store reports it: the finder's group, and whether its
/// contacts are the same once normalised (a merge would add nothing to any of them).
public struct StoredDuplicateGroup: Sendable, Equatable {
    public var group: DuplicateGroup
    public var identical: Bool
}

/// Duplicates among the stored contacts, their merge, and pairs said to be different people.
extension ContactStore {
    /// The groups of likely duplicates, best first. Phones are compared by their stored keys;
    /// the few a large import left unkeyed are read here.
    public func duplicates(minScore: Double = DuplicateFinder.defaultMinScore, limit: Int? = nil) throws -> [StoredDuplicateGroup] {
        noteRead()
        let region = PhoneRegion.current
        let (candidates, dismissed) = try read { db -> ([DuplicateCandidate], Set<IDPair>) in
            var emails: [Int64: [String]] = [:]
            let e = try db.prepare("SELECT c.rowid, e.value ->> '$.value' FROM contacts c, json_each(c.body, '$.emails') e")
            while try e.step() { emails[e.int64(0), default: []].append(e.text(1)) }
            e.reset()
            var phones: [Int64: [String]] = [:]
            let p = try db.prepare(
                """
                SELECT c.rowid, p.value ->> '$.value', n.e164, u.contact_rowid IS NOT NULL
                FROM contacts c JOIN json_each(c.body, '$.phones') p
                LEFT JOIN phone_numbers n ON n.contact_rowid = c.rowid AND n.position = p.key
                LEFT JOIN phones_unkeyed u ON u.contact_rowid = c.rowid
                """)
            while try p.step() {
                let text = p.text(1)
                let e164 = p.int64(3) != 0 ? PhoneNumber.parse(text, region: region, withType: false)?.e164 : p.optionalText(2)
                if let key = DuplicateCandidate.phoneKey(e164: e164, text: text) { phones[p.int64(0), default: []].append(key) }
            }
            p.reset()
            var out: [DuplicateCandidate] = []
            let c = try db.prepare(
                """
                SELECT rowid, id, name, body ->> '$.structuredName.given', body ->> '$.structuredName.family',
                    body ->> '$.structuredName.additional'
                FROM contacts ORDER BY sort_key, name, id
                """)
            while try c.step() {
                let rowid = c.int64(0)
                let given = c.optionalText(3) ?? "", family = c.optionalText(4) ?? "", additional = c.optionalText(5) ?? ""
                let n = given.isEmpty && family.isEmpty ? nil : StructuredName(family: family, given: given, additional: additional)
                out.append(
                    DuplicateCandidate(
                        id: c.text(1), name: c.text(2), structuredName: n, emails: emails[rowid] ?? [], phones: phones[rowid] ?? []))
            }
            c.reset()
            var dismissed: Set<IDPair> = []
            let d = try db.prepare("SELECT first, second FROM not_duplicates")
            while try d.step() { dismissed.insert(IDPair(d.text(0), d.text(1))) }
            d.reset()
            return (out, dismissed)
        }
        let groups = DuplicateFinder.groups(candidates, minScore: minScore, dismissed: dismissed, limit: limit)
        return try read { db in
            try groups.map { g in
                let contacts = try g.ids.compactMap { try Self.fetch(db, id: $0, withCard: false) }
                return StoredDuplicateGroup(group: g, identical: contacts.count == g.ids.count && Self.identical(contacts, region: region))
            }
        }
    }

    /// Whether merging would add nothing to any of them: the same name, values and fields
    /// once normalised (groups and the favorite aside: they are only united).
    static func identical(_ contacts: [Contact], region: String?) -> Bool {
        guard !contacts.isEmpty else { return true }
        let merged = ContactMerge.merge(contacts, into: 0, region: region)
        func signature(_ c: Contact) -> [String] {
            [
                SearchFolding.fold(c.name), String(c.phones.count), String(c.emails.count), String(c.addresses.count),
                String(c.urls.count), c.nickname ?? "", c.organization ?? "", c.title ?? "", c.birthday ?? "", c.note ?? "",
                c.photo?.hash ?? "",
            ]
        }
        let s = signature(merged)
        return contacts.allSatisfy { signature($0) == s }
    }

    /// Merges contacts into one (`into`, else the most complete) without losing a value
    /// (`ContactMerge`); the others go to the trash with origin `merge`, all in one operation
    /// that `undo` takes back. `dryRun`: the merged contact, and nothing written.
    public func merge(ids: [String], into: String? = nil, dryRun: Bool = false) throws -> Contact {
        var unique: [String] = []
        for id in ids where !unique.contains(id) { unique.append(id) }
        if let into, !unique.contains(into) { unique.insert(into, at: 0) }
        guard unique.count >= 2 else {
            throw StoreError.invalid(ContactError(.invalidParams, field: "ids", "a merge needs two contacts or more"))
        }
        let region = PhoneRegion.current
        func plan(_ db: Database) throws -> (contacts: [Contact], keep: Int, merged: Contact) {
            let contacts = try unique.map { id in
                guard let c = try Self.fetch(db, id: id, withCard: true) else { throw StoreError.notFound(kind: "contact", id: id) }
                return c
            }
            let keep = into.flatMap { i in contacts.firstIndex { $0.id == i } } ?? ContactMerge.mostComplete(contacts)
            return (contacts, keep, ContactMerge.merge(contacts, into: keep, region: region))
        }
        if dryRun { return try read { try plan($0).merged } }
        return try write(origin: "merge") { db, log in
            let (contacts, keep, planned) = try plan(db)
            var merged = planned
            try Self.validate(merged)
            try Self.rewrite(db, &merged, previous: contacts[keep], log: &log)
            for (k, c) in contacts.enumerated() where k != keep { _ = try Self.deleteRow(db, id: c.id, origin: "merge", log: &log) }
            return merged
        }
    }

    /// Remembers that these contacts are different people: no pair of them is proposed again.
    public func notDuplicates(ids: [String]) throws {
        let unique = Array(Set(ids))
        guard unique.count >= 2 else {
            throw StoreError.invalid(ContactError(.invalidParams, field: "ids", "two contacts or more are needed"))
        }
        try write(origin: "rpc") { db, _ in
            for id in unique where try Self.fetch(db, id: id) == nil { throw StoreError.notFound(kind: "contact", id: id) }
            let insert = try db.prepare("INSERT OR IGNORE INTO not_duplicates (first, second) VALUES (?, ?)")
            for (i, a) in unique.enumerated() {
                for b in unique[(i + 1)...] {
                    let pair = IDPair(a, b)
                    try insert.run([.text(pair.first), .text(pair.second)])
                }
            }
        }
    }
}
