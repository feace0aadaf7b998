import ContactsCore
import ContactsSupport
import Foundation
import Glibc

/// The contact store: one SQLite file in WAL mode with one writer connection and a pool of
/// reader connections, so that a long write never makes a search wait.
///
/// Every write runs in one `BEGIN IMMEDIATE` transaction with `synchronous=FULL`: when a
/// method returns, the change is on disk. Committed changes are reported to `onChange`.
public final class ContactStore: @unchecked Sendable {
    public let path: String
    /// Called after each committed write, in commit order, with what changed.
    public typealias ChangeHandler = @Sendable ([ContactChange], [GroupChange], ChangeSource) -> Void

    let writer: Database
    let writeLock = WriteLock()
    /// The idle readers, whether the store is closed, and when it was last read.
    let pool = Locked(ReaderPool())
    /// Whether writes keep the history (`historyDays` 0 turns it off); under the write lock.
    private var historyOn = true
    public var keepsHistory: Bool {
        get {
            writeLock.lock()
            defer { writeLock.unlock() }
            return historyOn
        }
        set {
            writeLock.lock()
            historyOn = newValue
            writeLock.unlock()
        }
    }
    /// The search index being made ahead for the write under way (under the write lock).
    private var earlyIndex: PreparedIndex?

    /// A read now: the wait for quiet starts again from it, and starts at all when none runs.
    func noteRead() {
        let now = Timestamp.monotonicMillis()
        if let wait = pool.withLock({ $0.noteRead(at: now) }) { restLater(wait) }
    }

    /// Starts making the search index a large write gives, now rather than at its commit: the
    /// write has made all its changes to contacts but has more to do (an import flushing its
    /// photo files). Only from the body of `write`.
    func prepareSearchIndexEarly(_ log: ChangeLog) { earlyIndex?.start(searchIndex, log) }
    var changeHandler: ChangeHandler?
    var photoRemovalHandler: (@Sendable (String) -> Void)?
    let searchIndex = SearchIndex()
    /// The queries kept open, brought up to date after each commit.
    let liveQueries = LiveQueryRegistry()
    /// Reads the phones a large import left as digits (`keyPhonesSoon`).
    let phoneKeying = BackgroundJob(name: "phone-keys")
    let waitingTails = WaitingPhoneTails()
    /// Contacts read recently (`contact(id:)`), dropped when a write touches them.
    let cache = ContactCache(capacity: 8192)
    /// Where contacts and addresses rank by mail, kept until the next commit.
    let mailRanking = MailRanking()
    /// The rows mail queries read lately, kept until the next commit.
    let mailRows = MailRows()
    /// The photo files, in `photos/` beside the database.
    let photos: PhotoStore
    /// While a backup copies photos, none is removed; what was released waits here.
    var photoPins = 0
    var releasedWhilePinned: Set<String> = []

    /// Opens (creating if needed) the store at `path` and brings its schema up to date.
    /// A file that is not a contacts database, or one from a newer version, is refused and
    /// left untouched.
    /// `willMigrate` is called before an existing store is brought to a newer schema.
    public init(path: String, willMigrate: ((_ from: Int, _ to: Int) -> Void)? = nil) throws {
        self.path = path
        let dir = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        photos = PhotoStore(root: (dir.isEmpty ? "" : dir) + "/photos")
        do {
            writer = try Database(path: path)
            // Reading the schema first fails cleanly on a file that is not a database.
            let version = Int(try writer.scalarInt("PRAGMA user_version"))
            if version > Migrations.latestVersion {
                throw StoreError.unavailable(
                    "\(path) has schema version \(version), newer than this contactsd understands (\(Migrations.latestVersion)); refusing to touch it"
                )
            }
            try writer.execute(
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA cache_size=-\(Self.idleCacheKiB); PRAGMA temp_store=MEMORY; PRAGMA secure_delete=ON;"
            )
            if version > 0 && version < Migrations.latestVersion { willMigrate?(version, Migrations.latestVersion) }
            try migrate(from: version)
            try keyPhonesIfNeeded()
            try keyWaitingPhonesSoonIfAny()
        } catch let e as SQLiteError {
            if e.isCorrupt {
                throw StoreError.unavailable("\(path) is not a contacts database or is damaged (\(e.message)); it was left as it is")
            }
            throw StoreError.database(e)
        }
    }

    private func migrate(from version: Int) throws {
        for m in Migrations.all where m.version > version {
            try writer.transaction {
                try writer.execute(m.sql)
                try m.rewrite?(writer, photos)
                try writer.execute("PRAGMA user_version = \(m.version)")
            }
        }
    }

    /// Called (under the write lock) with each photo whose file was removed because no
    /// contact refers to it any more: its thumbnails can go too.
    public func setPhotoRemovalHandler(_ handler: (@Sendable (String) -> Void)?) {
        writeLock.lock()
        photoRemovalHandler = handler
        writeLock.unlock()
    }

    public func setChangeHandler(_ handler: ChangeHandler?) {
        writeLock.lock()
        changeHandler = handler
        writeLock.unlock()
    }

