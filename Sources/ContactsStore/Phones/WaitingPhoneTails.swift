import ContactsSupport
import PhoneNumbers

/// The tails of the phones a large import left unkeyed (`phones_unkeyed`), held in memory
/// for the seconds until the background keying has written their rows: caller ID finds
/// those contacts through it instead of scanning their search text. Each commit adds a
/// sorted run; everything goes once nothing waits. An entry of a contact keyed, changed or
/// deleted meanwhile only makes it a candidate that its phones then rule out.
final class WaitingPhoneTails: Sendable {
    /// The sorted runs, and whether they are all there is: false while contacts wait whose
    /// tails are not here (left by a daemon that stopped before it had keyed them, or by a
    /// restored backup).
    private let state = Locked((runs: [[UInt64]](), complete: true))

    /// A tail (`PhoneMatch.shortDigits` digits) and a rowid in one word, ordered by tail.
    static func entry(tail: String, rowid: Int64) -> UInt64? {
        guard let digits = UInt64(tail), rowid >= 0, rowid < 1 << rowidBits else { return nil }
        return digits << rowidBits | UInt64(rowid)
    }

    private static let rowidBits: UInt64 = 40

    /// The entries of one commit.
    func add(_ entries: [UInt64], allKept: Bool) {
        guard !entries.isEmpty || !allKept else { return }
        let run = entries.sorted()
        state.withLock { s in
            if !run.isEmpty { s.runs.append(run) }
            if !allKept { s.complete = false }
        }
    }

    /// Forgets every entry; `complete` says whether nothing waits now that is not here.
    func reset(complete: Bool) {
        state.withLock { $0 = (runs: [], complete: complete) }
    }

    /// The rowids of the waiting contacts with a phone of this tail, or nil when some
    /// contacts wait that are not here (the caller then looks in the store).
    func rowids(tail: String) -> [Int64]? {
        guard let low = Self.entry(tail: tail, rowid: 0) else { return [] }
        let high = low | (1 << Self.rowidBits - 1)
        guard let runs = state.withLock({ $0.complete ? $0.runs : nil }) else { return nil }
        var out: [Int64] = []
        for run in runs {
            var lo = 0
            var hi = run.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if run[mid] < low { lo = mid + 1 } else { hi = mid }
            }
            while lo < run.count && run[lo] <= high {
                out.append(Int64(run[lo] & (1 << Self.rowidBits - 1)))
                lo += 1
            }
        }
        return out
    }
}
