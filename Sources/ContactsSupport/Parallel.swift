import CSystem
import Dispatch
import Foundation

/// Work that splits into independent, ordered parts: each part runs on its own core and the
/// results come back in order.
public enum Parallel {
    /// How many parts to make of `count` items: one below `minimum` (starting threads would
    /// cost more than they save), else one a core, at most eight.
    public static func parts(for count: Int, minimum: Int) -> Int {
        count < minimum ? 1 : max(1, min(8, cores))
    }

    /// The cores this process may use, read once: Foundation reads the cgroup's quota files
    /// on every ask, which costs more than parsing a small card.
    public static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Lets go of `value` on a background thread, where its last reference is then dropped:
    /// freeing a large import's contacts or change list (a million entries) is work the
    /// thread that made them, and its caller, need not wait for. The blocks freed there are
    /// then handed on from that pool thread's cache (`ThreadCache`).
    public static func free<T: Sendable>(_ value: consuming T) {
        // Held in a box, so that it is gone before the cache is handed back (a value captured by
        // the closure itself would live until the closure is released, after it has run).
        let held = Held(value)
        disposal.async {
            held.value = nil
            ThreadCache.flush()
        }
    }

    private final class Held<T>: @unchecked Sendable {
        var value: T?
        init(_ value: consuming T) { self.value = value }
    }

    private static let disposal = TaskQueue(label: "disposal")

    /// `body` applied to consecutive ranges covering `0..<count`, in order.
    public static func chunks<T>(_ count: Int, minimum: Int, _ body: @Sendable (Range<Int>) -> T) -> [T] {
        let parts = parts(for: count, minimum: minimum)
        if parts == 1 { return [body(0..<count)] }
        let step = (count + parts - 1) / parts
        let results = Slots<T>(parts)
        WorkerPool.shared.perform(iterations: parts) { part in
            results.store(body(min(count, part * step)..<min(count, (part + 1) * step)), at: part)
        }
        return results.values()
    }

    /// As `chunks`, for work nobody waits for: on the calling thread and threads started for
    /// it, each at a lower priority (nice 10), so that a request that comes meanwhile has a
    /// core at once. The caller's thread stays at that priority: call it from a thread of its
    /// own (`BackgroundJob`).
    public static func backgroundChunks<T>(_ count: Int, minimum: Int, _ body: @Sendable (Range<Int>) -> T) -> [T] {
        lowerPriority()
        let parts = parts(for: count, minimum: minimum)
        if parts == 1 { return [body(0..<count)] }
        let step = (count + parts - 1) / parts
        let results = Slots<T>(parts)
        return withoutActuallyEscaping(body) { body in
            let group = DispatchGroup()
            for part in 1..<parts {
                group.enter()
                let box = Unchecked(body)
                let thread = Thread {
                    lowerPriority()
                    // swift-format-ignore: NeverForceUnwrap
                    results.store(box.value!(min(count, part * step)..<min(count, (part + 1) * step)), at: part)
                    // Let go of `body` before the caller may return: the thread's closure
                    // lives on a little after it has run.
                    box.value = nil
                    group.leave()
                }
                thread.name = "background-part"
                thread.start()
            }
            results.store(body(0..<min(count, step)), at: 0)
            group.wait()
            return results.values()
        }
    }

    /// Nice 10 for the calling thread (Linux gives each thread its own).
    public static func lowerPriority() { contactsd_lower_thread_priority() }

    private final class Unchecked<V>: @unchecked Sendable {
        var value: V?
        init(_ value: V) { self.value = value }
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
        // Called once every index has been stored.
        // swift-format-ignore: NeverForceUnwrap
        func values() -> [T] { slots.map { $0! } }
    }
}

/// Work handed over as it comes and run on every core while the caller goes on (reading the
/// next batch of rows, say); `results()` waits for it all and gives the results in the order
/// the work was handed over.
public final class Overlapped<T>: @unchecked Sendable {
    private let group = DispatchGroup()
    /// Results finished and not taken yet, by the place their work was handed over in.
    private let done = Locked<[Int: T]>([:])
    /// How much work was handed over, and how many results were taken (by the one caller).
    private var handed = 0
    private var taken = 0
    private let room: DispatchSemaphore

