import HTTPServer

/// `carddav.lan` of config.json: where the LAN face listens, and the host name devices are
/// given (else the listening address, or the machine's first address when it listens on all).
public struct LANSettings: Sendable, Equatable {
    public var listen: ListenAddress
    public var host: String?

    public init(listen: ListenAddress, host: String? = nil) { (self.listen, self.host) = (listen, host) }

    /// The port devices are given by default.
    public static let defaultPort: UInt16 = 5233
}
