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

    private let lock = NSLock()
    private var idle: [Helper] = []
    private var closed = false
    /// Whether a look for helpers idle too long is due: one at a time, however many requests.
    private var reapScheduled = false

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
        lock.lock()
        defer { lock.unlock() }
        return idle.count
    }

    /// Stops every idle helper.
    public func shutdown() {
        lock.lock()
        closed = true
        let helpers = idle
        idle = []
        lock.unlock()
        for h in helpers { stop(h, kill: false) }
    }

    private func call(_ request: [UInt8]) throws(ImageError) -> ImageWire.Reader {
        var helper = try take()
        let reply: [UInt8]
        do {
            try Self.send(helper.fd, request)
            reply = try Self.receiveFrame(helper.fd)
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
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        if let reused { return reused }
        return try spawn()
    }

    private func give(back helper: Helper) {
        lock.lock()
        if closed {
            lock.unlock()
            stop(helper, kill: false)
            return
        }
        idle.append(helper)
        lock.unlock()
        scheduleReap()
    }

    /// Idle helpers are stopped once idle for long enough, even if no request comes to notice.
    private func scheduleReap() {
        lock.lock()
        let due = !reapScheduled && !idle.isEmpty
        if due { reapScheduled = true }
        lock.unlock()
        guard due else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + idleSeconds + 0.5) { [weak self] in
            guard let self else { return }
            self.lock.lock()
            self.reapScheduled = false
            self.lock.unlock()
            self.reapIdle()
            self.scheduleReap()  // for helpers that became idle meanwhile
        }
    }

    private func reapIdle() {
        lock.lock()
        let now = Self.now()
        var expired: [Helper] = []
        idle.removeAll { h in
            guard now - h.idleSince > idleSeconds else { return false }
            expired.append(h)
            return true
        }
        lock.unlock()
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

    public enum IOFailure: Error { case closed, failed }

    /// Writes a frame: its length (8 bytes, little-endian), then its bytes.
    public static func send(_ fd: Int32, _ payload: [UInt8]) throws(IOFailure) {
        var frame = ImageWire.u64(UInt64(payload.count))
        frame += payload
        var offset = 0
        while offset < frame.count {
            let n: Int
            do {
                n = try retryingSyscall("send") {
                    // offset < frame.count, so the frame is not empty and has a base address.
                    // swift-format-ignore: NeverForceUnwrap
                    frame.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                throw error.isDisconnected ? .closed : .failed
            }
            guard n > 0 else { throw .failed }
            offset += n
        }
    }

    /// Reads one frame; `limit` bounds what the other side may announce.
    public static func receiveFrame(_ fd: Int32, limit: Int = 1 << 30) throws(IOFailure) -> [UInt8] {
        let head = try receive(fd, 8)
        var reader = ImageWire.Reader(head)
        let length = Int(reader.u64() ?? 0)
        guard length <= limit else { throw .failed }
        return try receive(fd, length)
    }

    static func receive(_ fd: Int32, _ count: Int) throws(IOFailure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n: Int
            do {
                // offset < count, so the buffer is not empty and has a base address.
                // swift-format-ignore: NeverForceUnwrap
                n = try retryingSyscall("recv") { out.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + offset, count - offset, 0) } }
            } catch {
                throw error.isDisconnected ? .closed : .failed
            }
            if n == 0 { throw .closed }
            offset += n
        }
        return out
    }
}

/// The frames between `HelperDecoder` and `contactsd-imaging`: little-endian integers, then
/// bytes. A request: operation (1 byte), size (4), crop (1), byte limit (8), pixel limit (8),
/// the photo. A reply: status (1 byte: 0 done, 1 unsupported, 2 too large), then for a header
/// the format (1), width, height, orientation (4 each); for a thumbnail width and height (4
/// each) and the JPEG; for a refusal the message.
public enum ImageWire {
    public enum Operation: UInt8 {
        case inspect = 1
        case thumbnail = 2
    }

