import ContactsCore
import ContactsSupport

/// Everyone in the store as one read transaction sees them, in name order, for an export to
/// read once or more (`ContactStore.exportSnapshot`).
public struct ContactSnapshot {
    let db: Database
    let rowids: [Int64]

    /// Everyone with their vCard properties in blocks of `blockSize`, made into `T` by `make`
    /// on all cores while later rows are still read, and handed to `consume` in order as they
    /// are made. No more than a few blocks are held at once, whatever the number of contacts;
    /// a `consume` that throws (a full disk, a client gone) ends the reading. Returns the
    /// number of contacts read (those deleted since the snapshot's list was made are skipped).
    @discardableResult
    public func each<T>(blockSize: Int = 1000, _ make: @escaping @Sendable ([Contact]) -> T, consume: (T) throws -> Void) throws -> Int {
        let making = Overlapped<T>(ahead: 2 * Parallel.cores)
        // Work under way finishes before the reading returns, whether it ends well or not.
        defer { _ = making.results() }
        var count = 0
        for start in stride(from: 0, to: rowids.count, by: max(1, blockSize)) {
            let block = try ContactStore.fetch(db, rowids: rowids[start..<min(start + blockSize, rowids.count)], withCard: true) {
                ContactStore.RawRow($0, withCard: true)
            }
            count += block.count
            making.run { make(block.map { $0.contact() }) }
            for made in making.finished() { try consume(made) }
        }
        for made in making.results() { try consume(made) }
        return count
    }
}
