import ContactsCore
import ContactsSupport
import Dispatch
import Foundation

extension ContactStore {
    /// Everyone's rowids in name order (the search index's order; loaded if it is not).
    func everyoneInNameOrder(_ db: Database) throws -> [Int64] {
        try searchIndex.loadIfNeeded(db)
        return searchIndex.rowidsInNameOrder()
    }

    /// Everyone in name order with their vCard properties, in blocks (see
    /// `ContactSnapshot.each`). Returns the number of contacts.
    @discardableResult
    public func exportEach<T>(
        blockSize: Int = 1000, _ make: @escaping @Sendable ([Contact]) -> T, consume: (T) throws -> Void
    ) throws -> Int {
        try exportSnapshot { try $0.each(blockSize: blockSize, make, consume: consume) }
    }

    /// Runs `body` on one snapshot of the store: an export that reads everyone twice (CSV's
    /// columns, then its rows) sees the same contacts both times.
    public func exportSnapshot<R>(_ body: (ContactSnapshot) throws -> R) throws -> R {
        try read { db in try body(ContactSnapshot(db: db, rowids: try everyoneInNameOrder(db))) }
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
    /// Decodes rows read in order, on all cores when there are many.
    static func decode(_ rows: [RawRow]) -> [Contact] {
        Parallel.chunks(rows.count, minimum: 2000) { range in rows[range].map { $0.contact() } }.flatMap { $0 }
    }
}