    public struct Request {
        public var operation: Operation
        public var size: Int
        public var crop: Bool
        public var limits: ImageLimits
        public var bytes: [UInt8]
    }

    static func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func u64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    static func request(_ op: Operation, bytes: [UInt8], size: Int, crop: Bool, limits: ImageLimits) -> [UInt8] {
        var out: [UInt8] = [op.rawValue]
        out.reserveCapacity(22 + bytes.count)
        out += u32(UInt32(clamping: size))
        out.append(crop ? 1 : 0)
        out += u64(UInt64(clamping: limits.maxBytes))
        out += u64(UInt64(clamping: limits.maxPixels))
        out += bytes
        return out
    }

    /// A request as the helper reads it, or nil when the frame is not one.
    public static func parseRequest(_ frame: [UInt8]) -> Request? {
        var r = Reader(frame)
        guard let op = r.u8().flatMap(Operation.init(rawValue:)), let size = r.u32(), let crop = r.u8(), let maxBytes = r.u64(),
            let maxPixels = r.u64()
        else { return nil }
        return Request(
            operation: op, size: Int(size), crop: crop != 0,
            limits: ImageLimits(maxBytes: Int(clamping: maxBytes), maxPixels: Int(clamping: maxPixels)), bytes: r.rest())
    }

    public static func reply(_ result: Result<ImageInfo, ImageError>) -> [UInt8] {
        switch result {
        case .success(let info):
            let format = UInt8(ImageFormat.allCases.firstIndex(of: info.format) ?? 0)
            return [0, format] + u32(UInt32(clamping: info.width)) + u32(UInt32(clamping: info.height))
                + u32(UInt32(clamping: info.orientation))
        case .failure(let e): return refusal(e)
        }
    }

    public static func reply(_ result: Result<Thumbnail, ImageError>) -> [UInt8] {
        switch result {
        case .success(let t): return [0] + u32(UInt32(clamping: t.width)) + u32(UInt32(clamping: t.height)) + t.jpeg
        case .failure(let e): return refusal(e)
        }
    }

    static func refusal(_ e: ImageError) -> [UInt8] {
        switch e {
        case .unsupported(let m): [1] + Array(m.utf8)
        case .tooLarge(let m): [2] + Array(m.utf8)
        }
    }

    /// Reads little-endian integers from the front of a frame.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func u8() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func integer(_ width: Int) -> UInt64? {
            guard offset + width <= bytes.count else { return nil }
            var v: UInt64 = 0
            for k in 0..<width { v |= UInt64(bytes[offset + k]) << (8 * k) }
            offset += width
            return v
        }

        mutating func u32() -> UInt32? { integer(4).map { UInt32($0) } }
        mutating func u64() -> UInt64? { integer(8) }
        mutating func rest() -> [UInt8] {
            defer { offset = bytes.count }
            return Array(bytes[offset...])
        }

        /// The refusal a reply carries, if it is one.
        mutating func status() throws(ImageError) {
            switch u8() {
            case 0?: return
            case 1?: throw .unsupported(String(decoding: rest(), as: UTF8.self))
            case 2?: throw .tooLarge(String(decoding: rest(), as: UTF8.self))
            default: throw .unsupported("the image decoder answered nonsense")
            }
        }

        mutating func info() throws(ImageError) -> ImageInfo {
            try status()
            guard let f = u8(), Int(f) < ImageFormat.allCases.count, let w = u32(), let h = u32(), let o = u32() else {
                throw .unsupported("the image decoder answered nonsense")
            }
            return ImageInfo(format: ImageFormat.allCases[Int(f)], width: Int(w), height: Int(h), orientation: Int(o))
        }

        mutating func thumbnail() throws(ImageError) -> Thumbnail {
            try status()
            guard let w = u32(), let h = u32() else { throw .unsupported("the image decoder answered nonsense") }
            return Thumbnail(jpeg: rest(), width: Int(w), height: Int(h))
        }
    }
}
