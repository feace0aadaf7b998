import CardDAV
import ContactsStore
import ContactsSupport
import ContactsSync
import Foundation
import GooglePeople
import JSONCore

/// The daemon's side of sync: signs in for an account (running its password or token
/// command), finds its address book, runs one sync of an account at a time, and keeps every
/// account synced unattended: soon after start, every `interval`, a few seconds after a local
/// change, later after a failure (the server's `Retry-After`, else a backoff from 30 s to the
/// interval, with jitter).
final class SyncService: @unchecked Sendable {
    let store: ContactStore
    let engine: SyncEngine
    /// Told of every sync that ends: its account, and its report or error.
    var onFinished: (@Sendable (String, Result<SyncReport, Error>) -> Void)?
    /// Told how far each sync has come, every hundred cards.
    var onProgress: (@Sendable (String, SyncProgress) -> Void)?
    /// Told after an account was added or removed.
    var onAccountsChanged: (@Sendable () -> Void)?
    /// Whether the daemon is stopping: a sync stops at its next batch.
    var isStopping: @Sendable () -> Bool = { false }
    /// Seconds from a local change to the sync that sends it: to a server, after a pause that
    /// gathers a burst of edits into one sync; to a vdir on this machine, at once.
    var changeDelay = 2.0
    var vdirChangeDelay = 0.2
    /// The account new contacts go to (`defaultAccount` in config.json), when there is one.
    var defaultAccount: String? {
        get { state.withLock { s in s.configuredDefault } }
        set { state.withLock { s in s.configuredDefault = newValue } }
    }

    /// The schedule and what it goes by, under one lock.
    private struct Schedule {
        var configuredDefault: String?
        /// One sync of an account at a time: a second waits for the first (each counts the
        /// syncs of its account).
        var accountLocks: [String: Locked<Int>] = [:]
        var pending: [String: (at: Date, work: TaskQueue.Item)] = [:]
        var failures: [String: Int] = [:]
        /// What a server said with `Retry-After`: no request to it before then, asked for or
        /// not (the status it answered with, for the refusal).
        var quietUntil: [String: (at: Date, status: Int)] = [:]
        var started = false
    }
    private let state = Locked(Schedule())
    /// The longest wait a server's `Retry-After` is taken for.
    static let longestWait = 86_400.0
    private let queue = TaskQueue(label: "sync")

