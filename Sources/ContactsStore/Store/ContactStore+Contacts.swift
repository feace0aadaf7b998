import ContactsCore
import ContactsSupport
import Foundation
import PhoneNumbers

extension ContactStore {
    static let contactColumns = """
        c.rowid, c.id, c.uid, c.revision, c.name, c.favorite, c.created_at, c.updated_at, c.body,
        (SELECT group_concat(g.name, char(31)) FROM memberships m JOIN groups g ON g.rowid = m.group_rowid
         WHERE m.contact_rowid = c.rowid), \(accountColumn("c"))
        """
    /// The columns of `contactColumns` without the groups (column 9 is null): a projection
    /// that does not show them.
    static let projectedColumns =
        "c.rowid, c.id, c.uid, c.revision, c.name, c.favorite, c.created_at, c.updated_at, c.body, NULL, \(accountColumn("c"))"
    /// The same, then the vCard properties (column 11): for export and for changes.
    static let contactColumnsWithCard = contactColumns + ", c.vcard"

    /// The account a contact (of table alias `t`) belongs to, as a column (10).
    static func accountColumn(_ t: String) -> String {
        "(SELECT si.account FROM sync_items si WHERE si.contact_id = \(t).id LIMIT 1)"
    }

    static func readContact(_ s: Statement, withCard: Bool = false) -> Contact {
        RawRow(s, withCard: withCard).contact()
    }

    /// A contact's row as stored, before its JSON columns are decoded: export reads rows in
    /// order and decodes them on all cores.
    struct RawRow: @unchecked Sendable {
        var contact0: Contact
        var body: [UInt8]
        var groups: String?
        var card: [UInt8]?

        init(_ s: Statement, withCard: Bool) {
            contact0 = Self.columns(s)
            body = s.withBytes(8) { [UInt8]($0) }
            groups = s.optionalText(9)
            card = withCard && s.optionalText(11) != nil ? s.withBytes(11) { [UInt8]($0) } : nil
        }

        /// The contact's own columns (identity, name, favorite, times): all but its body,
        /// groups and card.
        static func columns(_ s: Statement) -> Contact {
            var c = Contact(name: s.text(4))
            c.id = s.text(1)
            c.uid = s.text(2)
            c.revision = s.int(3)
            c.favorite = s.int64(5) != 0
            c.createdAt = s.int64(6)
            c.updatedAt = s.int64(7)
            c.account = s.optionalText(10)
            return c
        }

        func contact() -> Contact {
            var c = contact0
            body.withUnsafeBytes { StoredBody.decode($0, into: &c) }
            if let g = groups, !g.isEmpty {
                c.groups = ContactStore.sortedGroupNames(g.split(separator: "\u{1F}").map(String.init))
            }
            if let card { c.vcardProperties = card.withUnsafeBytes { StoredProperties.decode($0) } }
            return c
        }
    }

    static func sortedGroupNames(_ names: [String]) -> [String] {
        let keyed: [(name: String, key: String)] = names.map { ($0, SearchFolding.sortKey($0)) }
        let sorted = keyed.sorted { a, b in a.key == b.key ? a.name < b.name : a.key < b.key }
        return sorted.map { $0.name }
    }

    // MARK: Reading

    public func contact(id: String) throws -> Contact {
        noteRead()
        if let c = cache.get(id) { return c }
        let generation = cache.currentGeneration
        let (rowid, c) = try read { db in
            let s = try db.prepare("SELECT \(Self.contactColumns) FROM contacts c WHERE c.id = ?")
            try s.bind([.text(id)])
            guard try s.step() else { throw StoreError.notFound(kind: "contact", id: id) }
            return (s.int64(0), Self.readContact(s))
        }
        cache.put(c, rowid: rowid, readAt: generation)
        return c
    }

    static func fetch(_ db: Database, id: String, withCard: Bool = false) throws -> Contact? {
        let s = try db.prepare("SELECT \(withCard ? contactColumnsWithCard : contactColumns) FROM contacts c WHERE c.id = ?")
        try s.bind([.text(id)])
        guard try s.step() else { return nil }
        return readContact(s, withCard: withCard)
    }

    static func fetch(_ db: Database, uid: String) throws -> Contact? {
        let s = try db.prepare("SELECT \(contactColumnsWithCard) FROM contacts c WHERE c.uid = ?")
        try s.bind([.text(uid)])
        guard try s.step() else { return nil }
        return readContact(s, withCard: true)
    }

    public func counts() throws -> (contacts: Int, groups: Int) {
        try read { db in
            (Int(try db.scalarInt("SELECT count(*) FROM contacts")), Int(try db.scalarInt("SELECT count(*) FROM groups")))
        }
    }

