import Foundation

/// Parts of one parse run on threads started for them, the caller's among them: no Dispatch
/// queue, whose worker threads would leave a process waking every second (libdispatch's
/// thread-pool monitor on Linux) for the rest of its life.
enum PartThreads {
    /// `body(0..<count)`, each index on a thread of its own (index 0 on the caller's), and
    /// returns once all have run.
    static func run(_ count: Int, _ body: (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let done = NSCondition()
            nonisolated(unsafe) var finished = 0
            for i in 1..<count {
                // The thread's closure outlives its run a little: it holds the body through a
                // box emptied before the part counts as done.
                let box = Box(body)
                let t = Thread {
                    box.run(i)
                    done.lock()
                    finished += 1
                    done.signal()
                    done.unlock()
                }
                t.name = "vcard-part"
                t.start()
            }
            body(0)
            done.lock()
            while finished < count - 1 { done.wait() }
            done.unlock()
        }
    }

    private final class Box: @unchecked Sendable {
        private var body: ((Int) -> Void)?
        init(_ body: @escaping (Int) -> Void) { self.body = body }
        /// Runs the body once and lets go of it.
        func run(_ i: Int) {
            body?(i)
            body = nil
        }
    }
}
