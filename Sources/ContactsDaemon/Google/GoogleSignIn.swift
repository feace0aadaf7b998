import CardDAV
import ContactsSupport
import Foundation
import Glibc
import GooglePeople
import HTTPServer

/// The browser's part of signing in to Google: a listener on 127.0.0.1 at a port of the
/// moment (RFC 8252's loopback redirect, for this user's connections only), the URL to open,
/// and the code it brings back with the `state` it was sent with.
enum GoogleSignIn {
    /// How long a person has to sign in.
    static let patience: Double = 300

    /// Signs in: `open` is told the URL (the caller opens the browser and prints it), then the
    /// code that comes back is exchanged for tokens.
    static func run(_ oauth: GoogleOAuth, loginHint: String? = nil, open: (URL) -> Void, cancelled: @escaping @Sendable () -> Bool)
        throws -> GoogleOAuth.Tokens
    {
        let attempt = Locked<GoogleOAuth.Attempt?>(nil)
        let outcome = Locked<Result<String, GoogleOAuth.Failure>?>(nil)
        let arrived = DispatchSemaphore(value: 0)
        let listener = try HTTPListener(host: "127.0.0.1", port: 0, owner: getuid()) { request in
            guard let expected = attempt.withLock({ $0 }), request.method == "GET", request.path == "/" else {
                return HTTPResponse(status: 404, text: "Nothing here.\n")
            }
            // A request of another page, or another attempt's, is not this sign-in's answer.
            guard request.query["state"] == expected.state else {
                return HTTPResponse(status: 400, text: "This is not the sign-in contactsd is waiting for.\n")
            }
            let result: Result<String, GoogleOAuth.Failure>
            if let code = request.query["code"], !code.isEmpty {
                result = .success(code)
            } else {
                result = .failure(.refused(request.query["error"] ?? "no code came back"))
            }
            let first = outcome.withLock { o -> Bool in
                guard o == nil else { return false }
                o = result
                return true
            }
            if first { arrived.signal() }
            if case .success = result {
                return HTTPResponse(
                    status: 200, text: "Signed in to Google: contactsd syncs your contacts now. You can close this tab.\n")
            }
            return HTTPResponse(status: 200, text: "Google did not sign you in (\(request.query["error"] ?? "no code")).\n")
        }
        defer { listener.stop() }
        let begun = oauth.begin(redirect: "http://127.0.0.1:\(listener.port)/", loginHint: loginHint)
        attempt.withLock { $0 = begun }
        open(begun.url)
        let deadline = Date().addingTimeInterval(patience)
        while arrived.wait(timeout: .now() + 0.5) == .timedOut {
            if cancelled() { throw GoogleOAuth.Failure.refused("the sign-in was given up") }
            if Date() > deadline { throw GoogleOAuth.Failure.refused("no answer from the browser in \(Int(patience / 60)) minutes") }
        }
        guard let result = outcome.withLock({ $0 }) else { throw GoogleOAuth.Failure.refused("no answer") }
        return try oauth.exchange(code: try result.get(), attempt: begun)
    }
}
