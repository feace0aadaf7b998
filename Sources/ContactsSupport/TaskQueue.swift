import Foundation

/// A serial queue of work on a thread of its own, with work due later. It exists instead of a
/// Dispatch queue so that a process at rest sleeps: once any Dispatch worker thread has run,
/// libdispatch on Linux keeps a timer that wakes the process every second for as long as it
/// lives (its thread-pool monitor). The thread starts with the first work and then waits on a
/// condition, until the next work is due or forever: no wakeup while there is nothing to do.
public final class TaskQueue: @unchecked Sendable {
    /// Work handed to a queue, which `cancel` stops from running if it has not started.
    public final class Item: Sendable {
        fileprivate let work: @Sendable () -> Void
        fileprivate let due: Double
        fileprivate let order: Int
        private let cancelled = Locked(false)

        fileprivate init(work: @escaping @Sendable () -> Void, due: Double, order: Int) {
            self.work = work
            self.due = due
            self.order = order
        }

        /// Stops the work from running, unless it runs already.
        public func cancel() { cancelled.withLock { $0 = true } }

        fileprivate var isCancelled: Bool { cancelled.withLock { $0 } }
    }

    private let label: String
    private let lowPriority: Bool
    private let condition = NSCondition()
    /// Waiting work, the soonest due first (then in the order it came).
    private var waiting: [Item] = []
    private var handed = 0
    private var started = false

    /// A queue whose thread is named `label`; `lowPriority` runs it at nice 10, below requests.
    public init(label: String, lowPriority: Bool = false) {
        self.label = label
        self.lowPriority = lowPriority
    }

    /// A queue for small work due later that has no queue of its own (a rest, a release).
    public static let timers = TaskQueue(label: "timers")

    /// Runs `work` after the work handed before it.
    @discardableResult
    public func async(_ work: @escaping @Sendable () -> Void) -> Item { after(seconds: 0, work) }

    /// Runs `work` `seconds` from now (or as soon after as the work before it lets it).
    @discardableResult
    public func after(seconds: Double, _ work: @escaping @Sendable () -> Void) -> Item {
        condition.lock()
        defer { condition.unlock() }
        let item = Item(work: work, due: Self.now() + max(0, seconds), order: handed)
        handed += 1
        let at = waiting.firstIndex { ($0.due, $0.order) > (item.due, item.order) } ?? waiting.endIndex
        waiting.insert(item, at: at)
        if !started {
            started = true
            let t = Thread { [self] in loop() }
            t.name = label
            t.start()
        }
        condition.signal()
        return item
    }

    /// Runs `work` on the calling thread once everything handed before it has run, with
    /// nothing else of this queue running meanwhile; returns its result.
    public func sync<T>(_ work: () throws -> T) rethrows -> T {
        let gate = NSCondition()
        nonisolated(unsafe) var state = 0  // 1: the queue waits for us; 2: we are done
        async {
            gate.lock()
            state = 1
            gate.broadcast()
            while state != 2 { gate.wait() }
            gate.unlock()
        }
        gate.lock()
        while state != 1 { gate.wait() }
        gate.unlock()
        defer {
            gate.lock()
            state = 2
            gate.broadcast()
            gate.unlock()
        }
        return try work()
    }

    private func loop() {
        if lowPriority { Parallel.lowerPriority() }
        while true {
            condition.lock()
            while true {
                if let first = waiting.first {
                    let wait = first.due - Self.now()
                    if wait <= 0 { break }
                    _ = condition.wait(until: Date(timeIntervalSinceNow: wait))
                } else {
                    condition.wait()
                }
            }
            let item = waiting.removeFirst()
            condition.unlock()
            if !item.isCancelled { item.work() }
        }
    }

    /// Seconds on the monotonic clock.
    /// (Nanoseconds kept: a deadline rounded to the millisecond would run work early.)
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
