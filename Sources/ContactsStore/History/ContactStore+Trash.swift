import ContactsCore
import ContactsSupport
import Foundation

/// A contact in the trash: as it was when deleted, with when and by what.
public struct TrashedContact: Sendable, Equatable {
    public var contact: Contact
    public var deletedAt: Int64
    public var origin: String
}

/// The trash: deleted contacts kept whole (fields, card, groups, photo) until they come back
/// or are purged. The writer runs with `secure_delete` on, so what a purge removes is
/// overwritten in the database file, and a purge ends with a checkpoint that empties the log.
extension ContactStore {
    /// Copies the rows `condition` picks (on `contacts c`), with the names of their groups and
    /// the account each is in (with its card's name there), into the trash; the caller deletes
    /// the rows (in the same transaction).
    static func moveToTrash(_ db: Database, where condition: String, _ args: [SQLValue], origin: String) throws {
        let n = args.count
        try db.prepare(
            """
            INSERT OR REPLACE INTO trash (id, uid, revision, name, sort_key, favorite, created_at, updated_at, body, search, vcard,
                photo_hash, created_operation, groups, deleted_at, origin, account, href)
            SELECT c.id, c.uid, c.revision, c.name, c.sort_key, c.favorite, c.created_at, c.updated_at, c.body, c.search, c.vcard,
                c.photo_hash, c.created_operation,
                (SELECT group_concat(g.name, char(31)) FROM memberships m JOIN groups g ON g.rowid = m.group_rowid
                 WHERE m.contact_rowid = c.rowid),
                ?\(n + 1), ?\(n + 2), si.account, si.href
            FROM contacts c LEFT JOIN sync_items si ON si.rowid = (SELECT rowid FROM sync_items WHERE contact_id = c.id LIMIT 1)
            WHERE \(condition)
            """
        ).run(args + [.int(Timestamp.now()), .text(origin)])
    }

    static let trashColumns = """
        t.rowid, t.id, t.uid, t.revision, t.name, t.favorite, t.created_at, t.updated_at, t.body, t.groups,
        coalesce(\(accountColumn("t")), t.account), t.vcard, t.deleted_at, t.origin, t.search
        """

    /// What is in the trash, the latest deletion first: everything, or what matches `text`
    /// as a search does (case, accents and phone formatting ignored).
    public func trash(text: String? = nil, limit: Int? = nil, offset: Int = 0) throws -> (total: Int, contacts: [TrashedContact]) {
        let patterns = (text.map { SearchDocument.patterns(for: $0) } ?? []).map { Array($0.utf8) }
        return try read { db in
            let s = try db.prepare("SELECT \(Self.trashColumns) FROM trash t ORDER BY t.deleted_at DESC, t.rowid DESC")
            var matched: [TrashedContact] = []
            var total = 0
            while try s.step() {
                if !patterns.isEmpty {
                    let search = s.withBytes(14) { [UInt8]($0) }
                    guard patterns.contains(where: { Self.contains(search, $0) }) else { continue }
                }
                total += 1
                guard total > offset, limit.map({ matched.count < $0 }) ?? true else { continue }
                matched.append(TrashedContact(contact: RawRow(s, withCard: true).contact(), deletedAt: s.int64(12), origin: s.text(13)))
            }
            return (total, matched)
        }
    }

