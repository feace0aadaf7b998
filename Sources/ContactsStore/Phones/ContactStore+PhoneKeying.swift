import ContactsCore
import ContactsSupport
import Dispatch
import Foundation
import PhoneNumbers

/// The phones a large import did not read as numbers (`phones_unkeyed`), read in the
/// background right after it: their keys in `phone_numbers` and the search text's E.164
/// lines, a batch to a short transaction, without a new revision or a change event (nothing
/// a person wrote changes). Meanwhile caller ID looks for the last digits in those contacts'
/// search text and tells each match as it would after; a search finds them by their digits.
extension ContactStore {
    /// How many contacts one background transaction keys at the least.
    static let keyingBatch = 5000

    /// How many contacts one transaction keys when `waiting` wait: a twentieth of them, from
    /// 5,000 to 50,000. Each commit writes (and checkpoints) every page of the number indexes
    /// its keys land on, at random places; once those indexes outgrow a batch that is most
    /// of their pages whatever the batch's size, so fewer, larger batches write far less.
    static func keyingBatch(waiting: Int) -> Int { min(50_000, max(keyingBatch, waiting / 20)) }

    /// Whether some contacts wait for their phones to be keyed.
    static func phonesWait(_ db: Database) throws -> Bool {
        try db.scalarInt("SELECT EXISTS (SELECT 1 FROM phones_unkeyed)") != 0
    }

    /// Starts keying the contacts an import left waiting (a daemon stopped during it), if any;
    /// the caller holds the writer. Their tails are not in memory: caller ID looks for them in
    /// the store until they are keyed.
    func keyWaitingPhonesSoonIfAny() throws {
        let waiting = try Self.phonesWait(writer)
        waitingTails.reset(complete: !waiting)
        if waiting { keyPhonesSoon() }
    }

    /// Keys the phones of at most `limit` contacts that wait for it; returns how many (0 also
    /// when the region changed meanwhile: the change keys every phone).
    func keyWaitingPhones(limit: Int = keyingBatch) throws -> Int {
        let batch = try readWaitingKeys(after: 0, limit: limit)
        guard !batch.rows.isEmpty else { return 0 }
        return try writeKeys(batch) ? batch.rows.count : 0
    }

    /// The phones of waiting contacts read as numbers, ready to be written.
    struct WaitingKeys: Sendable {
        var region: String?
        var rows: [(rowid: Int64, keys: [PhoneKeys], text: String?)]
    }

    /// Reads the phones of at most `limit` waiting contacts after `rowid` (in rowid order) as
    /// numbers: on every core, outside the write lock, at a priority that leaves caller ID and
    /// searches a core when they come. Only the phones of each body are decoded; a new search
    /// text is made only for the few whose E.164 form is not in their digits already.
    func readWaitingKeys(after rowid: Int64, limit: Int) throws -> WaitingKeys {
        let waiting: [(rowid: Int64, phones: [LabeledValue])] = try read { db in
            let s = try db.prepare("SELECT contact_rowid FROM phones_unkeyed WHERE contact_rowid > ? ORDER BY contact_rowid LIMIT ?")
            try s.bind([.int(rowid), .int(Int64(limit))])
            var rowids: [Int64] = []
            while try s.step() { rowids.append(s.int64(0)) }
            s.reset()
            return try Self.fetch(db, rowids: rowids, columns: "c.rowid, c.body") { s in
                var c = Contact(name: "")
                s.withBytes(1) { StoredBody.decode($0, StoredBody.spans($0, only: .phones), into: &c) }
                return (s.int64(0), c.phones)
            }
        }
        let region = PhoneRegion.current
        let parsed = Parallel.backgroundChunks(waiting.count, minimum: 256) { r in
            waiting[r].map { w -> (keys: [PhoneKeys], needsText: Bool) in
                let keys = w.phones.map { PhoneKeys($0.value, region: region) }
                return (keys, SearchDocument.numbersChangeText(of: w.phones, keys))
            }
        }.flatMap { $0 }
        let keys = parsed.map(\.keys)
        // The whole contact, for its new search text, of those few alone.
        let needText = waiting.indices.filter { parsed[$0].needsText }
        var texts: [Int64: String] = [:]
        if !needText.isEmpty {
            let whole = try read { db in
                try Self.fetch(db, rowids: needText.map { waiting[$0].rowid }, withCard: false) { ($0.int64(0), Self.readContact($0)) }
            }
            let keysOf = Dictionary(needText.map { (waiting[$0].rowid, keys[$0]) }, uniquingKeysWith: { a, _ in a })
            for (rowid, c) in whole { texts[rowid] = SearchDocument.text(for: c, phoneKeys: keysOf[rowid]) }
        }
        return WaitingKeys(region: region, rows: waiting.indices.map { (waiting[$0].rowid, keys[$0], texts[waiting[$0].rowid]) })
    }

