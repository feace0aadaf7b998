import CardDAV
import Foundation
import GOAShim

/// The Google accounts of GNOME Online Accounts, on the session bus: a person who signed in to
/// Google in GNOME's Settings syncs with nothing more to do. GOA keeps and refreshes the
/// tokens; an account of contactsd's names the GOA account by its address and asks for a
/// token whenever it needs one.
enum GnomeOnlineAccounts {
    struct Account: Equatable {
        var path: String
        var identity: String
        var contactsDisabled: Bool
        var attentionNeeded: Bool
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// GOA's Google accounts; throws when GOA cannot be asked (no session bus, not running).
    static func googleAccounts() throws(Failure) -> [Account] {
        var found = [contactsd_goa_account](repeating: contactsd_goa_account(), count: 32)
        var why = [CChar](repeating: 0, count: 512)
        let n = contactsd_goa_google_accounts(&found, Int32(found.count), &why, why.count)
        guard n >= 0 else { throw Failure(description: text(why)) }
        return found.prefix(Int(n)).map { a in
            var a = a
            let path = withUnsafeBytes(of: &a.path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let identity = withUnsafeBytes(of: &a.identity) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return Account(
                path: path, identity: identity, contactsDisabled: a.contacts_disabled != 0, attentionNeeded: a.attention_needed != 0)
        }
    }

    /// The one Google account to use: the one of `identity`, else the only one with contacts on.
    static func pick(_ identity: String?) throws(Failure) -> Account {
        let all = try googleAccounts()
        if let identity {
            guard let a = all.first(where: { $0.identity.lowercased() == identity.lowercased() }) else {
                throw Failure(
                    description:
                        "GNOME Online Accounts has no Google account \(identity)\(all.isEmpty ? "" : " (it has \(all.map(\.identity).joined(separator: ", ")))")"
                )
            }
            return a
        }
        let usable = all.filter { !$0.contactsDisabled }
        guard usable.count == 1, let only = usable.first else {
            throw Failure(
                description: usable.isEmpty
                    ? "GNOME Online Accounts has no Google account with contacts switched on; add one in Settings → Online Accounts, or give --client-id or --token-command"
                    : "GNOME Online Accounts has several Google accounts (\(usable.map(\.identity).joined(separator: ", "))): choose one with --goa-account"
            )
        }
        return only
    }

    /// A token for the GOA account of `identity`, as a sync asks for one: a clear refusal
    /// (401, nothing changed) when the account is gone, its contacts are switched off, or GOA
    /// cannot give one.
    static func accessToken(identity: String, account: String) throws(DAVError) -> String {
        let refused = { (why: String) in DAVError.status(401, url: "GNOME Online Accounts", message: why, retryAfter: nil) }
        let a: Account
        do {
            guard let found = try googleAccounts().first(where: { $0.identity.lowercased() == identity.lowercased() }) else {
                throw Failure(
                    description:
                        "GNOME Online Accounts no longer has the Google account \(identity): add it again in Settings → Online Accounts; nothing was changed"
                )
            }
            a = found
        } catch {
            throw refused("\(error)")
        }
        guard !a.contactsDisabled else {
            throw refused("contacts are switched off for \(identity) in Settings → Online Accounts; nothing was changed")
        }
        guard !a.attentionNeeded else {
            throw refused(
                "GNOME Online Accounts needs you to sign in to \(identity) again (Settings → Online Accounts); nothing was changed")
        }
        var token: UnsafeMutablePointer<CChar>?
        var seconds: Int32 = 0
        var why = [CChar](repeating: 0, count: 512)
        guard contactsd_goa_access_token(a.path, &token, &seconds, &why, why.count) == 0, let token else {
            throw refused("\(text(why)) (account '\(account)'; sign in again in Settings → Online Accounts)")
        }
        defer { free(token) }
        return String(cString: token)
    }

    static func text(_ why: [CChar]) -> String { String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
}
