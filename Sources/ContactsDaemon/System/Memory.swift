import CSystem
import ContactsSupport
import Dispatch
import Foundation
import Glibc

/// The daemon's heap is jemalloc's: linked into the `contactsd` executable, it serves malloc
/// and free for the whole process, and the executable hands its `mallctl` over (`use`). The
/// library does not link it itself, so that a program that links the daemon's code for
/// another purpose (its tests, under a sanitizer with an allocator of its own) keeps its own
/// allocator. An import parses on every core while one thread writes, and each batch is freed
/// by the thread that made it: glibc's allocator spent a fifth of such an import in its
/// arena locks and in merging small free blocks whenever a larger one was asked for; jemalloc's
/// per-thread caches and size classes take a 100k-card import from 4.3–5.1 s to 3.4–4.2 s,
/// and a million cards from 56 s to 41 s.
///
/// jemalloc keeps freed pages for reuse and lets them go over the following seconds, and only
/// while the process allocates; after a large import or export, what is free goes back at
/// once (`releaseSoon`).
public enum Memory {
    /// jemalloc's control function.
    public typealias Control =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
        ) -> Int32

    /// Set once by the executable, before any thread starts; nil under another allocator.
    nonisolated(unsafe) private static var control: Control?

    /// Tells the daemon that jemalloc serves its heap, and how to steer it.
    public static func use(_ mallctl: Control) {
        control = mallctl
        ThreadCache.use { _ = mallctl("thread.tcache.flush", nil, nil, nil, 0) }
    }

    private static func mallctl(
        _ name: String, _ old: UnsafeMutableRawPointer?, _ oldSize: UnsafeMutablePointer<Int>?, _ new: UnsafeMutableRawPointer?,
        _ newSize: Int
    ) -> Int32 {
        guard let control else { return -1 }
        return control(name, old, oldSize, new, newSize)
    }

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

    /// jemalloc's own figures, in bytes: what the program holds (`allocated`), what jemalloc
    /// has resident (`resident`: the pages of those allocations, freed pages not yet given
    /// back, and its own bookkeeping) and that bookkeeping (`metadata`). Nil under another
    /// allocator.
    static func heap() -> (allocated: Int, resident: Int, metadata: Int)? {
        // The statistics are a snapshot taken when the epoch moves on.
        var epoch: UInt64 = 1
        guard mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size) == 0 else { return nil }
        func read(_ name: String) -> Int {
            var value = 0
            var size = MemoryLayout<Int>.size
            return mallctl(name, &value, &size, nil, 0) == 0 ? value : 0
        }
        return (read("stats.allocated"), read("stats.resident"), read("stats.metadata"))
    }

    /// This process's resident memory from `/proc/self/status`, in bytes: all of it (`VmRSS`),
    /// its peak (`VmHWM`), anonymous memory (the heap, stacks) and pages of mapped files (the
    /// program, its libraries and their data, such as ICU's).
    static func process() -> (resident: Int, peak: Int, anonymous: Int, files: Int) {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0, 0, 0) }
        var kib: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" })
            if parts.count >= 2, let v = Int(parts[1]) { kib[String(parts[0])] = v }
        }
        return ((kib["VmRSS"] ?? 0) << 10, (kib["VmHWM"] ?? 0) << 10, (kib["RssAnon"] ?? 0) << 10, (kib["RssFile"] ?? 0) << 10)
    }

    /// Gives what is free back now: what this thread has cached (it is the one that freed
    /// what a rest lets go of), then every arena's unused pages go back to the system.
    static func release() {
        ThreadCache.flush()
        // "arena.<i>.purge" with MALLCTL_ARENAS_ALL (4096): every arena; else the C library's.
        if mallctl("arena.4096.purge", nil, nil, nil, 0) != 0 { malloc_trim(0) }
    }

    /// Whether a release is due already.
    private static let scheduled = Locked(false)

    /// Gives what is free back a moment after a large import or export, once its buffers and
    /// its reply are gone (while the work runs they are still in use). Calls close together
    /// give one release.
    static func releaseSoon() {
        let due = scheduled.withLock { s in
            defer { s = true }
            return !s
        }
        guard due else { return }
        TaskQueue.timers.after(seconds: 0.5) {
            scheduled.withLock { $0 = false }
            release()
        }
    }
}
