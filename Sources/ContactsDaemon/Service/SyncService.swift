import CardDAV
import ContactsStore
import ContactsSync
import Foundation

/// The daemon's side of sync: signs in for an account (running its password or token
/// command), finds its address book, and runs one sync per account at a time.
final class SyncService: Sendable {
    let store: ContactStore
    let engine: SyncEngine
    private let running = NSLock()
    nonisolated(unsafe) private var busy: Set<String> = []

    init(store: ContactStore) {
        self.store = store
        engine = SyncEngine(store: store)
    }

    /// The credentials an account signs in with now.
    static func credentials(username: String?, passwordCommand: [String]?, tokenCommand: [String]?, account: String) throws -> Credentials {
        if let tokenCommand { return .bearer(try SecretCommand.run(tokenCommand, account: account)) }
        if let username {
            let password = try passwordCommand.map { try SecretCommand.run($0, account: account) } ?? ""
            return .basic(user: username, password: password)
        }
        return .none
    }

    /// Finds the address book behind `typed` and checks that it answers with these credentials.
    static func discover(_ typed: String, wanted: String?, credentials: Credentials) throws -> FoundAddressBook {
        let start = try Discovery.startURL(typed)
        let http = HTTPClient(credentials: credentials, for: start)
        let books = try Discovery.addressBooks(from: start, http: http)
        guard let book = Discovery.pick(books, wanted: wanted) else {
            throw DAVError.malformed(
                "no address book named '\(wanted ?? "")' at \(URLPolicy.redacted(start)); there are: \(books.map { $0.displayName ?? $0.url.path })"
            )
        }
        _ = try AddressBookClient(url: book.url, http: http).properties()
        return book
    }

    /// One sync of `name`; refused while another of the same account runs.
    func sync(_ name: String) throws -> SyncReport {
        let account = try store.account(named: name)
        running.lock()
        guard busy.insert(name).inserted else {
            running.unlock()
            throw StoreError.unavailable("account '\(name)' is syncing already; try again when it is done")
        }
        running.unlock()
        defer {
            running.lock()
            busy.remove(name)
            running.unlock()
        }
        guard let url = URL(string: account.addressBookURL) else {
            throw DAVError.refusedURL("account '\(name)' has no usable address-book URL")
        }
        let credentials = try Self.credentials(
            username: account.username, passwordCommand: account.passwordCommand, tokenCommand: account.tokenCommand, account: name)
        let book = AddressBookClient(url: url, http: HTTPClient(credentials: credentials, for: url))
        return try engine.sync(account, with: book)
    }
}
