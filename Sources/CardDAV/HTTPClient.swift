import ContactsSupport
import Foundation

/// One HTTP request.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP answer; header names are lower case.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    /// Where the answer came from, after any redirects.
    public var url: URL
    /// A large answer asked for as a file (`send(_:bodyToFile:)`): its body is here, not in `body`.
    public var bodyFile: BodyFile?

    public init(status: Int, headers: [String: String], body: Data, url: URL, bodyFile: BodyFile? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.bodyFile = bodyFile
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Retry-After` in seconds from now: a number of seconds or an HTTP date.
    public var retryAfter: Double? {
        guard let v = header("retry-after")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(v) { return max(0, seconds) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return f.date(from: v).map { max(0, $0.timeIntervalSinceNow) }
    }
}

/// Sends requests and waits for their answers, each on the caller's thread (libcurl's
/// blocking interface: nothing spins while a slow server thinks). Redirects are followed
/// here: at most five, each checked by `URLPolicy`, and credentials go only to the origin they
/// were given for. Connections are kept for the next request to the same server.
public final class HTTPClient: Sendable {
    public let credentials: Credentials
    public let timeout: TimeInterval
    /// A file of CA certificates trusted besides the system's (a private CA), when given.
    public let caFile: String?
    private let origin: String?
    private let handles = CurlHandles()

    /// `origin` is the scheme, host and port the credentials belong to (the account's URL).
    /// `timeout` is how long an answer may stay silent before the request is given up.
    public init(credentials: Credentials, for url: URL, timeout: TimeInterval = 30, caFile: String? = nil) {
        self.credentials = credentials
        self.timeout = timeout
        self.caFile = caFile
        origin = Self.origin(of: url)
    }

    /// How many requests this client has sent.
    public var requests: Int { sent.withLock { $0 } }
    private let sent = Locked(0)

    /// Sends `request`, following redirects. With `bodyToFile`, a successful answer's body goes
    /// to a private temporary file as it arrives (`bodyFile`) instead of memory: for answers as
    /// large as a whole address book.
    public func send(_ request: HTTPRequest, bodyToFile: Bool = false) throws(DAVError) -> HTTPResponse {
        var current = request
        var renewed = false
        for _ in 0...5 {
            var answer = try once(current, bodyToFile: bodyToFile, renewed: false)
            if answer.status == 401, case .tokens = credentials, !renewed, Self.origin(of: current.url) == origin {
                // The access token expired: a new one, and the same request once more.
                renewed = true
                answer = try once(current, bodyToFile: bodyToFile, renewed: true)
            }
            guard [301, 302, 303, 307, 308].contains(answer.status), let location = answer.header("location"),
                let next = URL(string: location, relativeTo: current.url)?.absoluteURL
            else { return answer }
            if answer.status == 303 {
                current.method = "GET"
                current.body = nil
            }
            current.url = next
        }
        throw .status(310, url: URLPolicy.redacted(request.url), message: "too many redirects", retryAfter: nil)
    }

    private func once(_ request: HTTPRequest, bodyToFile: Bool, renewed: Bool) throws(DAVError) -> HTTPResponse {
        try URLPolicy.check(request.url)
        var headers = request.headers
        headers["User-Agent"] = "contactsd"
        if Self.origin(of: request.url) == origin, let auth = try credentials.header(renewed: renewed) { headers["Authorization"] = auth }
        sent.withLock { $0 += 1 }
        let shown = URLPolicy.redacted(request.url)
        let file: BodyFile?
        do {
            file = bodyToFile ? try BodyFile() : nil
        } catch {
            throw .unreachable(url: shown, message: "no temporary file for the answer: \(error)")
        }
        let handle = try handles.take(for: shown)
        defer { handles.giveBack(handle) }
        let transfer = CurlTransfer(handle: handle, into: file)
        let outcome = transfer.perform(
            method: request.method, url: request.url.absoluteString, headers: headers, body: request.body, timeout: timeout, caFile: caFile)
        if let failure = transfer.writeFailure { throw .unreachable(url: shown, message: "the answer could not be kept: \(failure)") }
        if let error = outcome { throw .unreachable(url: shown, message: error) }
        var answer = HTTPResponse(status: transfer.status, headers: transfer.headers, body: transfer.body, url: request.url, bodyFile: file)
        if let file, !(200..<300).contains(answer.status) {
            // An error's body is short and read for its message.
            answer.body = file.prefix(64 * 1024)
            answer.bodyFile = nil
        }
        return answer
    }

    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }
}
