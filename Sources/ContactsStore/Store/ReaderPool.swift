/// The store's idle reader connections and what its wait for quiet needs, kept together under
/// one lock (`ContactStore.pool`).
struct ReaderPool {
    var idle: [Database] = []
    var closed = false
    /// When the store was last read (monotonic milliseconds): searches and gets answered from
    /// memory count too, and the end of a large import.
    var lastRead: Int64 = 0
    /// Whether and when the store gives back what it keeps for bursts of work.
    var restPolicy: RestPolicy?

    /// A read at `now`: the wait for quiet starts again from it. Returns how long to wait
    /// when no wait runs and one must start (the caller starts it, outside the lock).
    mutating func noteRead(at now: Int64) -> Int64? {
        lastRead = now
        guard restPolicy?.scheduled == false, let millis = restPolicy?.afterMillis else { return nil }
        restPolicy?.scheduled = true
        return millis
    }
}

/// When and how the store rests (`ContactStore.restWhenQuiet`).
struct RestPolicy {
    var afterMillis: Int64
    var then: (@Sendable () -> Void)?
    var scheduled = false
}
