import CJemalloc
import Dispatch
import Foundation
import Glibc

/// The daemon's heap is jemalloc's (linked in, it serves malloc and free for the whole
/// process). An import parses on every core while one thread writes, and each batch is freed
/// by the thread that made it: glibc's allocator spent a fifth of such an import in its
/// arena locks and in merging small free blocks whenever a larger one was asked for; jemalloc's
/// per-thread caches and size classes take a 100k-card import from 4.3–5.1 s to 3.4–4.2 s,
/// and a million cards from 56 s to 41 s.
///
/// jemalloc keeps freed pages for reuse and lets them go over the following seconds, and only
/// while the process allocates; after a large import or export, what is free goes back at
/// once (`releaseSoon`).
enum Memory {
    /// Which allocator serves this process's mallocs: "jemalloc VERSION" when jemalloc's own
    /// count of this thread's allocations sees a malloc, else "the C library's malloc" (a
    /// sanitizer's allocator, for one, takes malloc over).
    static var allocator: String {
        var before: UInt64 = 0, after: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        guard mallctl("thread.allocated", &before, &size, nil, 0) == 0 else { return "the C library's malloc" }
        let block = malloc(1 << 20)
        defer { free(block) }
        // Asked about, so that the compiler keeps the block (an unused malloc and free go).
        guard malloc_usable_size(block) >= 1 << 20 else { return "the C library's malloc" }
        size = MemoryLayout<UInt64>.size
        guard mallctl("thread.allocated", &after, &size, nil, 0) == 0, after - before >= 1 << 20 else { return "the C library's malloc" }
        var version: UnsafePointer<CChar>?
        size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &version, &size, nil, 0) == 0, let version else { return "jemalloc" }
        return "jemalloc " + String(cString: version).prefix { $0 != "-" }
    }

    /// Gives what is free back now: every arena's unused pages go back to the system.
    static func release() {
        // "arena.<i>.purge" with MALLCTL_ARENAS_ALL (4096): every arena.
        _ = mallctl("arena.4096.purge", nil, nil, nil, 0)
    }

    private static let pending = NSLock()
    nonisolated(unsafe) private static var scheduled = false

    /// Gives what is free back a moment after a large import or export, once its buffers and
    /// its reply are gone (while the work runs they are still in use). Calls close together
    /// give one release.
    static func releaseSoon() {
        pending.lock()
        defer { pending.unlock() }
        guard !scheduled else { return }
        scheduled = true
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 0.5) {
            pending.lock()
            scheduled = false
            pending.unlock()
            release()
        }
    }
}
