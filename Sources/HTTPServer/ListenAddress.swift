import Glibc

/// Where a listener on the network listens: an IP address (IPv4, IPv6, or the wildcard of
/// either for every address of the machine) and a port. Written `198.18.0.1:5233`,
/// `[fd00::1]:5233`, `0.0.0.0:5233`.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) { (self.host, self.port) = (host, port) }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Every address of the machine (`0.0.0.0` or `::`).
    public var isWildcard: Bool { host == "0.0.0.0" || host == "::" }

    public static func parse(_ text: String) -> Result<ListenAddress, LoopbackAddress.ParseError> {
        switch split(text, example: "198.18.0.1:5233") {
        case .failure(let e): return .failure(e)
        case .success(let (host, port)):
            var storage = sockaddr_storage()
            guard HTTPListener.address(host, port, into: &storage) else {
                return .failure(.init("'\(host)' is not an IP address (such as 198.18.0.1, [fd00::1] or 0.0.0.0 for every address)"))
            }
            return .success(ListenAddress(host: host, port: port))
        }
    }

    /// `HOST:PORT` or `[V6]:PORT` as its two parts, the port from 1 to 65535.
    static func split(_ text: String, example: String) -> Result<(String, UInt16), LoopbackAddress.ParseError> {
        let host: String
        let portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else {
                return .failure(.init("'\(text)' needs a port: [\(host)]:\(example.split(separator: ":").last ?? "")"))
            }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        } else {
            return .failure(.init("'\(text)' is not HOST:PORT (such as \(example))"))
        }
        guard let port = UInt16(portText), port > 0 else { return .failure(.init("'\(portText)' is not a port from 1 to 65535")) }
        return .success((host, port))
    }
}
