import Glibc

/// Where the CardDAV face listens: a host (an IP address) and a port on loopback. Written
/// `127.0.0.1:5232`, `[::1]:5232` or `localhost:5232`; any other address is refused, with
/// why: nothing but TLS and passwords could make a non-loopback listener safe, and neither
/// is there yet.
public struct LoopbackAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The base URL a client is given.
    public var url: String { "http://\(description)/" }

    public static func parse(_ text: String) -> Result<LoopbackAddress, ParseError> {
        let host: String
        let portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return .failure(.init("'\(text)' needs a port: [::1]:5232")) }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        } else {
            return .failure(.init("'\(text)' is not HOST:PORT (such as 127.0.0.1:5232)"))
        }
        guard let port = UInt16(portText), port > 0 else { return .failure(.init("'\(portText)' is not a port from 1 to 65535")) }
        let numeric = host == "localhost" ? "127.0.0.1" : host
        guard isLoopback(numeric) else {
            return .failure(
                .init(
                    "'\(host)' is not a loopback address: contactsd serves CardDAV to this machine only (127.0.0.1 or [::1]), since a listener other machines reach would need TLS and passwords, which it does not have"
                ))
        }
        return .success(LoopbackAddress(host: numeric, port: port))
    }

    /// 127.0.0.0/8 or ::1, written as numbers.
    static func isLoopback(_ host: String) -> Bool {
        if host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var description: String
        init(_ message: String) { description = message }
    }
}

extension LoopbackAddress {
    /// Where a listening socket is bound, when that is loopback (nil for any other address,
    /// or a socket that is no TCP one).
    public static func bound(_ fd: Int32) -> LoopbackAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard ok == 0 else { return nil }
        return withUnsafePointer(to: &storage) { p -> LoopbackAddress? in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { a -> LoopbackAddress? in
                guard let e = PeerOwner.endpoint(a) else { return nil }
                let v4 = PeerOwner.v4(e.address)
                if v4.count == 4 {
                    let host = v4.map(String.init).joined(separator: ".")
                    return isLoopback(host) ? LoopbackAddress(host: host, port: e.port) : nil
                }
                return e.address == Array(repeating: 0, count: 15) + [1] ? LoopbackAddress(host: "::1", port: e.port) : nil
            }
        }
    }
}