    /// Copies `source` over the store under the write lock, migrates it, reloads the index.
    /// `beforeCopy` runs first, under the lock (the restore puts the backup's photos in place).
    func replaceContents(
        from source: Database, version: Int, beforeCopy: () throws -> Void, afterCopy: (Database) throws -> Void = { _ in }
    ) throws {
        writeLock.lock()
        defer { writeLock.unlock() }
        if isClosed { throw StoreError.unavailable("the store is closed") }
        pool.withLock { $0.idle.removeAll() }
        do {
            try beforeCopy()
            let previous = try CommitState.read(writer).state
            try source.copy(into: writer)
            try writer.execute("PRAGMA foreign_keys=ON; DROP TABLE IF EXISTS backup_photos;")
            try migrate(from: version)
            try afterCopy(writer)
            try CommitState.restart(writer, after: previous)
            try keyPhonesIfNeeded()
            try keyWaitingPhonesSoonIfAny()
        } catch let e as SQLiteError {
            if e.isDiskFull { throw StoreError.unavailable("the disk is full; the store was not replaced") }
            throw StoreError.database(e)
        } catch let e as SystemError {
            if e.isDiskFull { throw StoreError.unavailable("the disk is full; the store was not replaced") }
            throw StoreError.unavailable("cannot write a photo file (\(e)); the store was not replaced")
        }
        // The photos the old contents had and the new ones do not.
        _ = try? sweepPhotos()
        searchIndex.reset()
        cache.invalidate(nil)
        if !liveQueries.isEmpty, let state = try? CommitState.read(writer).state {
            var commit = LiveCommit(state: state, origin: "restore")
            commit.replaced = true
            liveCommitted(commit)
        }
        if let changeHandler { changeHandler([], [], ChangeSource(origin: "restore", operation: nil)) }
    }

    /// Loads the search index now rather than on the first search (the daemon calls this in
    /// the background once it is ready).
    public func warmUp() throws {
        try read { db in try searchIndex.loadIfNeeded(db) }
        // A first search pays for what is made on first use (folding tables through ICU, the
        // scan's threads, prepared statements): tens of milliseconds, better spent now than in
        // someone's first search.
        for text in ["Zoë Łukasz 张三 +1 (555)", "warm up"] { _ = try query(ContactQuery(text: text, limit: 50)) }
    }

    /// Closes the store; later calls fail with `unavailable`.
    public func close() {
        writeLock.lock()
        pool.withLock { p in
            p.closed = true
            p.idle.removeAll()
        }
        try? writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        writeLock.unlock()
    }

    // MARK: Connections