    // MARK: Writing

    /// Stores new contacts (ids, revisions and timestamps are assigned here) in one
    /// transaction. Groups named by the contacts are created as needed.
    @discardableResult
    public func create(_ contacts: [Contact]) throws -> [Contact] {
        // The rows' text (search text, phone keys, bodies) on every core, before the lock.
        let rows = Parallel.chunks(contacts.count, minimum: 256) { r in contacts[r].map { PreparedRow(new: $0) } }.flatMap { $0 }
        return try write { db, log in
            var out: [Contact] = []
            out.reserveCapacity(contacts.count)
            for (c, row) in zip(contacts, rows) {
                out.append(try Self.insert(db, c, row: row, log: &log))
            }
            return out
        }
    }

    /// What a contact's row holds besides its identity, worked out from the contact alone; an
    /// import works these out for all its contacts on every core before its transaction.
    struct PreparedRow: Sendable {
        var search: String
        /// Each phone as a number (its rows in `phone_numbers`).
        var phoneKeys: [PhoneKeys]
        var sortKey: String
        var body: String
        var vcard: String?
        /// For a contact about to be inserted: the id it takes, and its search index entry's
        /// key and text. An import makes these ahead with the rest, on every core, so that
        /// its one writing thread need not (an item that turns out to update a stored
        /// contact leaves its id unused).
        var newID = ""
        var indexKey: [UInt8] = []
        var indexText: [UInt8] = []
        /// The phones are keyed after the write (`keyPhonesLater`).
        var phonesKeyedLater = false

        /// `keyPhonesLater`: the phones are not read as numbers now, nor keyed (a large
        /// import, which that would slow by half; it is done right after, in the background).
        init(_ c: Contact, keyPhonesLater: Bool = false) {
            phonesKeyedLater = keyPhonesLater && !c.phones.isEmpty
            phoneKeys = phonesKeyedLater ? c.phones.map { PhoneKeys(digitsOf: $0.value) } : c.phoneKeys()
            let search = SearchDocument.text(for: c, phoneKeys: phoneKeys)
            self.search = search
            if c.phoneticName != nil {
                sortKey = SearchFolding.sortKey(c.sortName)
            } else {
                // The first line is the folded name.
                let firstLine = search.utf8.firstIndex(of: 0x0A).map { String(search[..<$0]) } ?? search
                sortKey = SearchFolding.sortKey(folded: firstLine)
            }
            body = StoredBody.encode(c)
            vcard = StoredProperties.encode(c.vcardProperties)
        }

        init(new c: Contact, keyPhonesLater: Bool = false) {
            self.init(c, keyPhonesLater: keyPhonesLater)
            newID = Identifier.make()
            indexKey = SearchIndex.Entry.key(sortKey: sortKey)
            indexText = Array(search.utf8)
        }
    }

    /// Inserts one new contact; the caller holds the write transaction.
    static func insert(_ db: Database, _ contact: Contact, row prepared: PreparedRow? = nil, log: inout ChangeLog) throws -> Contact {
        var c = contact
        try validate(c)
        if c.uid.isEmpty { c.uid = "urn:uuid:" + Identifier.make().lowercased() }
        if try db.scalarInt("SELECT count(*) FROM contacts WHERE uid = ?", [.text(c.uid)]) > 0 {
            throw StoreError.conflict(message: "a contact with uid '\(c.uid)' already exists", id: nil, currentRevision: nil)
        }
        // The row's text does not depend on the id, uid or times assigned here.
        let row = prepared ?? PreparedRow(new: c)
        let inserted = try insertRow(db, c, row: row, log: &log)
        c.id = row.newID
        c.revision = 1
        c.createdAt = inserted.now
        c.updatedAt = inserted.now
        if let groups = inserted.groups { c.groups = groups }
        return c
    }

    /// Inserts a new contact from an import (its uid was looked for already) without copying it.
    static func insertImported(_ db: Database, _ c: Contact, row: PreparedRow, log: inout ChangeLog) throws -> String {
        try validate(c)
        _ = try insertRow(db, c, row: row, log: &log)
        return row.newID
    }

