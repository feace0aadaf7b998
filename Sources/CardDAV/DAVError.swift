import Foundation

/// What went wrong talking to a server. Messages name the URL without any credentials in
/// it and never carry a password or token.
public enum DAVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached, or did not answer in time.
    case unreachable(url: String, message: String)
    /// The server answered with an error status.
    case status(Int, url: String, message: String, retryAfter: Double?)
    /// The server's answer could not be used.
    case malformed(String)
    /// The URL is not one this client talks to (plain http away from loopback, a scheme
    /// other than http and https).
    case refusedURL(String)

    public var description: String {
        switch self {
        case .unreachable(let url, let message): "cannot reach \(url): \(message)"
        case .status(let code, let url, let message, _): "\(url) answered \(code)\(message.isEmpty ? "" : ": " + message)"
        case .malformed(let message): message
        case .refusedURL(let message): message
        }
    }

    /// The HTTP status, when the server answered one.
    public var status: Int? {
        if case .status(let code, _, _, _) = self { return code }
        return nil
    }

    /// Whether trying again later may succeed (no answer, a time-out, 429, 5xx).
    public var isTransient: Bool {
        switch self {
        case .unreachable: true
        case .status(let code, _, _, _): code == 429 || code >= 500
        default: false
        }
    }
}

/// Where requests may go: https anywhere, http only to this machine (a password sent in
/// clear over a network is a password given away).
public enum URLPolicy {
    public static func check(_ url: URL) throws(DAVError) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw .refusedURL("'\(redacted(url))' is not an http or https URL with a host")
        }
        switch scheme {
        case "https": return
        case "http":
            guard isLoopback(host) else {
                throw .refusedURL(
                    "'\(redacted(url))' is plain http to another machine; use https (http is only for 127.0.0.1, ::1 or localhost)")
            }
        default: throw .refusedURL("'\(redacted(url))' is not an http or https URL")
        }
    }

    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return h == "localhost" || h == "::1" || h.hasPrefix("127.")
    }

    /// The URL as it may be shown: without a user or password in it.
    public static func redacted(_ url: URL) -> String {
        guard var c = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(a URL)" }
        c.user = nil
        c.password = nil
        return c.string ?? "(a URL)"
    }
}
