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
    /// How many contacts one background transaction keys.
    static let keyingBatch = 5000

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
        let waiting: [(rowid: Int64, contact: Contact)] = try read { db in
            let s = try db.prepare("SELECT contact_rowid FROM phones_unkeyed LIMIT ?")
            try s.bind([.int(Int64(limit))])
            var rowids: [Int64] = []
            while try s.step() { rowids.append(s.int64(0)) }
            s.reset()
            return try Self.fetch(db, rowids: rowids, withCard: false) { ($0.int64(0), Self.readContact($0)) }
        }
        guard !waiting.isEmpty else { return 0 }
        let region = PhoneRegion.current
        // Read on every core, outside the write lock, at a priority that leaves caller ID and
        // searches a core when they come; a new search text only for the few whose E.164
        // form is not in their digits already.
        let keyed = Parallel.backgroundChunks(waiting.count, minimum: 256) { r in
            waiting[r].map { w -> (rowid: Int64, keys: [PhoneKeys], text: String?) in
                let keys = w.contact.phones.map { PhoneKeys($0.value, region: region) }
                let text =
                    SearchDocument.numbersChangeText(of: w.contact, keys) ? SearchDocument.text(for: w.contact, phoneKeys: keys) : nil
                return (w.rowid, keys, text)
            }
        }.flatMap { $0 }
        let keyedAll = try write(origin: "keys") { db, log -> Bool in
            // A new region keys every phone again anyway (`keyPhonesIfNeeded`).
            guard PhoneRegion.current == region else { return false }
            let done = try db.prepare("DELETE FROM phones_unkeyed WHERE contact_rowid = ?")
            let search = try db.prepare("UPDATE contacts SET search = ? WHERE rowid = ?")
            for (rowid, keys, text) in keyed {
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
        return keyedAll ? waiting.count : 0
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
            while ((try? self.keyWaitingPhones()) ?? 0) > 0 {}
            if long { self.setWriterCache(kib: nil) }
            self.forgetWaitingTailsIfNoneWait()
        }
    }

    /// The writer's page cache: `kib` for a long run of writes, or (nil) back to the idle size,
    /// what it held given back.
    func setWriterCache(kib: Int?) {
        writeLock.lock()
        defer { writeLock.unlock() }
        guard !closed else { return }
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
        guard !closed, let waiting = try? Self.phonesWait(writer), !waiting else { return }
        waitingTails.reset(complete: true)
    }

    /// Waits until nothing started by `keyPhonesSoon` runs any more.
    public func waitForPhoneKeys() { phoneKeying.wait() }
}

/// A job run in the background on request, one run at a time: a request while it runs makes
/// it run once more after, so that what the request was for is never missed.
final class BackgroundJob: @unchecked Sendable {
    private let lock = NSLock()
    private let group = DispatchGroup()
    private var running = false
    private var again = false
    private let name: String

    init(name: String) { self.name = name }

    func request(_ job: @escaping @Sendable () -> Void) {
        lock.lock()
        if running {
            again = true
            lock.unlock()
            return
        }
        running = true
        group.enter()
        lock.unlock()
        let thread = Thread { [self] in
            while true {
                job()
                lock.lock()
                if !again {
                    running = false
                    lock.unlock()
                    group.leave()
                    return
                }
                again = false
                lock.unlock()
            }
        }
        thread.name = name
        thread.start()
    }

    func wait() { group.wait() }
}
