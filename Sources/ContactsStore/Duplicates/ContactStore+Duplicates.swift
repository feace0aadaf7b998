import ContactsCore
import ContactsSupport
import Duplicates
import PhoneNumbers

/// A group of likely duplicates as the store reports it: the finder's group, and whether its
/// contacts are the same once normalised (a merge would add nothing to any of them).
public struct StoredDuplicateGroup: Sendable, Equatable {
    public var group: DuplicateGroup
    /// The contacts' names, in the order of `group.ids`.
    public var names: [String]
    public var identical: Bool
}

/// Duplicates among the stored contacts, their merge, and pairs said to be different people.
extension ContactStore {
    /// The groups of likely duplicates, best first. Phones are compared by their stored keys;
    /// the few a large import left unkeyed are read here.
    public func duplicates(minScore: Double = DuplicateFinder.defaultMinScore, limit: Int? = nil) throws -> [StoredDuplicateGroup] {
        noteRead()
        let region = PhoneRegion.current
        let (found, dismissed) = try read { db in
            (try DuplicateCandidateReader.candidates(db, region: region, nameOrder: try nameOrder(db)), try Self.dismissedPairs(db))
        }

        let groups = DuplicateFinder.groups(found.candidates, minScore: minScore, dismissed: dismissed, limit: limit)
        // What a merge compares, read again for the grouped contacts alone.
        let contents = try read { db in
            try DuplicateCandidateReader.contentKeys(db, rowids: groups.flatMap { $0.members.map { found.rowids[$0] } }, region: region)
        }
        let result = groups.map { g in
            let keys = g.members.map { contents[found.rowids[$0]] }
            return StoredDuplicateGroup(
                group: g, names: g.members.map { found.candidates[$0].name }, identical: !keys.contains(nil) && Set(keys).count == 1)
        }
        // A hundred thousand candidates take a tenth of a second to free: not the caller's wait.
        Parallel.free(found)
        return result
    }

    /// The rowids of every contact in name order, as lists show them.
    private func nameOrder(_ db: Database) throws -> [Int64] {
        try searchIndex.loadIfNeeded(db)
        return searchIndex.rowidsInNameOrder()
    }

    static func dismissedPairs(_ db: Database) throws -> Set<IDPair> {
        var dismissed: Set<IDPair> = []
        let d = try db.prepare("SELECT first, second FROM not_duplicates")
        while try d.step() { dismissed.insert(IDPair(d.text(0), d.text(1))) }
        return dismissed
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
        try write(origin: CommitOrigin.current) { db, _ in
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