    /// The row of a new contact, its group memberships (the names as stored, when it has
    /// groups) and what the change log and search index learn of it.
    private static func insertRow(_ db: Database, _ c: Contact, row: PreparedRow, log: inout ChangeLog) throws -> (
        now: Int64, groups: [String]?
    ) {
        let now = Timestamp.now()
        let uid = c.uid.isEmpty ? "urn:uuid:" + Identifier.make().lowercased() : c.uid
        try db.prepare(
            """
            INSERT INTO contacts (id, uid, revision, name, sort_key, favorite, created_at, updated_at, body, search, vcard, photo_hash,
                created_operation, state, created_state)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?14, ?14)
            """
        ).run([
            .text(row.newID), .text(uid), .int(1), .text(c.name), .text(row.sortKey), .int(c.favorite ? 1 : 0), .int(now), .int(now),
            .text(row.body), .text(row.search), row.vcard.map { .text($0) } ?? .null, c.photo?.hash.map { .text($0) } ?? .null,
            try History.creatingOperation(db, &log).map { .int($0) } ?? .null, .int(log.state),
        ])
        let rowid = db.lastInsertRowid
        // A large import's phones are keyed after it, rows and all (`phones_unkeyed`).
        if row.phonesKeyedLater {
            try db.prepare("INSERT INTO phones_unkeyed (contact_rowid) VALUES (?)").run([.int(rowid)])
            log.phonesKeyedLater = true
            for tail in row.phoneKeys.compactMap(\.tail) {
                if let entry = WaitingPhoneTails.entry(tail: tail, rowid: rowid) {
                    log.waitingTails.append(entry)
                } else {
                    log.waitingTailsKept = false
                }
            }
        } else {
            try savePhoneKeys(db, rowid: rowid, row.phoneKeys, isNew: true)
        }
        var groups: [String]?
        if !c.groups.isEmpty { groups = try setMemberships(db, contactRowid: rowid, names: c.groups, log: &log, isNew: true) }
        log.created(row.newID)
        log.indexUpserts.append(
            SearchIndex.Entry(rowid: rowid, key: row.indexKey, text: row.indexText, favorite: c.favorite, collected: c.collected))
        return (now, groups)
    }

    public func create(_ contact: Contact) throws -> Contact {
        // create([c]) returns exactly one contact per input.
        try create([contact])[0]
    }

    /// Changes one contact. `ifRevision`, when given, must match the stored revision.
    /// A change that leaves everything as it was is not a change: the revision stays.
    /// `beforeWriting` runs in the transaction once the contact and revision are known good.
    public func update(
        id: String, ifRevision: Int? = nil, origin: String = CommitOrigin.current, beforeWriting: () throws -> Void = {},
        _ mutate: (inout Contact) throws -> Void
    ) throws -> Contact {
        try write(origin: origin) { db, log in
            guard var c = try Self.fetch(db, id: id, withCard: true) else { throw StoreError.notFound(kind: "contact", id: id) }
            if let ifRevision, ifRevision != c.revision {
                throw StoreError.conflict(
                    message: "contact \(id) is at revision \(c.revision), not \(ifRevision); fetch it again and retry",
                    id: id, currentRevision: c.revision)
            }
            try beforeWriting()
            let before = c
            do {
                try mutate(&c)
            } catch let e as ContactError {
                throw StoreError.invalid(e)
            }
            try Self.validate(c)
            if c.uid != before.uid,
                try db.scalarInt("SELECT count(*) FROM contacts WHERE uid = ? AND id <> ?", [.text(c.uid), .text(id)]) > 0
            {
                throw StoreError.conflict(message: "a contact with uid '\(c.uid)' already exists", id: nil, currentRevision: nil)
            }
            var comparable = c
            comparable.groups = before.groups
            if comparable == before && Self.sameGroups(c.groups, before.groups) { return before }
            // A person's edit of a collected contact makes it theirs.
            if before.collected && c.collected { c.collected = false }
            try Self.rewrite(db, &c, previous: before, log: &log)
            return c
        }
    }

    /// Group lists name the same groups (names match regardless of case).
    static func sameGroups(_ a: [String], _ b: [String]) -> Bool {
        Set(a.map { $0.lowercased() }) == Set(b.map { $0.lowercased() })
    }

