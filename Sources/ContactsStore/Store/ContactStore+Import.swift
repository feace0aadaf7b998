import Dispatch
import Foundation
import CSQLite
import ContactsCore
import VCard

/// A contact arriving from a file, and which of the contact's own attributes the file speaks for.
public struct ImportItem: Sendable {
    public var contact: Contact
    /// The card named its groups (CATEGORIES); otherwise a stored contact keeps its groups.
    public var carriesGroups: Bool
    /// The card said whether it is a favorite; otherwise a stored contact keeps its state.
    public var carriesFavorite: Bool
    /// The bytes of the contact's photo, when the card carried them inline.
    public var photo: PhotoUpload?

    public init(contact: Contact, carriesGroups: Bool, carriesFavorite: Bool, photo: PhotoUpload? = nil) {
        self.contact = contact
        self.carriesGroups = carriesGroups
        self.carriesFavorite = carriesFavorite
        self.photo = photo
    }
}

/// Import items with what their rows will hold, made by `ContactStore.prepare`.
public struct PreparedImport: Sendable {
    public let items: [ImportItem]
    let rows: [ContactStore.RowText]
}

/// What importing one item did.
public enum ImportOutcome: Sendable, Equatable {
    case created(id: String)
    case updated(id: String)
    case unchanged(id: String)
}

extension ContactStore {
    /// Items made ready for `importContacts(batches:)`: what their rows will hold is worked
    /// out from the contacts alone, on whichever thread calls this, ahead of the transaction.
    public static func prepare(_ items: [ImportItem]) -> PreparedImport {
        var rows: [RowText] = []
        rows.reserveCapacity(items.count)
        // By index through a buffer pointer, so that no item is copied (`map` would).
        items.withUnsafeBufferPointer { items in
            for k in items.indices { rows.append(RowText(new: items[k].contact)) }
        }
        return PreparedImport(items: items, rows: rows)
    }

    /// Imports contacts in one transaction. A UID already stored updates that contact (the
    /// later one wins, replacing its values); a contact identical to the stored one is
    /// left alone and reported unchanged. Either every item lands or none does.
    /// `isCancelled` is asked every 500 items; when it says yes, everything is rolled back and
    /// `StoreError.cancelled` thrown.
    public func importContacts(
        _ items: [ImportItem], progress: ((Int) -> Void)? = nil, isCancelled: (() -> Bool)? = nil
    ) throws -> [ImportOutcome] {
        // Blocks of rows are made on another thread, one block ahead of the inserts.
        let block = 2048
        let pipeline = OrderedPipeline(
            count: (items.count + block - 1) / block, window: 2, workers: items.count >= 2 * block ? 1 : 0, name: "import-rows"
        ) { b in Self.prepare(Array(items[(b * block)..<min(items.count, (b + 1) * block)])) }
        defer { pipeline.cancel() }
        return try importContacts(
            batches: { pipeline.next() }, expectedCount: items.count, progress: progress, isCancelled: isCancelled,
            done: { pipeline.giveBack($0) })
    }

