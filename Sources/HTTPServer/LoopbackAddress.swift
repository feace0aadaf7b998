import Glibc

/// Where the CardDAV face listens: a host (an IP address) and a port on loopback. Written
/// `127.0.0.1:5232`, `[::1]:5232` or `localhost:5232`; any other address is refused, with
/// why: this face has neither TLS nor passwords (the LAN face, `ListenAddress`, has both).
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
        let port: UInt16
        switch ListenAddress.split(text, example: "127.0.0.1:5232") {
        case .success(let parts): (host, port) = parts
        case .failure(let e): return .failure(e)
        }
        let numeric = host == "localhost" ? "127.0.0.1" : host
        guard isLoopback(numeric) else {
            return .failure(
                .init(
                    "'\(host)' is not a loopback address: this face serves this machine only (127.0.0.1 or [::1]), with no password; other devices are served over TLS, each with its own password (carddav.lan: contactsctl serve lan enable)"
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