    private static func contains(_ text: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard text.count >= needle.count else { return false }
        // The trash is small and read rarely: a plain search does.
        let first = needle[0]
        var i = 0
        while i <= text.count - needle.count {
            if text[i] == first && text[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// Brings contacts back from the trash as they were (id, uid, fields, card, favorite,
    /// photo, groups; a group deleted meanwhile is made again), each at a new revision. A
    /// contact whose uid another contact has taken meanwhile is refused (-32002), and nothing
    /// comes back.
    public func undelete(ids: [String], origin: String = CommitOrigin.current) throws -> (restored: [String], notFound: [String]) {
        try write(origin: origin) { db, log in
            var restored: [String] = []
            var missing: [String] = []
            for id in ids {
                if try Self.undeleteRow(db, id: id, log: &log) { restored.append(id) } else { missing.append(id) }
            }
            return (restored, missing)
        }
    }

    /// Brings one contact back from the trash; false when it is not there. Its revision is the
    /// one after its deletion's (which the history numbers one past the last it had).
    static func undeleteRow(_ db: Database, id: String, log: inout ChangeLog) throws -> Bool {
        let s = try db.prepare("SELECT rowid, uid, groups, account, href FROM trash WHERE id = ?")
        try s.bind([.text(id)])
        guard try s.step() else {
            s.reset()
            return false
        }
        let trashRowid = s.int64(0)
        let uid = s.text(1)
        let groups = s.optionalText(2).map { $0.split(separator: "\u{1F}").map(String.init) } ?? []
        let account = s.optionalText(3)
        let href = s.optionalText(4)
        s.reset()
        if try db.scalarInt("SELECT count(*) FROM contacts WHERE uid = ?", [.text(uid)]) > 0 {
            throw StoreError.conflict(
                message: "contact \(id) cannot come back: another contact has its uid '\(uid)' now", id: id, currentRevision: nil)
        }
        try db.prepare(
            """
            INSERT INTO contacts (id, uid, revision, name, sort_key, favorite, created_at, updated_at, body, search, vcard, photo_hash,
                created_operation, state, created_state)
            SELECT id, uid, revision + 2, name, sort_key, favorite, created_at, max(updated_at, ?1), body, search, vcard, photo_hash,
                created_operation, ?3, ?3
            FROM trash WHERE rowid = ?2
            """
        ).run([.int(Timestamp.now()), .int(trashRowid), .int(log.state)])
        let rowid = db.lastInsertRowid
        // Its phones keyed, and its search text made again, in the region of now.
        try rekeyPhones(db, rowids: [rowid])
        if !groups.isEmpty { _ = try setMemberships(db, contactRowid: rowid, names: groups, log: &log, isNew: true) }
        try db.prepare("DELETE FROM trash WHERE rowid = ?").run([.int(trashRowid)])
        if let account, let href { try rejoinAccount(db, id: id, account: account, href: href, log: &log) }
        let row = try db.prepare("SELECT \(SearchIndex.selectColumns) FROM contacts WHERE rowid = ?")
        try row.bind([.int(rowid)])
        if try row.step() {
            log.indexUpserts.append(SearchIndex.entry(row))
            let revision = Int(try db.scalarInt("SELECT revision FROM contacts WHERE rowid = ?", [.int(rowid)]))
            log.contact(id, .created, revision)
            log.restored.insert(id)
            try History.contactAppeared(db, id: id, revision: revision, .restored, log: &log)
        }
        row.reset()
        return true
    }

    /// A contact back from the trash goes back to the account it was in. While the account
    /// still has its card (the deletion not yet synced), the card is the contact's again and
    /// the next sync sends the contact as an update; once the card is gone there, the contact
    /// is a new card of the account, at its old name unless another card took it, and the next
    /// sync puts it back. An account removed meanwhile leaves the contact on this machine.
    private static func rejoinAccount(_ db: Database, id: String, account: String, href: String, log: inout ChangeLog) throws {
        guard try db.scalarInt("SELECT count(*) FROM sync_items WHERE contact_id = ?", [.text(id)]) == 0,
            try db.scalarInt("SELECT count(*) FROM accounts WHERE name = ?", [.text(account)]) > 0
        else { return }
        var name = href
        if try db.scalarInt("SELECT count(*) FROM sync_items WHERE account = ? AND href = ?", [.text(account), .text(href)]) > 0 {
            let dot = href.lastIndex(of: ".") ?? href.endIndex
            name = "\(href[..<dot])-\(Identifier.make().suffix(12).lowercased())\(href[dot...])"
        }
        try saveItem(db, account: account, SyncItem(href: name, contactID: id, etag: nil, card: nil, syncedRevision: nil))
        log.accountsChanged = true
    }

    /// Removes contacts from the trash for good (`ids`, or everything when nil), with their
    /// history: their content is overwritten in the database file and gone from its log once
    /// this returns, and a photo nobody else refers to goes with them. Returns how many were
    /// purged.
    @discardableResult
    public func purge(ids: [String]?) throws -> Int {
        let purged = try write { db, log in
            var photos = Set<String>()
            var count = 0
            // The rows `filter` picks out of the trash go, with their history: every earlier
            // state of a contact holds what it held.
            func purgeRows(_ filter: String, _ args: [SQLValue]) throws {
                let s = try db.prepare("SELECT photo_hash FROM trash " + filter)
                try s.bind(args)
                while try s.step() {
                    count += 1
                    if let p = s.optionalText(0) { photos.insert(p) }
                }
                s.reset()
                try db.prepare("DELETE FROM history WHERE kind = 0 AND item IN (SELECT id FROM trash \(filter))").run(args)
                try db.prepare("DELETE FROM trash " + filter).run(args)
            }
            if let ids {
                for id in ids { try purgeRows("WHERE id = ?", [.text(id)]) }
            } else {
                try purgeRows("", [])
            }
            log.releasedPhotos.formUnion(photos)
            return count
        }
        // What the purge overwrote is in the log until the log is copied back and emptied.
        if purged > 0 { try checkpointNow(truncating: true) }
        return purged
    }
}