    /// Writes a changed contact back with the next revision, and its memberships when its
    /// groups changed (`c.groups` then holds the stored spellings).
    static func rewrite(_ db: Database, _ c: inout Contact, previous: Contact, log: inout ChangeLog) throws {
        c.revision = previous.revision + 1
        c.updatedAt = max(Timestamp.now(), previous.updatedAt)
        let phoneKeys = c.phoneKeys()
        let search = SearchDocument.text(for: c, phoneKeys: phoneKeys)
        let sortKey = SearchFolding.sortKey(c.sortName)
        let rowid = try db.scalarInt("SELECT rowid FROM contacts WHERE id = ?", [.text(c.id)])
        // A contact a large import left to be keyed is keyed now, with the rest of its row.
        try db.prepare("DELETE FROM phones_unkeyed WHERE contact_rowid = ?").run([.int(rowid)])
        if c.phones != previous.phones || db.changes > 0 { try savePhoneKeys(db, rowid: rowid, phoneKeys) }
        try History.contactChanged(db, from: previous, to: c, log: &log)
        try db.prepare(
            """
            UPDATE contacts SET uid = ?, revision = ?, name = ?, sort_key = ?, favorite = ?, updated_at = ?, body = ?, search = ?, vcard = ?,
                photo_hash = ?, state = ?
            WHERE id = ?
            """
        ).run([
            .text(c.uid), .int(Int64(c.revision)), .text(c.name), .text(sortKey), .int(c.favorite ? 1 : 0),
            .int(c.updatedAt), .text(StoredBody.encode(c)), .text(search),
            StoredProperties.encode(c.vcardProperties).map { .text($0) } ?? .null,
            c.photo?.hash.map { .text($0) } ?? .null, .int(log.state), .text(c.id),
        ])
        log.contact(c.id, .updated, c.revision)
        if let old = previous.photo?.hash, old != c.photo?.hash { log.releasedPhotos.insert(old) }
        if sameGroups(c.groups, previous.groups) {
            c.groups = previous.groups
        } else {
            c.groups = try setMemberships(db, contactRowid: rowid, names: c.groups, log: &log)
        }
        log.indexUpserts.append(
            SearchIndex.Entry(rowid: rowid, sortKey: sortKey, text: search, favorite: c.favorite, collected: c.collected))
    }

    /// Bumps the revision of contacts whose group list changes because a group does. Called
    /// before the change, so that the history keeps each one's groups as they were, unless
    /// `recorded` says the caller kept them already.
    static func touch(_ db: Database, contactRowids: [Int64], recorded: Bool = false, log: inout ChangeLog) throws {
        let now = Timestamp.now()
        if !contactRowids.isEmpty { log.membershipsChanged = true }
        for rowid in contactRowids {
            if !recorded { try History.groupsBefore(db, rowid: rowid, log: &log) }
            let s = try db.prepare(
                "UPDATE contacts SET revision = revision + 1, updated_at = max(updated_at, ?), state = ? WHERE rowid = ? RETURNING id, revision"
            )
            try s.bind([.int(now), .int(log.state), .int(rowid)])
            if try s.step() {
                log.contact(s.text(0), .updated, s.int(1))
                log.indexRefresh.insert(rowid)
            }
            s.reset()
        }
    }

    public func setFavorite(id: String, _ favorite: Bool, ifRevision: Int? = nil) throws -> Contact {
        try update(id: id, ifRevision: ifRevision) { $0.favorite = favorite }
    }

    /// Deletes contacts: each goes to the trash, whole, and can come back (`undelete`) until it
    /// is purged. Ids that do not exist are reported, not fatal.
    public func delete(ids: [String], origin: String = CommitOrigin.current) throws -> (deleted: [String], notFound: [String]) {
        try write(origin: origin) { db, log in
            var deleted: [String] = []
            var missing: [String] = []
            for id in ids {
                guard try Self.deleteRow(db, id: id, origin: origin, log: &log) else {
                    missing.append(id)
                    continue
                }
                deleted.append(id)
            }
            return (deleted, missing)
        }
    }

    /// Moves one contact to the trash; false when there is no such contact.
    static func deleteRow(_ db: Database, id: String, origin: String, log: inout ChangeLog) throws -> Bool {
        try !deleteRows(db, where: "c.id = ?1", [.text(id)], origin: origin, log: &log).isEmpty
    }

    /// Moves the contacts `condition` picks (an SQL condition on `contacts c`) to the trash,
    /// all together; returns their ids. Their photos stay: the trash refers to them.
    @discardableResult
    static func deleteRows(_ db: Database, where condition: String, _ args: [SQLValue], origin: String, log: inout ChangeLog) throws
        -> [String]
    {
        let s = try db.prepare("SELECT c.rowid, c.id, c.revision FROM contacts c WHERE \(condition)")
        try s.bind(args)
        var ids: [String] = []
        while try s.step() {
            ids.append(s.text(1))
            log.contact(s.text(1), .deleted, s.int(2) + 1)
            log.indexDeletes.insert(s.int64(0))
        }
        s.reset()
        guard !ids.isEmpty else { return [] }
        try History.deleted(db, where: condition, args, log: &log)
        try CommitState.recordRemovals(db, where: condition, args, state: log.state)
        try moveToTrash(db, where: condition, args, origin: origin)
        try db.prepare("DELETE FROM contacts AS c WHERE \(condition)").run(args)
        return ids
    }

    static func validate(_ c: Contact) throws {
        if c.name.trimmingWhitespace().isEmpty {
            throw StoreError.invalid(ContactError(.invalidData, field: "name", "a contact needs a name"))
        }
    }
}
