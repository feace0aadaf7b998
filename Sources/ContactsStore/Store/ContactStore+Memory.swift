import CSQLite

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
        StoreMemory(searchIndexBytes: searchIndex.bytes, cachedContacts: cache.count, sqliteBytes: Int(sqlite3_memory_used()))
    }
}