    /// Writes the keys read, for the contacts that still wait; false when the region changed
    /// since they were read (a new region keys every phone again anyway).
    func writeKeys(_ batch: WaitingKeys) throws -> Bool {
        try write(origin: "keys") { db, log -> Bool in
            guard PhoneRegion.current == batch.region else { return false }
            let done = try db.prepare("DELETE FROM phones_unkeyed WHERE contact_rowid = ?")
            let search = try db.prepare("UPDATE contacts SET search = ? WHERE rowid = ?")
            for (rowid, keys, text) in batch.rows {
                // Not waiting any more: changed (and keyed) or deleted meanwhile.
                try done.run([.int(rowid)])
                guard db.changes > 0 else { continue }
                try Self.savePhoneKeys(db, rowid: rowid, keys)
                if let text {
                    try search.run([.text(text), .int(rowid)])
                    log.indexTexts[rowid] = Array(text.utf8)
                }
            }
            return true
        }
    }

    /// Keys everything that waits, in batches of `batch` contacts in rowid order: the next
    /// batch is read and parsed while this one is written (on two cores the writer's work and
    /// the parse overlap instead of taking turns).
    func keyAllWaitingPhones(batch: Int) {
        var next = try? readWaitingKeys(after: 0, limit: batch)
        while let current = next, let last = current.rows.last?.rowid {
            let following = Locked<WaitingKeys?>(nil)
            let reading = DispatchGroup()
            reading.enter()
            Thread.detachNewThread { [weak self] in
                following.withLock { $0 = try? self?.readWaitingKeys(after: last, limit: batch) }
                reading.leave()
            }
            let written = (try? writeKeys(current)) ?? false
            reading.wait()
            guard written else { return }
            next = following.withLock { $0 }
        }
    }

    /// How many contacts wait for their phones to be read as numbers.
    public func phonesWaitingForKeys() throws -> Int {
        try read { db in Int(try db.scalarInt("SELECT count(*) FROM phones_unkeyed")) }
    }

    /// Starts keying what waits, in the background, unless that runs already (it then
    /// goes on until nothing waits, this write's contacts included).
    func keyPhonesSoon() {
        phoneKeying.request { [weak self] in
            guard let self else { return }
            // The keys go into the number indexes in the order of the numbers, not of the
            // contacts: many batches get a page cache that holds those indexes for the run.
            let waiting = (try? self.phonesWaitingForKeys()) ?? 0
            let long = waiting > Self.keyingBatch
            if long { self.setWriterCache(kib: Self.bulkCacheKiB(rows: waiting)) }
            self.keyAllWaitingPhones(batch: Self.keyingBatch(waiting: waiting))
            if long { self.setWriterCache(kib: nil) }
            self.forgetWaitingTailsIfNoneWait()
        }
    }

    /// The writer's page cache: `kib` for a long run of writes, or (nil) back to the idle size,
    /// what it held given back.
    func setWriterCache(kib: Int?) {
        writeLock.lock()
        defer { writeLock.unlock() }
        guard !isClosed else { return }
        if let kib {
            try? writer.execute("PRAGMA cache_size=-\(kib)")
        } else {
            try? writer.execute("PRAGMA cache_size=-\(Self.idleCacheKiB); PRAGMA shrink_memory;")
        }
    }

    /// Under the write lock, so that no import adds tails between the look and the reset.
    func forgetWaitingTailsIfNoneWait() {
        writeLock.lock()
        defer { writeLock.unlock() }
        guard !isClosed, let waiting = try? Self.phonesWait(writer), !waiting else { return }
        waitingTails.reset(complete: true)
    }

    /// Waits until nothing started by `keyPhonesSoon` runs any more.
    public func waitForPhoneKeys() { phoneKeying.wait() }
}

/// A job run in the background on request, one run at a time: a request while it runs makes
/// it run once more after, so that what the request was for is never missed.
final class BackgroundJob: Sendable {
    /// Whether a run is under way, and whether a request came while it ran.
    private let state = Locked((running: false, again: false))
    private let group = DispatchGroup()
    private let name: String

    init(name: String) { self.name = name }

    func request(_ job: @escaping @Sendable () -> Void) {
        let start = state.withLock { s in
            guard !s.running else {
                s.again = true
                return false
            }
            // Entered under the lock: a wait that comes after this request waits for its run.
            s.running = true
            group.enter()
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in
            while true {
                job()
                let done = state.withLock { s in
                    defer { (s.running, s.again) = (s.again, false) }
                    return !s.again
                }
                if done {
                    group.leave()
                    return
                }
            }
        }
        thread.name = name
        thread.start()
    }

    func wait() { group.wait() }
}
