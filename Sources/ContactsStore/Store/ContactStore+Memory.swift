import ContactsSupport
import Dispatch
import Foundation

/// What the store keeps in memory, for `daemon.status` to show where the daemon's memory goes.
public struct StoreMemory: Sendable {
    /// The search index: each contact's slot, features, folded text and sort key.
    public var searchIndexBytes: Int
    /// Contacts kept after a read (`ContactCache`).
    public var cachedContacts: Int
    /// Everything SQLite has allocated: every connection's page cache and statements.
    public var sqliteBytes: Int
}

extension ContactStore {
    public func memory() -> StoreMemory {
        StoreMemory(searchIndexBytes: searchIndex.bytes, cachedContacts: cache.count, sqliteBytes: Database.memoryUsed)
    }
}

/// When and how the store rests (`ContactStore.restWhenQuiet`), under the pool lock.
struct RestPolicy {
    var afterMillis: Int64
    var then: (@Sendable () -> Void)?
    var scheduled = false
}

extension ContactStore {
    /// After each burst of reads, once the store has been quiet for `millis`, it rests
    /// (`rest()`) and then calls `then` (the daemon gives its free heap back there). Nothing
    /// runs while the store stays quiet: the wait starts with a read. Nil turns it off.
    public func restWhenQuiet(after millis: Int64?, then: (@Sendable () -> Void)? = nil) {
        poolLock.withLock { restPolicy = millis.map { RestPolicy(afterMillis: $0, then: then) } }
    }

    /// Called by `noteRead` (under the pool lock) when no wait for quiet runs: starts one.
    /// (The check is the caller's, so that a read while a wait runs copies nothing.)
    func scheduleRestLocked() {
        guard let millis = restPolicy?.afterMillis else { return }
        restPolicy?.scheduled = true
        restLater(millis)
    }

    private func restLater(_ millis: Int64) {
        TaskQueue.timers.after(seconds: Double(millis) / 1000) { [weak self] in self?.restIfQuiet() }
    }

    private func restIfQuiet() {
        poolLock.lock()
        guard var policy = restPolicy else {
            poolLock.unlock()
            return
        }
        let quiet = Timestamp.monotonicMillis() - lastRead
        if quiet < policy.afterMillis {
            poolLock.unlock()
            restLater(policy.afterMillis - quiet)
            return
        }
        policy.scheduled = false
        restPolicy = policy
        poolLock.unlock()
        rest()
        policy.then?()
    }

    /// Gives back what only helps a burst of work, once the store has been quiet: the cached
    /// contacts, the idle reader connections (each with its page cache and prepared
    /// statements) and what the writer's page cache holds. The next read opens a connection
    /// again (a fraction of a millisecond) and reads its pages from the file system's cache.
    public func rest() {
        cache.empty()
        let readers = poolLock.withLock {
            let all = idleReaders
            idleReaders.removeAll()
            return all
        }
        withExtendedLifetime(readers) {}
        if writeLock.try() {
            defer { writeLock.unlock() }
            if !closed { try? writer.execute("PRAGMA shrink_memory") }
        }
        Database.releaseMemory()
    }
}
