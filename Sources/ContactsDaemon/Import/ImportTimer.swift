import Foundation
import Glibc

/// Wall and CPU time of one import, for the debug line that tells where its time went.
struct ImportTimer {
    let started = Date()
    let processCPU = Self.processCPUSeconds()
    let threadCPU = Self.threadCPUSeconds()

    /// Writes the debug line: taken on the thread that ran the store's transaction.
    func report(to log: Logger, cards: Int, pieces: Int, waiting: Double, lastBatch: Date) {
        let now = Date()
        log.debug(
            String(
                format:
                    "import of %d cards in %d pieces: %.0f ms (%.0f ms of it waiting for parsed cards, %.0f ms after the last), %.2f s of CPU (%.2f s by the writing thread)",
                cards, pieces, now.timeIntervalSince(started) * 1000, waiting * 1000, now.timeIntervalSince(lastBatch) * 1000,
                Self.processCPUSeconds() - processCPU, Self.threadCPUSeconds() - threadCPU))
    }

    /// User and system time of the calling thread so far.
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// User and system time of the whole process so far.
    static func processCPUSeconds() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }
}
