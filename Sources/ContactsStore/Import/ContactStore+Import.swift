import ContactsCore
import ContactsSupport
import Dispatch
import Foundation
import VCard

/// Items of one array in blocks of rows made one block ahead of the inserts, on another thread.
private struct ItemBlocks: ImportBatchSource {
    static let block = 2048
    let pipeline: OrderedPipeline<ImportBatch>
    let expectedCount: Int
    let cancelled: (() -> Bool)?
    let progress: ((Int) -> Void)?

    init(_ items: [ImportItem], progress: ((Int) -> Void)?, isCancelled: (() -> Bool)?) {
        let block = Self.block
        let later = ImportBatch.keysPhonesLater(importing: items.count)
        pipeline = OrderedPipeline(
            count: (items.count + block - 1) / block, window: 2, workers: items.count >= 2 * block ? 1 : 0, name: "import-rows"
        ) { b in
            ImportBatch(items: Array(items[(b * block)..<min(items.count, (b + 1) * block)]), keyPhonesLater: later)
        }
        expectedCount = items.count
        cancelled = isCancelled
        self.progress = progress
    }

    mutating func next() -> ImportBatch? { pipeline.next() }
    mutating func finished(_ batch: consuming ImportBatch) { pipeline.giveBack(batch) }

    func isCancelled() -> Bool { cancelled?() ?? false }
    func stored(_ count: Int) { progress?(count) }
}

extension ContactStore {
    /// Imports contacts in one transaction. A UID already stored updates that contact (the
    /// later one wins, replacing its values); a contact identical to the stored one is
    /// left alone and reported unchanged. Either every item lands or none does.
    /// `isCancelled` is asked every 500 items; when it says yes, everything is rolled back and
    /// `StoreError.cancelled` thrown.
    public func importContacts(
        _ items: [ImportItem], origin: String = "import", progress: ((Int) -> Void)? = nil, isCancelled: (() -> Bool)? = nil
    ) throws -> [ImportOutcome] {
        var blocks = ItemBlocks(items, progress: progress, isCancelled: isCancelled)
        defer { blocks.pipeline.cancel() }
        return try importContacts(from: &blocks, origin: origin).contacts
    }

    /// Imports every batch `source` hands out, contacts and then group cards, in one
    /// transaction: either all of it lands or none does. Contacts are stored as
    /// `importContacts(_:)` stores them; a group card makes its group when it is new and adds
    /// the members it names that are stored by then (from this import or before).
    /// `origin` says what the history records it as made by (`import`, `import:FILE`).
    public func importContacts(from source: inout some ImportBatchSource, origin: String = "import") throws -> ImportResult {
        let expectedCount = source.expectedCount
        return try write(bulk: expectedCount > 1000, bulkRows: expectedCount, origin: origin) { db, log in
            // Room for everything expected, made once: asking for exactly a batch more each
            // time would copy the whole array for every batch (quadratic at a million).
            var outcomes: [ImportOutcome] = []
            outcomes.reserveCapacity(expectedCount)
            log.contacts.reserveCapacity(expectedCount)
            log.indexUpserts.reserveCapacity(expectedCount)
            var groups: [ImportGroup] = []
            // Photo files are written unsynced, flushed in the background as the import goes
            // on, and all on disk before the commit refers to them.
            let flusher = PhotoFlusher(photos)
            var n = 0
            while var batch = try source.next() {
                // Items and rows are passed where they lie (`inout`, never changed): an array's
                // subscript, or a buffer pointer's, hands a call a copy, which retains and
                // releases each of its parts.
                try batch.items.withUnsafeMutableBufferPointer { items in
                    try batch.rows.withUnsafeMutableBufferPointer { rows in
                        for k in items.indices {
                            defer { n += 1 }
                            if n % 1000 == 999 { source.stored(n + 1) }
                            if n % 500 == 499, source.isCancelled() { throw StoreError.cancelled }
                            if let photo = items[k].photo, try photos.put(photo.hash, photo.bytes, sync: false) { flusher.wroteFile() }
                            outcomes.append(try Self.importOne(db, &items[k], row: &rows[k], log: &log))
                        }
                    }
                }
                groups += batch.groups
                source.finished(batch)
            }
            // Groups once every contact is in, so that a member named before its card is found.
            for g in groups { try Self.importGroup(db, g, log: &log) }
            // The new search index is made on another core from now, while what is left of the
            // transaction runs: the photo files' flush and the commit.
            prepareSearchIndexEarly(log)
            try flusher.finish()
            return ImportResult(contacts: outcomes, groups: groups.count)
        }
    }

    /// `item` and `row` are only read: `inout` reaches them in place (see the caller).
    private static func importOne(_ db: Database, _ item: inout ImportItem, row: inout PreparedRow, log: inout ChangeLog) throws
        -> ImportOutcome
    {
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
            throw StoreError.database(
                SQLiteError(code: SQLiteError.constraintUnique, message: "uid '\(item.contact.uid)' is taken but not found", sql: nil))
        }
        if let expected = item.ifRevision, expected != existing.revision {
            throw StoreError.conflict(
                message: expected == 0
                    ? "a contact with uid '\(existing.uid)' exists already"
                    : "contact \(existing.id) is at revision \(existing.revision), not \(expected)",
                id: existing.id, currentRevision: existing.revision)
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

    /// Whether two contacts say the same thing, compared as values: equal typed fields, then
    /// the properties each card is written with, alike property by property once the 4.0
    /// writer's spelling is the same (so that a re-import of an export, which spells
    /// parameters the 3.0 way, is not a change).
    static func sameContent(_ a: Contact, _ b: Contact) -> Bool {
        var x = a, y = b
        x.vcardProperties = nil
        y.vcardProperties = nil
        // Where it lives is no part of what it says.
        (x.account, y.account) = (nil, nil)
        x.groups = x.groups.map { $0.lowercased() }.sorted()
        y.groups = y.groups.map { $0.lowercased() }.sorted()
        guard x == y else { return false }
        // The same groups in another order (a file lists them as it likes; the store sorts
        // them) write the same categories.
        var a = a
        a.groups = b.groups
        return VCardWriter.sameLines(VCardMapping.properties(for: a), VCardMapping.properties(for: b), version: .v4)
    }
}
