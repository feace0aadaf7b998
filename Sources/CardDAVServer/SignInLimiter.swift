import ContactsSupport

/// Wrong passwords counted by the address they came from: after `limit` failures within
/// `window` seconds, the address is refused (429) until the oldest of them leaves the window,
/// whatever it sends, the right password included. Addresses are forgotten as their failures
/// age; at most `capacity` are tracked (the one with the oldest failure goes first).
public final class SignInLimiter: Sendable {
    public let limit: Int
    public let window: Int64
    let capacity: Int
    private let failures = Locked([String: [Int64]]())

    public init(limit: Int = 10, windowSeconds: Int64 = 600, capacity: Int = 4096) {
        (self.limit, window, self.capacity) = (limit, windowSeconds, capacity)
    }

    /// Seconds until `address` may try again, or nil when it may now.
    public func retryAfter(_ address: String, now: Int64) -> Int64? {
        failures.withLock { all in
            guard var times = all[address] else { return nil }
            times.removeAll { $0 <= now - window }
            all[address] = times.isEmpty ? nil : times
            guard times.count >= limit, let oldest = times.first else { return nil }
            return max(1, oldest + window - now)
        }
    }

    /// How many addresses it holds failures of.
    public var tracked: Int { failures.withLock { $0.count } }

    /// A wrong password from `address` at `now`.
    public func failed(_ address: String, now: Int64) {
        failures.withLock { all in
            var times = (all[address] ?? []).filter { $0 > now - window }
            times.append(now)
            // Only the latest `limit` matter.
            if times.count > limit { times.removeFirst(times.count - limit) }
            all[address] = times
            if all.count > capacity, let stalest = all.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) })?.key {
                all[stalest] = nil
            }
        }
    }
}