    /// `smallerPhoto` makes the smaller JPEG a server that refuses a card's size is sent.
    init(store: ContactStore, smallerPhoto: SyncEngine.PhotoShrinker? = nil) {
        self.store = store
        engine = SyncEngine(store: store, smallerPhoto: smallerPhoto)
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
    static func discover(_ typed: String, wanted: String?, credentials: Credentials, caFile: String? = nil) throws -> (
        book: FoundAddressBook, properties: AddressBookProperties
    ) {
        let start = try Discovery.startURL(typed)
        let http = HTTPClient(credentials: credentials, for: start, caFile: caFile)
        let books = try Discovery.addressBooks(from: start, http: http)
        guard let book = Discovery.pick(books, wanted: wanted) else {
            throw DAVError.malformed(
                "no address book named '\(wanted ?? "")' at \(URLPolicy.redacted(start)); there are: \(books.map { $0.displayName ?? $0.url.path })"
            )
        }
        return (book, try AddressBookClient(url: book.url, http: http).properties())
    }

    // MARK: Google

    /// Where each Google account keeps its labels between syncs.
    var labelsDirectory: String?
    /// The access tokens of Google accounts signed in through contactsd.
    let googleTokens = GoogleTokens()

    /// A Google account's people, signed in with its token command.
    func peopleBackend(_ account: SyncAccount) throws -> PeopleBackend {
        guard let root = PeopleBackend.root(of: account.addressBookURL) else {
            throw DAVError.refusedURL("account '\(account.name)' has no usable People API URL")
        }
        let credentials = try credentials(for: account)
        let labels = labelsDirectory.map { dir -> String in
            try? FileIO.makeDirectories(dir)
            return dir + "/" + (account.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "account") + ".labels.json"
        }
        let store = store
        return PeopleBackend(
            client: PeopleClient(root: root, http: HTTPClient(credentials: credentials, for: root)), labelsFile: labels,
            localGroups: { Set((try? store.groups().map(\.name)) ?? []) })
    }

    /// The address of the Google user `credentials` sign in as (`people/me` under the People
    /// API's root `root`), however they were come by: a token command, GNOME Online Accounts,
    /// the built-in sign-in.
    static func googleUser(root: String, credentials: Credentials) throws -> String {
        guard let people = PeopleBackend.root(of: root) else { throw DAVError.refusedURL("'\(root)' is not a URL") }
        return try PeopleClient(root: people, http: HTTPClient(credentials: credentials, for: people)).me()
    }

    /// One sync of `name` now; waits for one of the same account under way to end first.
    /// `progress` hears how far it has come, besides `onProgress`.
    func sync(_ name: String, held: SyncEngine.HeldDeletions = .hold, progress: @escaping (SyncProgress) -> Void = { _ in }) throws
        -> SyncReport
    {
        let accountLock = state.withLock { s in
            if let l = s.accountLocks[name] { return l }
            let l = Locked(0)
            s.accountLocks[name] = l
            return l
        }
        return try accountLock.withLock { syncs in
            syncs += 1
            return try syncAlone(name, held: held, progress: progress)
        }
    }

    /// A sync of `name`, with no other sync of it under way.
    private func syncAlone(_ name: String, held: SyncEngine.HeldDeletions, progress: @escaping (SyncProgress) -> Void) throws
        -> SyncReport
    {
        let account = try store.account(named: name)
        if let quiet = state.withLock({ s in s.quietUntil[name] }), quiet.at > Date() {
            // The server asked for time: it is not asked again before then, whoever asks.
            let wait = quiet.at.timeIntervalSinceNow
            throw DAVError.status(
                quiet.status, url: URLPolicy.redacted(try Self.bookURL(account)),
                message:
                    "the server asked for no request before \(Timestamp.format(Int64(quiet.at.timeIntervalSince1970 * 1000))) (Retry-After, \(Int(wait.rounded(.up))) s from now); nothing was sent, and the next sync is then",
                retryAfter: wait)
        }
        let told = onProgress
        let report: (SyncProgress) -> Void = { p in
            progress(p)
            told?(name, p)
        }
        let result: Result<SyncReport, Error>
        if let directory = account.vdirPath {
            let vdir = VdirBackend(directory: directory)
            result = Result {
                var r = try engine.sync(account, with: vdir, held: held, cancelled: isStopping, progress: report)
                // Files that are no card of one contact are told, and left alone.
                r.errors += vdir.problems.map { SyncReport.CardError(href: $0.href, status: nil, message: "\($0.href) \($0.message)") }
                return r
            }
        } else if account.peopleAPI {
            let people = try peopleBackend(account)
            result = Result { try engine.sync(account, with: people, held: held, cancelled: isStopping, progress: report) }
        } else {
            let url = try Self.bookURL(account)
            let credentials = try Self.credentials(
                username: account.username, passwordCommand: account.passwordCommand, tokenCommand: account.tokenCommand, account: name)
            let book = AddressBookClient(url: url, http: HTTPClient(credentials: credentials, for: url, caFile: account.caFile))
            result = Result { try engine.sync(account, with: book, held: held, cancelled: isStopping, progress: report) }
        }
        state.withLock { s in
            if case .success = result { s.failures[name] = nil } else { s.failures[name, default: 0] += 1 }
            if case .failure(DAVError.status(let code, _, _, let retryAfter?)) = result {
                s.quietUntil[name] = (Date().addingTimeInterval(min(max(retryAfter, 1), Self.longestWait)), code)
            } else if case .success = result {
                s.quietUntil[name] = nil
            }
        }
        if let quiet = state.withLock({ s in s.quietUntil[name] }), case .failure = result {
            // A sync due sooner (a local change, the interval) waits as the server said.
            postpone(name, until: quiet.at)
        }
        if case .success(let report) = result { try? store.recordReport(account: name, JSONWriter.string(SyncMethods.json(report))) }
        onFinished?(name, result)
        return try result.get()
    }

    // MARK: Unattended

    /// Starts the schedule: each account's first sync `after` seconds from now.
    func start(after seconds: Double = 2) {
        state.withLock { s in s.started = true }
        for a in (try? store.accounts()) ?? [] { schedule(a.name, after: seconds) }
    }

    /// A contact changed here: each account syncs within a few seconds (once, however many
    /// changes come meanwhile). A change a sync made is not one to send.
    func localChange(origin: String) {
        guard !origin.hasPrefix("sync:"), state.withLock({ s in s.started }) else { return }
        for a in (try? store.accounts()) ?? [] { schedule(a.name, after: a.vdirPath == nil ? changeDelay : vdirChangeDelay) }
    }

    /// The account was added or removed: its schedule starts or ends.
    func accountsChanged() {
        onAccountsChanged?()
        guard state.withLock({ s in s.started }) else { return }
        let names = Set(((try? store.accounts()) ?? []).map(\.name))
        state.withLock { s in
            for (name, p) in s.pending where !names.contains(name) {
                p.work.cancel()
                s.pending[name] = nil
            }
        }
        for name in names where state.withLock({ s in s.pending[name] == nil }) { schedule(name, after: 1) }
    }

    /// Moves contacts to `account` (nil: this machine alone), each at the href a new card of
    /// its UID gets there. Returns how many moved.
    func move(ids: [String], to account: String?) throws -> Int {
        let target = try account.map { try store.account(named: $0) }
        let book = try target.flatMap { $0.vdirPath == nil ? try Self.bookURL($0) : nil }
        let moved = try store.moveContacts(ids: ids, to: account) { c in Self.hrefForNewCard(uid: c.uid, account: target, book: book) }
        if moved > 0 { localChange(origin: "rpc") }
        return moved
    }

    /// Where a new card of an account goes: a file named by its UID in a vdir, a name Google
    /// replaces with its own, else a path in the address book (`book`).
    static func hrefForNewCard(uid: String, account: SyncAccount?, book: URL?) -> String {
        if account?.vdirPath != nil { return VdirBackend.fileName(uid: uid) }
        if account?.peopleAPI == true { return PeopleBackend.hrefForNewCard(uid: uid) }
        return book.map { AddressBookClient.hrefForNewCard(uid: uid, in: $0) } ?? ""
    }

    /// Where an account's address book is.
    static func bookURL(_ a: SyncAccount) throws -> URL {
        guard let url = URL(string: a.addressBookURL) else {
            throw DAVError.refusedURL("account '\(a.name)' has no usable address-book URL")
        }
        return url
    }

    /// When the next unattended sync of `name` is due.
    func nextAttempt(_ name: String) -> Date? { state.withLock { s in s.pending[name]?.at } }

    func stop() {
        state.withLock { s in
            s.started = false
            for p in s.pending.values { p.work.cancel() }
            s.pending.removeAll()
        }
    }

    /// Runs a sync of `name` in `seconds`, unless one is due sooner already; never before
    /// the time a server's `Retry-After` named.
    func schedule(_ name: String, after seconds: Double) {
        state.withLock { s in
            guard s.started else { return }
            var at = Date().addingTimeInterval(seconds)
            if let quiet = s.quietUntil[name]?.at, quiet > at { at = quiet }
            if let p = s.pending[name], p.at <= at { return }
            s.pending[name]?.work.cancel()
            let work = queue.after(seconds: at.timeIntervalSinceNow) { [weak self] in self?.runScheduled(name) }
            s.pending[name] = (at, work)
        }
    }

    /// Moves a sync of `name` due before `date` to then.
    private func postpone(_ name: String, until date: Date) {
        let due = state.withLock { s -> Bool in
            guard let p = s.pending[name], p.at < date else { return false }
            p.work.cancel()
            s.pending[name] = nil
            return true
        }
        if due { schedule(name, after: date.timeIntervalSinceNow) }
    }

    private func runScheduled(_ name: String) {
        state.withLock { s in s.pending[name] = nil }
        guard !isStopping(), let account = try? store.account(named: name) else { return }
        let next: Double
        do {
            _ = try sync(name)
            next = Double(account.interval)
        } catch let e as DAVError {
            // After a Retry-After, `schedule` waits what the server said.
            let n = state.withLock { s in s.failures[name] ?? 1 }
            if case .status(_, _, _, .some) = e { next = 1 } else { next = Self.backoff(failures: n, interval: Double(account.interval)) }
        } catch {
            next = Self.backoff(failures: state.withLock { s in s.failures[name] ?? 1 }, interval: Double(account.interval))
        }
        schedule(name, after: next)
    }

    /// 30 s, 60 s, 120 s … up to the interval, each with up to a fifth more at random.
    static func backoff(failures: Int, interval: Double) -> Double {
        let base = min(interval, 30 * pow(2, Double(max(0, failures - 1))))
        return base * Double.random(in: 1...1.2)
    }
}
