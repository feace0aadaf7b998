import Foundation
import SecretShim

/// Secrets kept in the user's Secret Service (GNOME Keyring, KWallet) through libsecret,
/// loaded when a secret is first stored or read: an account's refresh token, never written to
/// a file of contactsd's. Each is found by the account's name and what it is.
public enum SecretService {
    /// Why the Secret Service could not be used: its words, never the secret.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static func store(_ secret: String, account: String, kind: String, label: String) throws(Failure) {
        var why = [CChar](repeating: 0, count: 512)
        guard contactsd_secret_store(account, kind, label, secret, &why, why.count) == 0 else { throw Failure(description: text(why)) }
    }

    /// The secret kept, or nil when there is none.
    public static func lookup(account: String, kind: String) throws(Failure) -> String? {
        var why = [CChar](repeating: 0, count: 512)
        var found: UnsafeMutablePointer<CChar>?
        switch contactsd_secret_lookup(account, kind, &found, &why, why.count) {
        case 1:
            guard let found else { return nil }
            defer {
                memset(found, 0, strlen(found))
                free(found)
            }
            return String(cString: found)
        case 0: return nil
        default: throw Failure(description: text(why))
        }
    }

    public static func clear(account: String, kind: String) throws(Failure) {
        var why = [CChar](repeating: 0, count: 512)
        guard contactsd_secret_clear(account, kind, &why, why.count) == 0 else { throw Failure(description: text(why)) }
    }

    static func text(_ why: [CChar]) -> String { String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
}
