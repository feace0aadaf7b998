import ContactsSupport
import Dispatch
import Foundation
import Glibc

// What keeps the store's files in shape after a large write: the log pushed to disk as it
// grows, then copied into the database once reads pause.
extension ContactStore {

    /// Copies the write-ahead log into the database on a thread of its own at the lowest
    /// priority, holding the write lock, once reads have paused for a second (or after half a
    /// minute at most): copying a large log makes searches that run meanwhile several times
    /// slower (p99 at 100k: 15 ms instead of 5). A thread of its own, because an unprivileged
    /// process cannot raise its priority again, and a pooled thread would keep it.
    /// Copies the whole log into the database now and, with `truncating`, empties the log
    /// file (a purge: the old pages must not stay in it). Waits for readers to let go.
    func checkpointNow(truncating: Bool) throws {
        writeLock.lock()
        defer { writeLock.unlock() }
        if isClosed { throw StoreError.unavailable("the store is closed") }
        for _ in 0..<50 {
            // The first column says whether a reader kept it from finishing.
            let busy = try writer.scalarInt("PRAGMA wal_checkpoint(\(truncating ? "TRUNCATE" : "FULL"))")
            if busy == 0 { return }
            usleep(20_000)
        }
        throw StoreError.unavailable("the log could not be emptied: readers kept it busy")
    }

    func checkpointSoon() {
        // The import itself counts: searches right after it (a client told of the new
        // contacts) must find the store quiet for a second first.
        noteRead()
        let thread = Thread { [self] in
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)  // on Linux, the calling thread
            let start = Timestamp.monotonicMillis()
            while Timestamp.monotonicMillis() - start < 30_000 {
                let quiet = Timestamp.monotonicMillis() - pool.withLock { $0.lastRead }
                if quiet >= 1_000 { break }
                usleep(200_000)
            }
            writeLock.lock()
            defer { writeLock.unlock() }
            if !isClosed { try? writer.execute("PRAGMA wal_checkpoint(PASSIVE)") }
        }
        thread.name = "checkpoint"
        thread.start()
    }
}

/// Pushes the write-ahead log to disk every second while a large write runs. SQLite writes
/// the pages its cache cannot hold into the log as the write goes, but the kernel keeps
/// them in memory (on a machine with room, for up to half a minute): the flush of an
/// import's photo files and the commit's sync then had all of them to write, after the last
/// contact (at 300k contacts: 330 ms of the flush, against 10-60 ms now).
final class LogPusher: @unchecked Sendable {
    private let path: String
    private let wake = DispatchSemaphore(value: 0)

    init(path: String) {
        self.path = path
        let thread = Thread { [self] in
            while wake.wait(timeout: .now() + 1) == .timedOut {
                let fd = open(self.path, O_RDONLY | O_CLOEXEC)
                if fd >= 0 {
                    _ = fdatasync(fd)
                    close(fd)
                }
            }
        }
        thread.name = "log-pusher"
        thread.start()
    }

    /// Stops the pushing (a push under way ends on its own: another sync is harmless).
    func stop() { wake.signal() }
}