    /// Imports what `next` hands out until it says nil, in one transaction, as
    /// `importContacts(_:)` does; the batches can be made while earlier ones are inserted.
    /// An error thrown by `next` rolls everything back. `expectedCount`, about how many items
    /// will come, chooses how the transaction goes about a large import. Each batch, once in,
    /// goes to `done` (by default it is freed on a background thread).
    public func importContacts(
        batches next: () throws -> PreparedImport?, expectedCount: Int, progress: ((Int) -> Void)? = nil, isCancelled: (() -> Bool)? = nil,
        done: (consuming PreparedImport) -> Void = { Parallel.free($0) }
    ) throws -> [ImportOutcome] {
        try write(bulk: expectedCount > 1000, bulkRows: expectedCount) { db, log in
            // Room for everything expected, made once: asking for exactly a batch more each
            // time would copy the whole array for every batch (quadratic at a million).
            var outcomes: [ImportOutcome] = []
            outcomes.reserveCapacity(expectedCount)
            log.contacts.reserveCapacity(expectedCount)
            log.indexUpserts.reserveCapacity(expectedCount)
            // Photo files are written unsynced, flushed in the background as the import goes
            // on, and all on disk before the commit refers to them.
            let flusher = PhotoFlusher(photos)
            var n = 0
            while let batch = try next() {
                // Through buffer pointers, so that items are read where they lie: an array's
                // subscript hands out a copy, which retains and releases each of its parts.
                try batch.items.withUnsafeBufferPointer { items in
                    try batch.rows.withUnsafeBufferPointer { rows in
                        for k in items.indices {
                            defer { n += 1 }
                            if let p = progress, n % 1000 == 999 { p(n + 1) }
                            if n % 500 == 499, isCancelled?() == true { throw StoreError.cancelled }
                            if let photo = items[k].photo, try photos.put(photo.hash, photo.bytes, sync: false) { flusher.wroteFile() }
                            outcomes.append(try Self.importOne(db, items[k], row: rows[k], log: &log))
                        }
                    }
                }
                // The batch's last reference goes elsewhere: freeing thousands of contacts is
                // work the one thread that writes need not do.
                done(consume batch)
            }
            // The new search index is made on another core from now, while what is left of the
            // transaction runs: the photo files' flush and the commit.
            prepareSearchIndexEarly(log)
            try flusher.finish()
            return outcomes
        }
    }

    private static func importOne(_ db: Database, _ item: ImportItem, row: RowText, log: inout ChangeLog) throws -> ImportOutcome {
        // Most imported cards are new: they are inserted straight away, and the uid's UNIQUE
        // constraint says which are not (SQLite checks it before it writes anything, in the
        // same descent of the uid index that the insert then uses; a separate lookup first
        // cost a second descent of an index larger than the page cache at a million).
        do {
            return .created(id: try insertImported(db, item.contact, row: row, log: &log))
        } catch let e as SQLiteError where e.isUniqueViolation(on: "contacts.uid") {
            // Known: updated or unchanged below.
        }
        guard let existing = try fetch(db, uid: item.contact.uid) else {
            throw StoreError.database(SQLiteError(code: SQLiteError.constraintUnique, message: "uid '\(item.contact.uid)' is taken but not found", sql: nil))
        }
        var incoming = item.contact
        incoming.id = existing.id
        incoming.revision = existing.revision
        incoming.createdAt = existing.createdAt
        incoming.updatedAt = existing.updatedAt
        if !item.carriesGroups { incoming.groups = existing.groups }
        if !item.carriesFavorite { incoming.favorite = existing.favorite }
        if incoming.vcardProperties == nil {
            // JSON carries only typed fields: the card's other properties stay.
            incoming.vcardProperties = existing.vcardProperties
            if incoming.photo == nil { incoming.photo = existing.photo }
        }
        if sameContent(incoming, existing) { return .unchanged(id: existing.id) }
        try validate(incoming)
        try rewrite(db, &incoming, previous: existing, log: &log)
        return .updated(id: existing.id)
    }

    /// Whether two contacts say the same thing: equal typed fields, and the same vCard once
    /// both are written out (so a re-import of an export, which spells parameters the 3.0
    /// way, is not a change).
    static func sameContent(_ a: Contact, _ b: Contact) -> Bool {
        var x = a, y = b
        x.vcardProperties = nil
        y.vcardProperties = nil
        x.groups = x.groups.map { $0.lowercased() }.sorted()
        y.groups = y.groups.map { $0.lowercased() }.sorted()
        guard x == y else { return false }
        var left = "", right = ""
        VCardWriter.write(VCard(properties: VCardMapping.properties(for: a)), version: .v4, into: &left)
        VCardWriter.write(VCard(properties: VCardMapping.properties(for: b)), version: .v4, into: &right)
        return left == right
    }

    /// Everyone's rowids in name order (the search index's order; loaded if it is not).
    private func everyoneInNameOrder(_ db: Database) throws -> [Int64] {
        try searchIndex.loadIfNeeded(db)
        return searchIndex.rowidsInNameOrder()
    }

