import CardDAV
import ContactsStore
import ContactsSupport
import Foundation
import GooglePeople
import Secrets

/// Access tokens of the Google accounts contactsd signed in itself: each refreshed from the
/// refresh token kept in the Secret Service when it is about to expire or was refused, and
/// kept in memory only.
final class GoogleTokens: Sendable {
    /// What the Secret Service keeps for an account.
    static let refreshKind = "google-refresh-token"
    static let clientSecretKind = "google-client-secret"

    private let cache = Locked<[String: (token: String, until: Date)]>([:])

    /// The OAuth client an account signed in with.
    static func oauth(_ a: SyncAccount, clientSecret: String?) -> GoogleOAuth? {
        guard let id = a.oauthClientID, let auth = URL(string: a.oauthAuthURL ?? GoogleOAuth.defaultAuthURL),
            let token = URL(string: a.oauthTokenURL ?? GoogleOAuth.defaultTokenURL)
        else { return nil }
        return GoogleOAuth(clientID: id, clientSecret: clientSecret, authURL: auth, tokenURL: token)
    }

    /// Credentials that give the account's access token, refreshed as needed.
    func credentials(for a: SyncAccount) -> Credentials {
        .tokens(TokenSource { [self] renew throws(DAVError) in try access(a, renew: renew) })
    }

    func access(_ a: SyncAccount, renew: Bool) throws(DAVError) -> String {
        if !renew, let kept = cache.withLock({ $0[a.name] }), kept.until > Date() { return kept.token }
        let refused = { (why: String) in
            DAVError.status(401, url: a.oauthTokenURL ?? GoogleOAuth.defaultTokenURL, message: why, retryAfter: nil)
        }
        let refresh: String?
        let secret: String?
        do {
            refresh = try SecretService.lookup(account: a.name, kind: Self.refreshKind)
            secret = try SecretService.lookup(account: a.name, kind: Self.clientSecretKind)
        } catch {
            throw refused("the sign-in cannot be read from the Secret Service (\(error)); is the keyring running and unlocked?")
        }
        guard let refresh, let oauth = Self.oauth(a, clientSecret: secret) else {
            throw refused("no Google sign-in is kept for account '\(a.name)': sign in with 'contactsctl account login \(a.name)'")
        }
        let tokens: GoogleOAuth.Tokens
        do {
            tokens = try oauth.refresh(refresh)
        } catch .invalidGrant(let why) {
            throw refused(
                "Google no longer accepts this sign-in (invalid_grant\(why.isEmpty ? "" : ": " + why)): sign in again with 'contactsctl account login \(a.name)'; nothing was changed"
            )
        } catch .unreachable(let e) {
            throw e
        } catch {
            throw refused(error.description)
        }
        // A minute early, so that no request goes out with a token about to lapse.
        cache.withLock { $0[a.name] = (tokens.access, Date().addingTimeInterval(max(0, tokens.lifetime - 60))) }
        return tokens.access
    }

    /// Forgets an account's token (removed, or signed in anew).
    func forget(_ name: String) { cache.withLock { $0[name] = nil } }
}
