import ContactsSupport
import Dispatch

/// The search index a large write makes on another thread before its commit (see
/// `ContactStore.write`). Used by the writing thread only, under the store's write lock.
final class PreparedIndex: @unchecked Sendable {
    private let group = DispatchGroup()
    private var contents: SearchIndex.Contents?
    /// How many changes it was made from (nil until started).
    private var made: (upserts: Int, deletes: Int)?

    /// Starts making the index that the changes in `log` give, unless started already or the
    /// change is small enough to apply in place.
    func start(_ index: SearchIndex, _ log: ChangeLog) {
        guard made == nil, log.indexRefresh.isEmpty, log.indexUpserts.count + log.indexDeletes.count > SearchIndex.inPlaceLimit else {
            return
        }
        made = (log.indexUpserts.count, log.indexDeletes.count)
        let (upserts, deletes) = (log.indexUpserts, log.indexDeletes)
        group.enter()
        WorkerPool.shared.async {
            self.contents = index.prepare(upserts: upserts, deletes: deletes)
            self.group.leave()
        }
    }

    /// The index made, once made, if it was made from all of `log`'s changes.
    func result(for log: ChangeLog) -> SearchIndex.Contents? {
        guard let made else { return nil }
        group.wait()
        guard made == (log.indexUpserts.count, log.indexDeletes.count), log.indexRefresh.isEmpty else { return nil }
        return contents
    }
}
