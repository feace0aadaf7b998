import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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

    public init(status: Int, headers: [String: String], body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
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

/// Sends requests and waits for their answers, one at a time per caller. Redirects are
/// followed here, not by the URL loading system: at most five, each checked by `URLPolicy`,
/// and credentials go only to the origin they were given for.
public final class HTTPClient: Sendable {
    public let credentials: Credentials
    public let timeout: TimeInterval
    private let session: URLSession
    private let delegate = NoRedirects()
    private let origin: String?

    /// `origin` is the scheme, host and port the credentials belong to (the account's URL).
    public init(credentials: Credentials, for url: URL, timeout: TimeInterval = 30) {
        self.credentials = credentials
        self.timeout = timeout
        origin = Self.origin(of: url)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 4
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// How many requests this client has sent.
    public var requests: Int {
        counter.lock()
        defer { counter.unlock() }
        return sent
    }
    private let counter = NSLock()
    nonisolated(unsafe) private var sent = 0

    public func send(_ request: HTTPRequest) throws(DAVError) -> HTTPResponse {
        var current = request
        for _ in 0...5 {
            let answer = try once(current)
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

    private func once(_ request: HTTPRequest) throws(DAVError) -> HTTPResponse {
        try URLPolicy.check(request.url)
        var r = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        r.httpMethod = request.method
        r.httpBody = request.body
        for (k, v) in request.headers { r.setValue(v, forHTTPHeaderField: k) }
        if Self.origin(of: request.url) == origin, let auth = credentials.header { r.setValue(auth, forHTTPHeaderField: "Authorization") }
        r.setValue("contactsd", forHTTPHeaderField: "User-Agent")
        counter.lock()
        sent += 1
        counter.unlock()
        let box = AnswerBox()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: r) { data, response, error in
            box.set(data, response, error)
            done.signal()
        }
        task.resume()
        done.wait()
        var (data, response, error) = box.get()
        let shown = URLPolicy.redacted(request.url)
        if let refused = delegate.refusal(of: task) {
            (response, error) = (refused, nil)
            data = data ?? Data()
        }
        if let error { throw .unreachable(url: shown, message: Self.describe(error)) }
        guard let http = response as? HTTPURLResponse else { throw .unreachable(url: shown, message: "no HTTP answer") }
        var headers: [String: String] = [:]
        for (k, v) in http.allHeaderFields {
            if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data(), url: request.url)
    }

    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    private static func describe(_ error: Error) -> String {
        let e = error as NSError
        switch e.code {
        case NSURLErrorTimedOut: return "no answer in time"
        case NSURLErrorCannotConnectToHost: return "connection refused"
        case NSURLErrorCannotFindHost: return "unknown host"
        case NSURLErrorNetworkConnectionLost: return "the connection was lost"
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot:
            return "the TLS certificate is not trusted"
        default: return e.localizedDescription
        }
    }
}

/// Hands redirects and authentication challenges back to `HTTPClient`. A 401 is an answer
/// to report (the credentials went with the request): the URL loading system would ask for
/// other credentials, so the task is cancelled and the refusal kept for `HTTPClient` to return.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var refusals: [Int: HTTPURLResponse] = [:]

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if let refused = challenge.failureResponse as? HTTPURLResponse {
            lock.lock()
            refusals[task.taskIdentifier] = refused
            lock.unlock()
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    /// The refusal a task was cancelled for, once.
    func refusal(of task: URLSessionTask) -> HTTPURLResponse? {
        lock.lock()
        defer { lock.unlock() }
        return refusals.removeValue(forKey: task.taskIdentifier)
    }
}

/// Carries a task's answer from its completion handler to the waiting caller.
private final class AnswerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    private var response: URLResponse?
    private var error: Error?

    func set(_ d: Data?, _ r: URLResponse?, _ e: Error?) {
        lock.lock()
        (data, response, error) = (d, r, e)
        lock.unlock()
    }

    func get() -> (Data?, URLResponse?, Error?) {
        lock.lock()
        defer { lock.unlock() }
        return (data, response, error)
    }
}
