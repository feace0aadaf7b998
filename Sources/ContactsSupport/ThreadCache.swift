/// The allocator's cache of freed blocks on the calling thread. jemalloc keeps one for each
/// thread and empties it only as that thread goes on allocating, so a pool thread that did
/// its part of a large piece of work and then sits idle keeps what it cached, and the pages
/// those blocks lie in, resident for as long as it lives. A pool thread that has just freed a
/// great deal (`Parallel.free`, a rest) hands its cache back.
public enum ThreadCache {
    /// Empties the calling thread's cache; set once by the executable, before any thread
    /// starts, when its allocator has such caches.
    nonisolated(unsafe) private static var flusher: (@Sendable () -> Void)?

    /// Tells how to empty a thread's cache.
    public static func use(_ flush: @escaping @Sendable () -> Void) { flusher = flush }

    /// Gives the calling thread's cached blocks back to the allocator, where other threads
    /// can use them and an idle process can return their pages to the system.
    public static func flush() { flusher?() }
}
