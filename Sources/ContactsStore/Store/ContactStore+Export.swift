import ContactsCore
import ContactsSupport
import Dispatch
import Foundation

extension ContactStore {
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
                let block = try Self.fetch(db, rowids: rowids[start..<min(start + 1000, rowids.count)], withCard: true) {
                    RawRow($0, withCard: true)
                }
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
        // Read after the group that sets every index has been waited for.
        // swift-format-ignore: NeverForceUnwrap
        return (0..<count).map { values[$0]! }
    }
}
