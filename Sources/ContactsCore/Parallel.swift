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

/// Work items `0..<count` made on worker threads at most `window` items ahead of the one
/// consumer, which takes the results in order. What is made ahead is bounded, so a long stream
/// of work (an import of a million cards) never holds more than a window of results.
public final class OrderedPipeline<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let window: Int
    private let produce: @Sendable (Int) -> T
    private var made: [Int: T] = [:]
    private var nextToStart = 0
    private var nextToTake = 0
    private var stopped = false
    /// Whether worker threads make the items (else `next()` does).
    private let workersExpected: Bool

    /// With no workers, each item is made by `next()` on the consumer's own thread.
    public init(count: Int, window: Int, workers: Int, name: String = "pipeline", produce: @escaping @Sendable (Int) -> T) {
        self.count = count
        self.window = max(1, window)
        self.produce = produce
        workersExpected = workers > 0
        for _ in 0..<min(workers, count) {
            let t = Thread { [self] in work() }
            t.name = name
            t.start()
        }
    }

    private func work() {
        condition.lock()
        while !stopped && nextToStart < count {
            if nextToStart >= nextToTake + window {
                condition.wait()
                continue
            }
            let i = nextToStart
            nextToStart += 1
            condition.unlock()
            let result = produce(i)
            condition.lock()
            made[i] = result
            condition.broadcast()
        }
        condition.unlock()
    }

    /// The next result in order, waiting for it; nil after the last.
    public func next() -> T? {
        condition.lock()
        defer { condition.unlock() }
        guard nextToTake < count else { return nil }
        if !workersExpected {
            let i = nextToTake
            nextToTake += 1
            condition.unlock()
            defer { condition.lock() }
            return produce(i)
        }
        while made[nextToTake] == nil { condition.wait() }
        let result = made.removeValue(forKey: nextToTake)
        nextToTake += 1
        condition.broadcast()
        return result
    }

    /// Starts nothing more (the consumer stopped early); work under way finishes and is dropped.
    public func cancel() {
        condition.lock()
        stopped = true
        made.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
