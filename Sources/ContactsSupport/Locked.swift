import Foundation

/// A value shared between threads, read and changed under a lock.
///
/// The standard library's `Mutex` would do on its own, but on Linux its contended path
/// waits in the kernel (a priority-inheriting futex) where the thread sanitizer cannot see
/// the hand-over, so two threads taking turns through it are reported as a race. This lock
/// is a pthread mutex underneath, which the sanitizer knows, and costs the same.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A value of no size (`Locked(())`) is not ordered by the lock in the sanitizer's eyes:
    /// hold something (a count of what the lock guards will do).
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value while no other thread can reach it.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
