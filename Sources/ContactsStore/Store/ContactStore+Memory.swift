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

extension ContactStore {
    /// After each burst of reads, once the store has been quiet for `millis`, it rests
    /// (`rest()`) and then calls `then` (the daemon gives its free heap back there). Nothing
    /// runs while the store stays quiet: the wait starts with a read. Nil turns it off.
    public func restWhenQuiet(after millis: Int64?, then: (@Sendable () -> Void)? = nil) {
        pool.withLock { $0.restPolicy = millis.map { RestPolicy(afterMillis: $0, then: then) } }
    }

    var isClosed: Bool { pool.withLock { $0.closed } }

    func restLater(_ millis: Int64) {
        TaskQueue.timers.after(seconds: Double(millis) / 1000) { [weak self] in self?.restIfQuiet() }
    }

    private func restIfQuiet() {
        let now = Timestamp.monotonicMillis()
        enum Next {
            case nothing, wait(Int64), rest((@Sendable () -> Void)?)
        }
        let next: Next = pool.withLock { p in
            guard let policy = p.restPolicy else { return .nothing }
            let quiet = now - p.lastRead
            if quiet < policy.afterMillis { return .wait(policy.afterMillis - quiet) }
            p.restPolicy?.scheduled = false
            return .rest(policy.then)
        }
        switch next {
        case .nothing: break
        case .wait(let millis): restLater(millis)
        case .rest(let then):
            rest()
            then?()
        }
    }

    /// Gives back what only helps a burst of work, once the store has been quiet: the cached
    /// contacts, the idle reader connections (each with its page cache and prepared
    /// statements) and what the writer's page cache holds. The next read opens a connection
    /// again (a fraction of a millisecond) and reads its pages from the file system's cache.
    public func rest() {
        cache.empty()
        let readers = pool.withLock { p in
            let all = p.idle
            p.idle.removeAll()
            return all
        }
        withExtendedLifetime(readers) {}
        if writeLock.try() {
            defer { writeLock.unlock() }
            if !isClosed { try? writer.execute("PRAGMA shrink_memory") }
        }
        Database.releaseMemory()
    }
}