    /// At most `ahead` pieces of work unfinished at once: `run` waits for room.
    public init(ahead: Int) { room = DispatchSemaphore(value: max(1, ahead)) }

    /// Starts `work` on a background thread once fewer than `ahead` are unfinished. Called
    /// from one thread.
    public func run(_ work: @escaping @Sendable () -> T) {
        room.wait()
        let i = handed
        handed += 1
        group.enter()
        WorkerPool.shared.async { [self] in
            let result = work()
            done.withLock { $0[i] = result }
            room.signal()
            group.leave()
        }
    }

    /// The results finished so far that follow those already taken, in order, without
    /// waiting: for a caller that hands results on while more work runs.
    public func finished() -> [T] {
        done.withLock { done in
            var ready: [T] = []
            while let next = done.removeValue(forKey: taken) {
                ready.append(next)
                taken += 1
            }
            return ready
        }
    }

    /// Every result not yet taken, in order, once all the work has finished.
    public func results() -> [T] {
        group.wait()
        let rest = done.withLock { done in (taken..<handed).compactMap { done.removeValue(forKey: $0) } }
        taken = handed
        return rest
    }
}

/// Work items `0..<count` made on worker threads at most `window` items ahead of the one
/// consumer, which takes the results in order. What is made ahead is bounded, so a long stream
/// of work (an import of a million cards) never holds more than a window of results.
///
/// What the consumer is done with can go back to the worker that made it (`giveBack`), to be
/// freed there before that worker makes its next item: memory then returns to the allocator
/// of the thread that took it, where that thread's next item finds it, instead of passing
/// through a third thread under the allocator's locks.
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
    /// Which worker made each item not yet given back, and what each still running worker has
    /// been given back to let go of.
    private var maker: [Int: Int] = [:]
    private var givenBack: [Int: [Any]] = [:]
    /// The item whose results come back next: they come back in the order they were taken.
    private var nextToGiveBack = 0

    /// With no workers, each item is made by `next()` on the consumer's own thread.
    public init(count: Int, window: Int, workers: Int, name: String = "pipeline", produce: @escaping @Sendable (Int) -> T) {
        self.count = count
        self.window = max(1, window)
        self.produce = produce
        workersExpected = workers > 0
        let started = min(workers, count)
        // Every worker's list is in place before the first one starts and reads it.
        for w in 0..<started { givenBack[w] = [] }
        for w in 0..<started {
            let t = Thread { [self] in work(w) }
            t.name = name
            t.start()
        }
    }

    private func work(_ worker: Int) {
        condition.lock()
        while true {
            if let back = givenBack[worker], !back.isEmpty {
                givenBack[worker] = []
                condition.unlock()
                withExtendedLifetime(back) {}
                condition.lock()
                continue
            }
            guard !stopped && nextToStart < count else { break }
            if nextToStart >= nextToTake + window {
                condition.wait()
                continue
            }
            let i = nextToStart
            nextToStart += 1
            maker[i] = worker
            condition.unlock()
            let result = produce(i)
            condition.lock()
            made[i] = result
            condition.broadcast()
        }
        // What comes back from now on is let go of elsewhere.
        let back = givenBack.removeValue(forKey: worker) ?? []
        condition.unlock()
        withExtendedLifetime(back) {}
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

    /// Hands `value`, made from the earliest item taken and not yet given back for, back to the
    /// worker that made that item, to be freed on its thread; when that worker has stopped, or
    /// made no items, it is freed on a background thread.
    public func giveBack(_ value: consuming some Sendable) {
        condition.lock()
        let index = nextToGiveBack
        nextToGiveBack += 1
        if let w = maker.removeValue(forKey: index), givenBack[w] != nil {
            givenBack[w, default: []].append(value)
            condition.broadcast()
            condition.unlock()
        } else {
            condition.unlock()
            Parallel.free(value)
        }
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
