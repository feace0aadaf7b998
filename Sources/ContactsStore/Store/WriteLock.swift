import ContactsSupport
import Foundation

/// The store's write lock: one writer at a time, and what the writer leaves to be done after
/// it lets go (`handOn`) done before anyone else takes the lock.
///
/// A commit's live queries are brought up to date that way: the writer's caller has its
/// answer as soon as the commit is on disk and the index has learnt it, while the queries
/// follow on another thread, still holding the lock, so that the next writer, or a reader of
/// a query's window, finds the store and every query at one state.
final class WriteLock: @unchecked Sendable {
    private let condition = NSCondition()
    private var held = false
    /// What the holder leaves for after it lets go (only the holder touches it).
    private var handed: [() -> Void] = []
    private let queue = TaskQueue(label: "store.after-commit")

    func lock() {
        condition.lock()
        while held { condition.wait() }
        held = true
        condition.unlock()
    }

    /// Takes the lock if no one holds it; false (and nothing taken) otherwise.
    func `try`() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if held { return false }
        held = true
        return true
    }

    /// Lets go: at once, or after the work handed on, done on another thread.
    func unlock() {
        if handed.isEmpty { return release() }
        let work = Handed(handed)
        handed = []
        queue.async { [self] in
            for w in work.work { w() }
            release()
        }
    }

    /// The holder's work, passed to the thread that does it while the lock is still held:
    /// no one else touches what it touches meanwhile.
    private final class Handed: @unchecked Sendable {
        let work: [() -> Void]
        init(_ work: [() -> Void]) { self.work = work }
    }

    /// Leaves `work` (which must not take the lock) for after the holder lets go; only
    /// under the lock.
    func handOn(_ work: @escaping () -> Void) { handed.append(work) }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    private func release() {
        condition.lock()
        held = false
        condition.signal()
        condition.unlock()
    }
}