    /// Runs `body` on a reader connection from the pool.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        guard case .some(let db) = pool.withLock({ p in p.closed ? nil : Optional(p.idle.popLast()) }) else {
            throw StoreError.unavailable("the store is closed")
        }
        noteRead()
        let reader: Database
        if let db {
            reader = db
        } else {
            do {
                reader = try Database(path: path)
                try reader.execute("PRAGMA query_only=1; PRAGMA foreign_keys=ON;")
            } catch {
                throw StoreError.database(error)
            }
        }
        defer {
            reader.resetAll()
            let now = Timestamp.monotonicMillis()
            // Quiet counts from the end of a read too: a read that outlasts the wait for quiet
            // (an export) gives its reader back after the rest that could not close it.
            let wait = pool.withLock { p in
                if !p.closed && p.idle.count < 16 { p.idle.append(reader) }
                return p.noteRead(at: now)
            }
            if let wait { restLater(wait) }
        }
        do {
            return try body(reader)
        } catch let e as SQLiteError {
            throw StoreError.database(e)
        }
    }

    /// The writer's page cache: small while idle; a large import gets more for its duration.
    static let idleCacheKiB = 8 << 10
    static let bulkCacheKiB = 64 << 10

    /// The page cache for a bulk write of about `rows` contacts: 64 MiB, more for a larger
    /// import (a quarter KiB a contact, up to 512 MiB) so that the uid index, where each new
    /// contact lands at a random place, stays in it.
    static func bulkCacheKiB(rows: Int) -> Int { min(512 << 10, max(bulkCacheKiB, rows / 4)) }

    /// Runs `body` in a write transaction and reports its changes after the commit. A `bulk`
    /// write (a large import) gets a larger page cache, given back afterwards.
    func write<T>(
        bulk: Bool = false, bulkRows: Int = 0, origin: String = CommitOrigin.current, _ body: (Database, inout ChangeLog) throws -> T
    ) throws
        -> T
    {
        writeLock.lock()
        defer { writeLock.unlock() }
        if isClosed { throw StoreError.unavailable("the store is closed") }
        var log = ChangeLog()
        log.origin = origin
        log.keepsHistory = historyOn
        defer { writer.resetAll() }
        if bulk {
            // The commit of a large import does not also copy the whole log into the database
            // (SQLite's automatic checkpoint would, while the import's caller waits): that is
            // done just after, in the background.
            try? writer.execute("PRAGMA cache_size=-\(Self.bulkCacheKiB(rows: bulkRows)); PRAGMA wal_autocheckpoint=0;")
        }
        defer {
            if bulk {
                try? writer.execute("PRAGMA cache_size=-\(Self.idleCacheKiB); PRAGMA shrink_memory; PRAGMA wal_autocheckpoint=1000;")
                checkpointSoon()
            }
        }
        // What a large write puts in the log goes to disk as it goes, not all at its commit.
        let pusher = bulk ? LogPusher(path: path + "-wal") : nil
        defer { pusher?.stop() }
        let result: T
        // A large change's new search index is made while the transaction commits (mostly
        // waiting for the disk), and put in place once it has. (An import starts it sooner,
        // as soon as its last contact is in: see `prepareSearchIndexEarly`.)
        let prepared = PreparedIndex()
        earlyIndex = prepared
        defer { earlyIndex = nil }
        do {
            result = try writer.transaction {
                log.state = try CommitState.next(writer)
                let r = try body(writer, &log)
                try History.finish(writer, log)
                prepared.start(searchIndex, log)
                return r
            }

        } catch let e as SQLiteError {
            if e.isDiskFull { throw StoreError.unavailable("the disk is full; nothing was changed") }
            if e.isReadOnly { throw StoreError.unavailable("the store is read-only; nothing was changed") }
            throw StoreError.database(e)
        } catch let e as SystemError {
            if e.isDiskFull { throw StoreError.unavailable("the disk is full; nothing was changed") }
            throw StoreError.unavailable("cannot write a photo file (\(e)); nothing was changed")
        }
        afterCommit(&log, prepared, bulk: bulk)
        return result
    }

    /// What follows a commit, under the write lock: the search index learns the changes
    /// (the one made ahead is put in place, else they are applied), the cache forgets what
    /// changed, photos nobody refers to go, and the change handler hears of it all.
    private func afterCommit(_ log: inout ChangeLog, _ prepared: PreparedIndex, bulk: Bool) {
        if !log.indexRefresh.isEmpty {
            // Contacts touched by a group change: their timestamps moved.
            for rowid in log.indexRefresh where !log.indexDeletes.contains(rowid) {
                guard let s = try? writer.prepare("SELECT \(SearchIndex.selectColumns) FROM contacts WHERE rowid = ?"),
                    (try? s.bind([.int(rowid)])) != nil, (try? s.step()) == true
                else { continue }
                log.indexUpserts.append(SearchIndex.entry(s))
                s.reset()
            }
        }
        // Live queries follow a small commit by the entries it changes, read before and after.
        let followStarted = DispatchTime.now().uptimeNanoseconds
        let followCPUStarted = Self.threadCPUNanoseconds()
        let live = liveQueries.isEmpty ? nil : LiveCommit.before(log, index: searchIndex)
        let followNanos = DispatchTime.now().uptimeNanoseconds - followStarted
        let followCPUNanos = Self.threadCPUNanoseconds() - followCPUStarted
        if let contents = prepared.result(for: log) {
            searchIndex.install(prepared: contents)
        } else {
            searchIndex.apply(upserts: log.indexUpserts, deletes: log.indexDeletes)
        }
        searchIndex.replaceTexts(log.indexTexts)
        if log.accountsChanged {
            cache.invalidate(nil)
        } else if !log.isEmpty {
            // A group's change reaches its members' group lists: then everything goes.
            cache.invalidate(log.groups.isEmpty ? log.contacts.map(\.id) : nil)
        }
        releasePhotos(log.releasedPhotos)
        if log.phonesKeyedLater {
            waitingTails.add(log.waitingTails, allKept: log.waitingTailsKept)
            keyPhonesSoon()
        }
        // After the cache forgot what changed: a view reads the contacts it sends from it.
        // The queries follow once the writer has let go, before the next one starts: the
        // writer's caller has its answer meanwhile. A commit that changes only which account
        // a contact is in (a sync forgetting a card) changes what a view of an account holds.
        if var commit = live, !log.isEmpty || !commit.rowids.isEmpty || log.accountsChanged || log.membershipsChanged {
            commit.readAfter(searchIndex)
            writeLock.handOn { [self, commit] in
                let started = DispatchTime.now().uptimeNanoseconds
                let cpuStarted = Self.threadCPUNanoseconds()
                liveCommitted(commit)
                liveQueries.spent(
                    nanoseconds: followNanos + DispatchTime.now().uptimeNanoseconds - started,
                    cpu: followCPUNanos + Self.threadCPUNanoseconds() - cpuStarted)
            }
        } else if live != nil {
            liveQueries.spent(nanoseconds: followNanos, cpu: followCPUNanos)
        }
        if !log.isEmpty, let changeHandler {
            changeHandler(log.contacts, log.groups, ChangeSource(origin: log.origin, operation: log.operation, state: log.state))
        }
        if bulk {
            // A large write's log holds an entry for every contact it changed.
            Parallel.free(log)
            log = ChangeLog()
        }
    }

    /// The CPU time this thread has used: what a span took of it, apart from waiting for a core.
    static func threadCPUNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }
}
