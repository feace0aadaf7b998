import CardDAV
import ContactsSupport
import Foundation
import JSONCore

/// Signing in to Google as an installed app (OAuth 2.0, RFC 8252, as Google documents it): the
/// user's own "Desktop app" client, a loopback redirect, PKCE with S256 (RFC 7636) and a
/// `state`; then access tokens from the refresh token. No secret is kept here: the caller
/// keeps the refresh token in the Secret Service.
public struct GoogleOAuth: Sendable, Equatable {
    public var clientID: String
    /// A Desktop app's client secret (Google gives one, and says it is no secret).
    public var clientSecret: String?
    public var authURL: URL
    public var tokenURL: URL

    public static let defaultAuthURL = "https://accounts.google.com/o/oauth2/v2/auth"
    public static let defaultTokenURL = "https://oauth2.googleapis.com/token"
    /// Reading and writing the user's contacts, and nothing else.
    public static let scope = "https://www.googleapis.com/auth/contacts"

    public init(clientID: String, clientSecret: String?, authURL: URL, tokenURL: URL) {
        (self.clientID, self.clientSecret, self.authURL, self.tokenURL) = (clientID, clientSecret, authURL, tokenURL)
    }

    /// Why a sign-in or a token did not come: Google refused the grant (revoked, expired: the
    /// user signs in again), or another answer; never with a token in it.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidGrant(String)
        case refused(String)
        case unreachable(DAVError)

        public var description: String {
            switch self {
            case .invalidGrant(let why): "Google no longer accepts this sign-in (invalid_grant\(why.isEmpty ? "" : ": " + why))"
            case .refused(let why): "Google refused the sign-in: \(why)"
            case .unreachable(let e): e.description
            }
        }
    }

    // MARK: The browser's part

    /// A sign-in under way: what goes in the browser's URL, and what the answer must match.
    public struct Attempt: Sendable {
        public let verifier: String
        public let state: String
        public let redirect: String
        public let url: URL
    }

    /// A new attempt for a loopback `redirect` (`http://127.0.0.1:PORT/`).
    public func begin(redirect: String, loginHint: String? = nil) -> Attempt {
        let verifier = Self.randomText(bytes: 48)
        let state = Self.randomText(bytes: 24)
        var c = URLComponents(url: authURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        var items = [
            URLQueryItem(name: "client_id", value: clientID), URLQueryItem(name: "redirect_uri", value: redirect),
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "scope", value: Self.scope),
            URLQueryItem(name: "code_challenge", value: Self.challenge(verifier)),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
            URLQueryItem(name: "state", value: state), URLQueryItem(name: "access_type", value: "offline"),
            URLQueryItem(name: "prompt", value: "consent"),
        ]
        if let loginHint { items.append(URLQueryItem(name: "login_hint", value: loginHint)) }
        c.queryItems = (c.queryItems ?? []) + items
        return Attempt(verifier: verifier, state: state, redirect: redirect, url: c.url ?? authURL)
    }

    /// The S256 challenge of a verifier: base64url of its SHA-256, without padding.
    static func challenge(_ verifier: String) -> String { base64URL(SHA256.digest(Array(verifier.utf8))) }

    /// Unreserved characters of `bytes` random bytes from the kernel (base64url).
    static func randomText(bytes: Int) -> String {
        var g = SystemRandomNumberGenerator()
        return base64URL((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &g) })
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    // MARK: Tokens

    public struct Tokens: Sendable {
        public var access: String
        /// Seconds the access token lasts.
        public var lifetime: Double
        public var refresh: String?
    }

    /// The tokens for the code the browser brought back.
    public func exchange(code: String, attempt: Attempt) throws(Failure) -> Tokens {
        try token([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", attempt.redirect), ("code_verifier", attempt.verifier),
        ])
    }

    /// A new access token from the refresh token.
    public func refresh(_ refreshToken: String) throws(Failure) -> Tokens {
        try token([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    private func token(_ fields: [(String, String)]) throws(Failure) -> Tokens {
        var form = fields + [("client_id", clientID)]
        if let clientSecret { form.append(("client_secret", clientSecret)) }
        let body = form.map { "\(Self.formEncoded($0.0))=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        let http = HTTPClient(credentials: .none, for: tokenURL, timeout: 30)
        let answer: CardDAV.HTTPResponse
        do {
            answer = try http.send(
                HTTPRequest(
                    "POST", tokenURL, headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
                    body: Data(body.utf8)))
        } catch {
            throw .unreachable(error)
        }
        let o = (try? JSONParser.parse([UInt8](answer.body)).objectValue) ?? JSONObject()
        guard (200..<300).contains(answer.status) else {
            let code = o["error"]?.stringValue ?? "HTTP \(answer.status)"
            let why = o["error_description"]?.stringValue ?? ""
            if code == "invalid_grant" { throw .invalidGrant(why) }
            throw .refused(why.isEmpty ? code : "\(code): \(why)")
        }
        guard let access = o["access_token"]?.stringValue else { throw .refused("the answer holds no access token") }
        return Tokens(access: access, lifetime: o["expires_in"]?.doubleValue ?? 3600, refresh: o["refresh_token"]?.stringValue)
    }

    static func formEncoded(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
    }
}
