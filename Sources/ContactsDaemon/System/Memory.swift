import Dispatch
import Foundation
import Glibc

/// How the daemon's heap gives memory back. glibc keeps freed memory for reuse and raises its
/// mmap threshold up to 32 MiB after a large buffer is freed (so the next large buffers stay
/// in the heap for good): after one large import or export the process would keep hundreds
/// of MiB it no longer uses. `mallopt` and `malloc_trim` are glibc's and not exported to
/// Swift, so they are looked up at run time; elsewhere this does nothing.
enum Memory {
    private typealias Trim = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32
    private static let trim: Trim? = symbol("malloc_trim")
    private static let option: Option? = symbol("mallopt")

    private static func symbol<T>(_ name: String) -> T? {
        guard let s = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(s, to: T.self)
    }

    /// Before any thread starts: buffers of 4 MiB and more (an export's text, a reply) get
    /// their own mappings, returned when freed; the heap's top is trimmed beyond 4 MiB; what
    /// is free inside the heaps goes back after large work (`releaseSoon`). A lower mmap
    /// threshold or fewer arenas were tried: both cost a 100k-card import a third more time
    /// (its parse makes many buffers of a few hundred KiB on every core) and kept no less.
    static func configure() {
        guard let option else { return }
        let mmapThreshold: Int32 = -3, trimThreshold: Int32 = -1
        _ = option(mmapThreshold, 4 << 20)
        _ = option(trimThreshold, 4 << 20)
    }

    /// Gives what is free back now.
    static func release() { _ = trim?(0) }

    private static let pending = NSLock()
    nonisolated(unsafe) private static var scheduled = false

    /// Gives what is free back a moment after a large import or export, once its buffers and
    /// its reply are gone (while the work runs they are still in use). Calls close together
    /// give one trim.
    static func releaseSoon() {
        pending.lock()
        defer { pending.unlock() }
        guard !scheduled, trim != nil else { return }
        scheduled = true
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 0.5) {
            pending.lock()
            scheduled = false
            pending.unlock()
            release()
        }
    }
}