    /// Everyone in name order with their vCard properties, in blocks made into `T` by `make`
    /// on all cores while later rows are still being read; the results in order. An export
    /// writes its text this way, never holding every contact at once.
    public func exportEach<T>(_ make: @escaping @Sendable ([Contact]) -> T) throws -> [T] {
        try read { db in
            let rowids = try everyoneInNameOrder(db)
            let results = OrderedResults<T>()
            let group = DispatchGroup()
            defer { group.wait() }
            var made = 0
            for start in stride(from: 0, to: rowids.count, by: 1000) {
                let block = try Self.fetch(db, rowids: rowids[start..<min(start + 1000, rowids.count)], withCard: true) { RawRow($0, withCard: true) }
                let i = made
                made += 1
                DispatchQueue.global(qos: .userInitiated).async(group: group) { results.set(i, make(block.map { $0.contact() })) }
            }
            group.wait()
            return results.inOrder(made)
        }
    }

    /// Contacts with their vCard properties, for export: by ids (in that order; unknown ids
    /// are -32001), or everyone in name order.
    public func exportContacts(ids: [String]?) throws -> [Contact] {
        try read { db in
            if let ids {
                return try ids.map { id in
                    guard let c = try Self.fetch(db, id: id, withCard: true) else { throw StoreError.notFound(kind: "contact", id: id) }
                    return c
                }
            }
            let rows = try Self.fetch(db, rowids: try everyoneInNameOrder(db), withCard: true) { RawRow($0, withCard: true) }
            return Self.decode(rows)
        }
    }
}

extension ContactStore {
    /// Makes a group (vCard `KIND:group`) with the contacts whose UIDs are given as members,
    /// creating it when new. Returns how many members it gained.
    @discardableResult
    public func importGroup(name: String, memberUIDs: [String]) throws -> Int {
        let name = try Self.validGroupName(name)
        return try write { db, log in
            var groupRowid = try db.scalarInt("SELECT rowid FROM groups WHERE name_key = ?", [.text(Self.groupKey(name))])
            var groupID = ""
            if groupRowid == 0 {
                let g = try Self.insertGroup(db, name: name, log: &log)
                groupRowid = g.rowid
                groupID = g.id
            } else {
                let s = try db.prepare("SELECT id FROM groups WHERE rowid = ?")
                try s.bind([.int(groupRowid)])
                if try s.step() { groupID = s.text(0) }
            }
            var added: [Int64] = []
            for uid in memberUIDs {
                let bare = uid.lowercased().hasPrefix("urn:uuid:") ? String(uid.dropFirst(9)) : uid
                let rowid = try db.scalarInt(
                    "SELECT rowid FROM contacts WHERE uid IN (?, ?, ?) LIMIT 1", [.text(uid), .text(bare), .text("urn:uuid:" + bare)])
                guard rowid != 0 else { continue }
                try db.prepare("INSERT OR IGNORE INTO memberships (group_rowid, contact_rowid) VALUES (?, ?)").run([.int(groupRowid), .int(rowid)])
                if db.changes > 0 { added.append(rowid) }
            }
            try Self.touch(db, contactRowids: added, log: &log)
            if !added.isEmpty { log.groups.append(GroupChange(id: groupID, kind: .updated, name: name)) }
            return added.count
        }
    }
}

extension ContactStore {
    /// Decodes rows read in order, on all cores when there are many.
    static func decode(_ rows: [RawRow]) -> [Contact] {
        Parallel.chunks(rows.count, minimum: 2000) { range in rows[range].map { $0.contact() } }.flatMap { $0 }
    }
}

/// Results set from several threads by index, read in order once all are set.
private final class OrderedResults<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: T] = [:]

    func set(_ i: Int, _ value: T) {
        lock.lock()
        values[i] = value
        lock.unlock()
    }

    func inOrder(_ count: Int) -> [T] {
        lock.lock()
        defer { lock.unlock() }
        return (0..<count).map { values[$0]! }
    }
}
