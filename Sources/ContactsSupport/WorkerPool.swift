import Foundation

/// Threads that run work on every core, started with the first work and parked on a
/// condition between jobs, in place of Dispatch's global queues (see `TaskQueue` for why: a
/// process that used them is woken every second for the rest of its life). One thread a core
/// and no more: a job must compute, never wait on a disk, a process or another job (such work
/// goes on a `TaskQueue` or a thread of its own), or it holds up every other.
public final class WorkerPool: @unchecked Sendable {
    public static let shared = WorkerPool(threads: max(1, min(8, Parallel.cores)))

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private let size: Int
    private var started = 0

    init(threads: Int) { size = threads }

    /// Runs `work` on a worker as soon as one is free.
    public func async(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(work)
        // A thread more while there are more jobs waiting than workers parked to take them.
        if started < size && jobs.count - head > idle {
            started += 1
            let t = Thread { [self] in loop() }
            t.name = "worker"
            t.start()
        }
        condition.signal()
        condition.unlock()
    }

    /// Workers waiting for a job (under `condition`).
    private var idle = 0

    private func loop() {
        while true {
            condition.lock()
            while head == jobs.count {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: jobs.capacity <= 64)
                head = 0
            }
            condition.unlock()
            job()
        }
    }

    /// `body(0..<iterations)`, each index once, on the calling thread and the workers; returns
    /// when all have run. The caller takes indices too, so that it finishes the work alone
    /// when every worker is busy (a call from inside a worker never waits for itself).
    public func perform(iterations: Int, _ body: (Int) -> Void) {
        guard iterations > 1 else {
            if iterations == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let job = ForkJoin(iterations: iterations, body: body)
            for _ in 0..<min(iterations - 1, size) { async { job.help() } }
            job.help()
            job.waitForAll()
        }
    }
}

/// One `perform`: the next index to take, and how many have finished.
private final class ForkJoin: @unchecked Sendable {
    private let condition = NSCondition()
    private let iterations: Int
    private var next = 0
    private var finished = 0
    /// Cleared once every index is taken, before the caller returns: a helper that starts
    /// later finds nothing to do and never calls it.
    private var body: ((Int) -> Void)?

    init(iterations: Int, body: @escaping (Int) -> Void) {
        self.iterations = iterations
        self.body = body
    }

    func help() {
        while true {
            condition.lock()
            guard next < iterations, body != nil else {
                condition.unlock()
                return
            }
            let i = next
            next += 1
            condition.unlock()
            run(i)
            condition.lock()
            finished += 1
            if finished == iterations {
                body = nil
                condition.broadcast()
            }
            condition.unlock()
        }
    }

    /// One index, the body held only for it: let go before the index counts as finished, so
    /// that nothing holds the caller's closure once it returns.
    private func run(_ i: Int) {
        condition.lock()
        let work = body
        condition.unlock()
        work?(i)
    }

    func waitForAll() {
        condition.lock()
        while finished < iterations { condition.wait() }
        body = nil
        condition.unlock()
    }
}
