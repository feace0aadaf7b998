import Foundation

/// Threads that wait a moment for more work once theirs is done, rather than ending at once.
/// A connection's reader and writer each need a thread for as long as it lasts; a client that
/// connects for one request (a mail client completing an address, a shell completing a name)
/// would otherwise pay for two threads made and unmade, their stacks mapped and unmapped.
/// Parked threads end after `linger` seconds without work, so that a daemon at rest keeps none.
public final class ParkedThreads: @unchecked Sendable {
    /// The pool connections take their threads from.
    public static let shared = ParkedThreads(stackSize: 4 << 20, linger: 2, maxParked: 8)

    private let stackSize: Int
    private let linger: Double
    private let maxParked: Int
    private let lock = NSLock()
    private var parked: [Slot] = []

    /// One thread's mailbox: the work handed to it while it waits.
    private final class Slot: @unchecked Sendable {
        let cond = NSCondition()
        var job: (@Sendable () -> Void)?
        var name = ""
    }

    public init(stackSize: Int, linger: Double, maxParked: Int) {
        (self.stackSize, self.linger, self.maxParked) = (stackSize, linger, maxParked)
    }

    /// How many threads wait for work now.
    public var parkedCount: Int { lock.withLock { parked.count } }

    /// Runs `job` on a thread of its own: a parked one if there is one, else a new one.
    public func run(_ name: String, _ job: @escaping @Sendable () -> Void) {
        if let slot = lock.withLock({ parked.popLast() }) {
            slot.cond.lock()
            (slot.job, slot.name) = (job, name)
            slot.cond.signal()
            slot.cond.unlock()
            return
        }
        let slot = Slot()
        (slot.job, slot.name) = (job, name)
        let thread = Thread { [self] in loop(slot) }
        thread.stackSize = stackSize
        thread.name = name
        thread.start()
    }

    private func loop(_ slot: Slot) {
        var first = true
        while true {
            slot.cond.lock()
            let (job, name) = (slot.job, slot.name)
            slot.job = nil
            slot.cond.unlock()
            if !first { Thread.current.name = name }
            first = false
            job?()
            guard park(slot) else { return }
        }
    }

    /// Waits for the next job; false when none came in time (the thread then ends).
    private func park(_ slot: Slot) -> Bool {
        let room = lock.withLock { () -> Bool in
            guard parked.count < maxParked else { return false }
            parked.append(slot)
            return true
        }
        guard room else { return false }
        let deadline = Date(timeIntervalSinceNow: linger)
        slot.cond.lock()
        defer { slot.cond.unlock() }
        while slot.job == nil {
            if slot.cond.wait(until: deadline) { continue }
            // Time is up: leave, unless a caller has just taken this thread (its job is on the way).
            let left = lock.withLock { () -> Bool in
                guard let i = parked.firstIndex(where: { $0 === slot }) else { return false }
                parked.remove(at: i)
                return true
            }
            if left { return false }
            while slot.job == nil { slot.cond.wait() }
        }
        return true
    }
}
