import Foundation

/// How requests authenticate: a user and password (HTTP Basic, sent with the first request,
/// so that no 401 round trip is needed), a bearer token (OAuth 2), or nothing. Shown as
/// `basic(kate)` or `bearer`, never with the secret.
public enum Credentials: Sendable, Equatable, CustomStringConvertible {
    case none
    case basic(user: String, password: String)
    case bearer(String)

    /// The `Authorization` header's value.
    var header: String? {
        switch self {
        case .none: nil
        case .basic(let user, let password): "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        case .bearer(let token): "Bearer " + token
        }
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .basic(let user, _): "basic(\(user))"
        case .bearer: "bearer"
        }
    }
}
