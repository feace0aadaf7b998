import Foundation

/// An HTTP proxy on 127.0.0.1 between a client and a real server, that can misbehave on
/// purpose: lose the answer to a request the server did carry out (the connection closes
/// before the answer comes back), answer 503 with `Retry-After` without passing the request
/// on, or hold an answer back in silence. Everything else passes through as it is, one request per connection.
public final class FaultProxy: @unchecked Sendable {
    public enum Fault: Sendable {
        /// The next request with this method reaches the server; its answer is lost.
        case loseAnswer(method: String)
        /// The next request with this method is answered 503 with this `Retry-After`.
        case unavailable(method: String, retryAfter: String)
        /// The next request with this method reaches the server; its answer starts coming back
        /// only after this many seconds of silence.
        case slow(method: String, seconds: Double)
    }

    public let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private let lock = NSLock()
    private var faults: [Fault] = []
    private var stopped = false

    /// The proxy's URL for a path of the server's.
    public func url(_ server: URL) -> URL {
        var c = URLComponents(url: server, resolvingAgainstBaseURL: false)
        c?.port = port
        return c?.url ?? server
    }

    public init(upstreamPort: Int) throws {
        self.upstreamPort = upstreamPort
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = Self.loopback(0)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard ok else { throw DAVServer.Failure(description: "the proxy cannot listen") }
        port = Int(UInt16(bigEndian: addr.sin_port))
        let t = Thread { [weak self] in self?.accept() }
        t.name = "fault-proxy"
        t.start()
    }

    deinit { stop() }

    public func inject(_ fault: Fault) { lock.withLock { faults.append(fault) } }

    /// Forgets the faults no request has met yet.
    public func clearFaults() { lock.withLock { faults = [] } }

    public func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    private func accept() {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { return }
            let t = Thread { [weak self] in
                self?.serve(fd)
                close(fd)
            }
            t.start()
        }
    }

    private func serve(_ client: Int32) {
        guard let request = Self.readMessage(client) else { return }
        let method = String(decoding: request.head.prefix { $0 != 0x20 }, as: UTF8.self)
        let fault = lock.withLock { () -> Fault? in
            guard
                let i = faults.firstIndex(where: {
                    switch $0 {
                    case .loseAnswer(let m), .unavailable(let m, _), .slow(let m, _): m == method
                    }
                })
            else { return nil }
            return faults.remove(at: i)
        }
        if case .unavailable(_, let retryAfter)? = fault {
            Self.send(
                client,
                Data(
                    "HTTP/1.1 503 Service Unavailable\r\nRetry-After: \(retryAfter)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            )
            return
        }
        // To the server, on a connection of its own that closes after the answer.
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(upstream) }
        var addr = Self.loopback(upstreamPort)
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return }
        Self.send(upstream, Self.withConnectionClose(request.head) + request.body)
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(upstream, &buffer, buffer.count, 0)
            if n <= 0 { break }
            answer.append(contentsOf: buffer[0..<n])
        }
        if case .loseAnswer? = fault { return }
        if case .slow(_, let seconds)? = fault { usleep(UInt32(seconds * 1_000_000)) }
        Self.send(client, answer)
    }

    /// One request: its head (through the blank line) and its body (by Content-Length).
    private static func readMessage(_ fd: Int32) -> (head: Data, body: Data)? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = data.range(of: Data("\r\n\r\n".utf8)) {
                let head = data[data.startIndex..<end.upperBound]
                let text = String(decoding: head, as: UTF8.self).lowercased()
                let length =
                    text.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                while data.count - head.count < length {
                    let n = recv(fd, &buffer, buffer.count, 0)
                    if n <= 0 { return nil }
                    data.append(contentsOf: buffer[0..<n])
                }
                return (Data(head), Data(data[end.upperBound..<(end.upperBound + length)]))
            }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return nil }
            data.append(contentsOf: buffer[0..<n])
        }
    }

    private static func withConnectionClose(_ head: Data) -> Data {
        var lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").filter {
            !$0.lowercased().hasPrefix("connection:") && !$0.lowercased().hasPrefix("keep-alive:")
        }
        // The head ends in two empty strings (the blank line); the header goes before them.
        lines.insert("Connection: close", at: max(1, lines.count - 2))
        return Data(lines.joined(separator: "\r\n").utf8)
    }

    private static func send(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var off = 0
            while off < raw.count {
                let n = Glibc.send(fd, base + off, raw.count - off, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                off += n
            }
        }
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return addr
    }
}
