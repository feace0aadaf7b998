import ContactsSupport
import Foundation

/// How requests authenticate: a user and password (HTTP Basic, sent with the first request,
/// so that no 401 round trip is needed), a bearer token (OAuth 2), one a `TokenSource` gives
/// (and renews once when the server says it expired), or nothing. Shown as `basic(kate)` or
/// `bearer`, never with the secret.
public enum Credentials: Sendable, Equatable, CustomStringConvertible {
    case none
    case basic(user: String, password: String)
    case bearer(String)
    case tokens(TokenSource)

    /// The `Authorization` header's value.
    func header(renewed: Bool = false) throws(DAVError) -> String? {
        switch self {
        case .none: nil
        case .basic(let user, let password): "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        case .bearer(let token): "Bearer " + token
        case .tokens(let source): "Bearer " + (try source.token(renewed: renewed))
        }
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .basic(let user, _): "basic(\(user))"
        case .bearer, .tokens: "bearer"
        }
    }

    public static func == (a: Credentials, b: Credentials) -> Bool {
        switch (a, b) {
        case (.none, .none): true
        case (.basic(let u1, let p1), .basic(let u2, let p2)): u1 == u2 && p1 == p2
        case (.bearer(let t1), .bearer(let t2)): t1 == t2
        case (.tokens(let s1), .tokens(let s2)): s1 === s2
        default: false
        }
    }
}

/// Access tokens that expire: the one in hand until the server refuses it (401), then a new
/// one, asked of `fetch` (which refreshes it), once per refusal.
public final class TokenSource: Sendable {
    /// Gives a token: a fresh one when `renew` (the one given last was refused).
    public typealias Fetch = @Sendable (_ renew: Bool) throws(DAVError) -> String
    private let fetch: Fetch
    private let current = Locked<String?>(nil)

    public init(_ fetch: @escaping Fetch) { self.fetch = fetch }

    func token(renewed: Bool) throws(DAVError) -> String {
        if !renewed, let t = current.withLock({ $0 }) { return t }
        let t = try fetch(renewed)
        current.withLock { $0 = t }
        return t
    }
}
