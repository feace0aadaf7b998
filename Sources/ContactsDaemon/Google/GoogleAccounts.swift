import CardDAV
import ContactsAPI
import ContactsStore
import Foundation
import GooglePeople
import Secrets

/// Google accounts that sign in through contactsd itself: the sign-in (the browser, then the
/// refresh token into the Secret Service), and the credentials a sync uses.
extension SyncService {
    /// Signs `name` in to Google with the user's OAuth client; returns the user's address.
    /// `open` is told the page to open in a browser; the wait ends when `abandoned` says the
    /// person gave up (the caller left). The refresh token (and the client's
    /// secret) go to the Secret Service; nothing is written to the data directory.
    func signInToGoogle(
        _ name: String, client: OAuthClient, root: String, expectedUser: String? = nil, open: (URL) -> Void,
        abandoned: @escaping @Sendable () -> Bool
    ) throws -> String {
        guard let auth = URL(string: client.authURL ?? GoogleOAuth.defaultAuthURL),
            let token = URL(string: client.tokenURL ?? GoogleOAuth.defaultTokenURL), PeopleBackend.root(of: root) != nil
        else { throw DAVError.refusedURL("the sign-in's endpoints are not URLs") }
        try URLPolicy.check(auth)
        try URLPolicy.check(token)
        // Where no Secret Service answers, say so before anyone signs in for nothing.
        do {
            _ = try SecretService.lookup(account: name, kind: GoogleTokens.refreshKind)
        } catch {
            throw SecretService.Failure(
                description:
                    "\(error.description); contactsd keeps a Google sign-in only there (GNOME Keyring, KWallet): start one, or add the account with --token-command"
            )
        }
        let oauth = GoogleOAuth(clientID: client.clientID, clientSecret: client.clientSecret, authURL: auth, tokenURL: token)
        let stopping = isStopping
        let tokens = try GoogleSignIn.run(oauth, loginHint: expectedUser, open: open) { stopping() || abandoned() }
        guard let refresh = tokens.refresh else {
            throw GoogleOAuth.Failure.refused("Google gave no refresh token (was access_type=offline refused?)")
        }
        let user = try Self.googleUser(root: root, credentials: .bearer(tokens.access))
        if let expectedUser, user.lowercased() != expectedUser.lowercased() {
            throw GoogleOAuth.Failure.refused("signed in as \(user), but the account is \(expectedUser)'s; nothing was changed")
        }
        try SecretService.store(
            refresh, account: name, kind: GoogleTokens.refreshKind, label: "contactsd: Google sign-in of account \(name) (\(user))")
        if let secret = client.clientSecret {
            try SecretService.store(
                secret, account: name, kind: GoogleTokens.clientSecretKind, label: "contactsd: OAuth client secret of account \(name)")
        }
        googleTokens.forget(name)
        return user
    }

    /// What an account signs in with: contactsd's own Google sign-in, else its commands.
    func credentials(for account: SyncAccount) throws -> Credentials {
        if account.oauthClientID != nil { return googleTokens.credentials(for: account) }
        if let identity = account.goaAccount {
            let name = account.name
            return .tokens(TokenSource { _ throws(DAVError) in try GnomeOnlineAccounts.accessToken(identity: identity, account: name) })
        }
        return try Self.credentials(
            username: account.username, passwordCommand: account.passwordCommand, tokenCommand: account.tokenCommand, account: account.name)
    }

    /// Forgets what the Secret Service keeps for an account that is removed.
    func forgetSignIn(_ account: SyncAccount) {
        guard account.oauthClientID != nil else { return }
        try? SecretService.clear(account: account.name, kind: GoogleTokens.refreshKind)
        try? SecretService.clear(account: account.name, kind: GoogleTokens.clientSecretKind)
        googleTokens.forget(account.name)
    }

    /// The client secret kept for an account, if any.
    func clientSecret(of account: SyncAccount) -> String? {
        try? SecretService.lookup(account: account.name, kind: GoogleTokens.clientSecretKind)
    }
}
