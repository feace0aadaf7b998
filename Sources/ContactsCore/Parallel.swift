import Dispatch
import Foundation

/// Work that splits into independent, ordered parts: each part runs on its own core and the
/// results come back in order.
public enum Parallel {
    /// How many parts to make of `count` items: one below `minimum` (starting threads would
    /// cost more than they save), else one a core, at most eight.
    public static func parts(for count: Int, minimum: Int) -> Int {
        count < minimum ? 1 : max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// `body` applied to consecutive ranges covering `0..<count`, in order.
    public static func chunks<T>(_ count: Int, minimum: Int, _ body: @Sendable (Range<Int>) -> T) -> [T] {
        let parts = parts(for: count, minimum: minimum)
        if parts == 1 { return [body(0..<count)] }
        let step = (count + parts - 1) / parts
        let results = Slots<T>(parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            results.store(body(min(count, part * step)..<min(count, (part + 1) * step)), at: part)
        }
        return results.values()
    }

    /// One slot per part; each part writes only its own. The slots live in one fixed buffer
    /// (writing through a Swift array from several threads would be a race on the array
    /// itself, even at different indices).
    private final class Slots<T>: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<T?>
        init(_ n: Int) {
            slots = .allocate(capacity: n)
            slots.initialize(repeating: nil)
        }
        deinit {
            slots.deinitialize()
            slots.deallocate()
        }
        func store(_ value: T, at i: Int) { slots[i] = value }
        func values() -> [T] { slots.map { $0! } }
    }
}
