import ContactsSupport
import Foundation
import Glibc

/// An inotify instance read on a thread of its own: each batch of events goes to a handler,
/// names decoded; `stop` wakes the thread through a pipe and waits for it.
final class Inotify: @unchecked Sendable {
    struct Event {
        var watch: Int32
        var mask: UInt32
        var name: String
    }

    /// The queue overflowed: events were lost, whoever watches must look again.
    static let overflow = UInt32(IN_Q_OVERFLOW)

    private let fd: Int32
    private let wake: [Int32]
    private let done = NSCondition()
    private var running = false

    init() throws(SystemError) {
        fd = try retryingSyscall("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC)) }
        var fds: [Int32] = [-1, -1]
        do {
            try retryingSyscall("pipe") { pipe(&fds) }
        } catch {
            close(fd)
            throw error
        }
        for f in fds { _ = fcntl(f, F_SETFD, FD_CLOEXEC) }
        wake = fds
    }

    deinit {
        close(fd)
        close(wake[0])
        close(wake[1])
    }

    /// Watches `path` for `mask`; returns the watch descriptor events carry.
    func watch(_ path: String, _ mask: UInt32) throws(SystemError) -> Int32 {
        try retryingSyscall("watch", detail: path) { inotify_add_watch(fd, path, mask) }
    }

    func unwatch(_ watch: Int32) { _ = inotify_rm_watch(fd, watch) }

    /// Reads events on a new thread named `name` until `stop`; `failed` hears a read error,
    /// which ends the reading.
    func start(name: String, _ handle: @escaping @Sendable ([Event]) -> Void, failed: @escaping @Sendable (SystemError) -> Void) {
        done.withLock { running = true }
        let reader = Thread { [self] in
            read(handle, failed: failed)
            done.withLock {
                running = false
                done.broadcast()
            }
        }
        reader.name = name
        reader.start()
    }

    /// Ends the reading thread and waits (at most `timeout` seconds) for it.
    func stop(timeout: Double = 30) {
        var one: UInt8 = 1
        _ = write(wake[1], &one, 1)
        done.withLock {
            let deadline = Date().addingTimeInterval(timeout)
            while running { if !done.wait(until: deadline) { break } }
        }
    }

    private func read(_ handle: ([Event]) -> Void, failed: (SystemError) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var pfds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
        while true {
            guard (try? retryingSyscall("poll", { poll(&pfds, 2, -1) })) != nil, pfds[1].revents == 0 else { return }
            let n: Int
            do {
                n = try retryingSyscall("read", detail: "inotify events") {
                    buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                }
            } catch {
                if error.errno == EAGAIN { continue }
                failed(error)
                return
            }
            var events: [Event] = []
            var offset = 0
            while offset + 16 <= n {
                let watch = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset, as: Int32.self) }
                let mask = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 4, as: UInt32.self) }
                let len = Int(buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) })
                let raw = buffer[min(offset + 16, n)..<min(offset + 16 + len, n)]
                events.append(Event(watch: watch, mask: mask, name: String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)))
                offset += 16 + len
            }
            handle(events)
        }
    }
}
