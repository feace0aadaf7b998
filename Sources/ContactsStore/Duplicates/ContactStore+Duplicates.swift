import ContactsCore
import ContactsSupport
import PhoneNumbers

/// What a search for duplicates and a merge read and write (the Duplicates module decides
/// what is a duplicate and how contacts merge; the store knows neither): the contacts with
/// the fields compared, in name order; the pairs said to be different people; a merge as one
/// operation.
extension ContactStore {
    /// Every contact with the fields duplicates compare (its name and the name's parts,
    /// emails, phones and messaging addresses; nothing else is decoded) and each phone's E.164
    /// form (its stored key; the few a large import left unkeyed are parsed here), made into
    /// `T` by `make` on every core, in name order, with their rowids. `collected`: whether
    /// those collected from mail are among them.
    public func comparedContacts<T: Sendable>(
        region: String?, collected: CollectedScope = .included, _ make: @escaping @Sendable (Contact, [String?]) -> T
    ) throws -> (values: [T], rowids: [Int64]) {
        noteRead()
        return try read { db in
            try searchIndex.loadIfNeeded(db)
            let (order, everyone) = searchIndex.rowidsInNameOrder(taking: collected)
            return try DuplicateCandidateReader.compared(db, region: region, nameOrder: order, onlyThose: !everyone, make)
        }
    }

    /// The contacts with these rowids, whole, with each phone's E.164 form, made into `T`.
    public func wholeContacts<T: Sendable>(rowids: [Int64], region: String?, _ make: @escaping @Sendable (Contact, [String?]) -> T) throws
        -> [Int64: T]
    {
        try read { db in try DuplicateCandidateReader.whole(db, rowids: rowids, region: region, make) }
    }

    /// The pairs of contacts said to be different people (each once, the smaller id first).
    public func notDuplicatePairs() throws -> [(String, String)] {
        try read { db in
            var pairs: [(String, String)] = []
            let d = try db.prepare("SELECT first, second FROM not_duplicates")
            while try d.step() { pairs.append((d.text(0), d.text(1))) }
            return pairs
        }
    }

    /// Merges contacts into one: `plan` is given them (the one `into` names first, the others
    /// in the order given) and says which stays and what it becomes; the others go to the
    /// trash with origin `merge`, all in one operation that `undo` takes back. `dryRun`: the
    /// merged contact, and nothing written.
    public func merge(
        ids: [String], into: String? = nil, dryRun: Bool = false, plan: @escaping ([Contact], _ into: Int?) -> (keep: Int, merged: Contact)
    ) throws -> Contact {
        var unique: [String] = []
        for id in ids where !unique.contains(id) { unique.append(id) }
        if let into, !unique.contains(into) { unique.insert(into, at: 0) }
        guard unique.count >= 2 else {
            throw StoreError.invalid(ContactError(.invalidParams, field: "ids", "a merge needs two contacts or more"))
        }
        func planned(_ db: Database) throws -> (contacts: [Contact], keep: Int, merged: Contact) {
            let contacts = try unique.map { id in
                guard let c = try Self.fetch(db, id: id, withCard: true) else { throw StoreError.notFound(kind: "contact", id: id) }
                return c
            }
            let (keep, merged) = plan(contacts, into.flatMap { i in contacts.firstIndex { $0.id == i } })
            return (contacts, keep, merged)
        }
        if dryRun { return try read { try planned($0).merged } }
        return try write(origin: "merge") { db, log in
            let (contacts, keep, planned) = try planned(db)
            var merged = planned
            // A person merged them: the contact is theirs, whatever was collected.
            merged.collected = false
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
                for b in unique[(i + 1)...] { try insert.run([.text(min(a, b)), .text(max(a, b))]) }
            }
        }
    }
}
