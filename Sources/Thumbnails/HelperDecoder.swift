import ContactsSupport
import Foundation
import Glibc

/// Photos decoded in a helper process, `contactsd-imaging`, so that the daemon never maps
/// libvips and the hundred libraries of its loaders (~20 MiB of its memory), and a decoder
/// that crashes or hangs on a hostile image takes only the helper with it.
///
/// A helper serves one request at a time over a socket pair and stays for a few seconds of
/// idleness, so an import of many cards with photos starts a helper once, not per photo.
/// Several requests at once start several helpers.
public final class HelperDecoder: ImageDecoding, @unchecked Sendable {
    public let executable: String
    /// How long a helper may take for one photo before it is killed.
    let timeoutSeconds: Int
    /// How long an idle helper is kept.
    let idleSeconds: Double

    private struct Helper {
        var pid: pid_t
        var fd: Int32
        var idleSince: Double
    }

    /// The helpers waiting for work, whether the decoder is shut down, and whether a look for
    /// helpers idle too long is due (one at a time, however many requests).
    private struct Pool {
        var idle: [Helper] = []
        var closed = false
        var reapScheduled = false
    }
    private let pool = Locked(Pool())

    public init(executable: String, timeoutSeconds: Int = 60, idleSeconds: Double = 10) {
        self.executable = executable
        self.timeoutSeconds = timeoutSeconds
        self.idleSeconds = idleSeconds
    }

    deinit { shutdown() }

    /// Where the helper is installed next to `contactsd`: beside it (a build directory, a
    /// bin directory), or in `../libexec/contactsd/`.
    public static func locate(besides daemon: String) -> String? {
        let dir = (daemon as NSString).deletingLastPathComponent
        for candidate in [dir + "/contactsd-imaging", dir + "/../libexec/contactsd/contactsd-imaging"]
        where access(candidate, X_OK) == 0 {
            return (candidate as NSString).standardizingPath
        }
        return nil
    }

    /// The path of the running program.
    public static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // What needs no decoder (the byte limit, the format) is answered here.

    public func inspect(_ bytes: [UInt8], limits: ImageLimits) throws(ImageError) -> ImageInfo {
        _ = try limits.check(bytes)
        var reply = try call(ImageWire.request(.inspect, bytes: bytes, size: 0, crop: false, limits: limits))
        return try reply.info()
    }

    public func thumbnail(_ bytes: [UInt8], size: Int, crop: Bool, limits: ImageLimits) throws(ImageError) -> Thumbnail {
        _ = try limits.check(bytes)
        var reply = try call(ImageWire.request(.thumbnail, bytes: bytes, size: size, crop: crop, limits: limits))
        return try reply.thumbnail()
    }

    /// How many helpers are waiting for work.
    var idleCount: Int {
        pool.withLock { $0.idle.count }
    }

    /// Stops every idle helper.
    public func shutdown() {
        let helpers = pool.withLock { p in
            p.closed = true
            defer { p.idle = [] }
            return p.idle
        }
        for h in helpers { stop(h, kill: false) }
    }

    private func call(_ request: [UInt8]) throws(ImageError) -> ImageWire.Reader {
        var helper = try take()
        let reply: [UInt8]
        do {
            try ImageWire.send(helper.fd, request)
            reply = try ImageWire.receiveFrame(helper.fd)
        } catch {
            // A helper that died, hung or answered nonsense is not used again. One that closed
            // its end is ending on its own: waiting for it tells how.
            let how = stop(helper, kill: error != .closed)
            throw .unsupported("the image decoder stopped (\(how)) on this photo")
        }
        helper.idleSince = Self.now()
        give(back: helper)
        return ImageWire.Reader(reply)
    }

    private func take() throws(ImageError) -> Helper {
        // Helpers idle for too long go first.
        reapIdle()
        let reused = pool.withLock { $0.idle.popLast() }
        if let reused { return reused }
        return try spawn()
    }

    private func give(back helper: Helper) {
        let kept = pool.withLock { p in
            if !p.closed { p.idle.append(helper) }
            return !p.closed
        }
        guard kept else {
            stop(helper, kill: false)
            return
        }
        scheduleReap()
    }

    /// Idle helpers are stopped once idle for long enough, even if no request comes to notice.
    private func scheduleReap() {
        let due = pool.withLock { p in
            let due = !p.reapScheduled && !p.idle.isEmpty
            if due { p.reapScheduled = true }
            return due
        }
        guard due else { return }
        TaskQueue.timers.after(seconds: idleSeconds + 0.5) { [weak self] in
            guard let self else { return }
            self.pool.withLock { $0.reapScheduled = false }
            self.reapIdle()
            self.scheduleReap()  // for helpers that became idle meanwhile
        }
    }

    private func reapIdle() {
        let now = Self.now()
        var expired: [Helper] = []
        pool.withLock { p in
            p.idle.removeAll { h in
                guard now - h.idleSince > idleSeconds else { return false }
                expired.append(h)
                return true
            }
        }
        for h in expired { stop(h, kill: false) }
    }

    private func spawn() throws(ImageError) -> Helper {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw .unsupported("cannot start the image decoder: \(SystemError("socketpair"))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The helper's end becomes its standard input and output; stderr stays the daemon's.
        posix_spawn_file_actions_adddup2(&actions, fds[1], 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(fds[1])
        guard status == 0 else {
            close(fds[0])
            throw .unsupported("cannot start the image decoder \(executable): \(SystemError("", errno: status).reason)")
        }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fds[0], SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        return Helper(pid: pid, fd: fds[0], idleSince: Self.now())
    }

    /// Ends a helper: closing its socket makes it exit; `kill` does not wait for that.
    /// Returns how it ended, for messages.
    @discardableResult
    private func stop(_ h: Helper, kill: Bool) -> String {
        var status: Int32 = 0
        // One that already ended says how; one still running (hung, or confused) is killed.
        var ended = waitpid(h.pid, &status, WNOHANG) == h.pid
        var killed = false
        if !ended && kill {
            Glibc.kill(h.pid, SIGKILL)
            killed = true
        }
        close(h.fd)
        // Reaped, or not ours to reap (ECHILD): either way it is gone.
        if !ended { _ = try? retryingSyscall("waitpid") { waitpid(h.pid, &status, 0) } }
        let signal = status & 0x7F
        if killed { return "killed" }
        if signal != 0 { return "signal \(signal)" }
        return "exit status \((status >> 8) & 0xFF)"
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

}
