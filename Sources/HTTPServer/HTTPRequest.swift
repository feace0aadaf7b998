/// One HTTP request as the server read it: its body whole (bounded by the listener's limit).
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path as sent, percent-encoding kept; no query.
    public var path: String
    public var headers: [String: String]
    /// The URL's query arguments, decoded.
    public var query: [String: String] = [:]
    public var body: [UInt8]
    /// Who sent it: the local user that owns the peer's socket, when the listener could tell.
    public var peerUID: UInt32?
    /// The peer's IP address as text (`198.18.0.2`, `fd00::2`), when the listener knows it.
    public var peerAddress: String?

    public init(method: String, path: String, headers: [String: String] = [:], body: [UInt8] = [], peerUID: UInt32? = nil) {
        self.method = method
        self.path = path
        var lower: [String: String] = [:]
        for (k, v) in headers { lower[k.lowercased()] = v }
        self.headers = lower
        self.body = body
        self.peerUID = peerUID
    }

    /// A header's value, by its name in any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What the server answers.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, text: String, contentType: String = "text/plain; charset=utf-8") {
        self.init(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }
}
