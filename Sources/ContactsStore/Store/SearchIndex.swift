import ContactsCore
import Foundation
import Glibc

/// An in-memory copy of what substring search needs: each contact's folded search text, its
/// sort position and its filter fields, kept in name order.
///
/// Substring search with queries of one or two characters cannot use the trigram index, and
/// queries that match thousands of contacts spend their time counting and sorting rows. A
/// linear scan over ~100 bytes a contact, already in order, answers every query class in a few
/// milliseconds at 100k contacts. The store updates it after each commit, under its write
/// lock, so it never disagrees with a committed state for long; readers never wait for a
/// transaction in progress.
final class SearchIndex: @unchecked Sendable {
    struct Entry {
        var rowid: Int64
        var id: String
        /// `sort_key NUL name NUL id`: the order of `ORDER BY sort_key, name, id`.
        var key: [UInt8]
        var text: [UInt8]
        var favorite: Bool
        var createdAt: Int64
        var updatedAt: Int64

        init(rowid: Int64, id: String, sortKey: String, name: String, text: String, favorite: Bool, createdAt: Int64, updatedAt: Int64) {
            self.rowid = rowid
            self.id = id
            var k = Array(sortKey.utf8)
            k.append(0)
            k.append(contentsOf: name.utf8)
            k.append(0)
            k.append(contentsOf: id.utf8)
            self.key = k
            self.text = Array(text.utf8)
            self.favorite = favorite
            self.createdAt = createdAt
            self.updatedAt = updatedAt
        }
    }

    /// What the scan reads for each contact, without reference counting: the text lives in
    /// one shared buffer.
    private struct Slot {
        var rowid: Int64
        var textStart: Int
        var textCount: Int
        var createdAt: Int64
        var updatedAt: Int64
        var favorite: Bool
    }

    private var lock = pthread_rwlock_t()
    /// In name order, with `keys` and `ids` alongside.
    private var slots: [Slot] = []
    private var keys: [[UInt8]] = []
    private var ids: [String] = []
    private var textBuffer: [UInt8] = []
    private var garbage = 0
    private(set) var isLoaded = false

    init() { pthread_rwlock_init(&lock, nil) }
    deinit { pthread_rwlock_destroy(&lock) }

    static let selectColumns = "rowid, id, sort_key, name, search, favorite, created_at, updated_at"

    static func entry(_ s: Statement) -> Entry {
        Entry(
            rowid: s.int64(0), id: s.text(1), sortKey: s.text(2), name: s.text(3), text: s.text(4), favorite: s.int64(5) != 0,
            createdAt: s.int64(6), updatedAt: s.int64(7))
    }

    /// Loads every contact, unless already loaded.
    func loadIfNeeded(_ db: Database) throws {
        pthread_rwlock_rdlock(&lock)
        let loaded = isLoaded
        pthread_rwlock_unlock(&lock)
        if loaded { return }
        let s = try db.prepare("SELECT \(Self.selectColumns) FROM contacts ORDER BY sort_key, name, id")
        var fresh: [Entry] = []
        while try s.step() { fresh.append(Self.entry(s)) }
        pthread_rwlock_wrlock(&lock)
        if !isLoaded {
            // SQLite's BINARY collation compares bytes as `less` does, so the rows come sorted.
            rebuild(fresh, alreadySorted: true)
            isLoaded = true
        }
        pthread_rwlock_unlock(&lock)
    }

    private func makeSlot(_ e: Entry) -> Slot {
        let start = textBuffer.count
        textBuffer.append(contentsOf: e.text)
        return Slot(rowid: e.rowid, textStart: start, textCount: e.text.count, createdAt: e.createdAt, updatedAt: e.updatedAt, favorite: e.favorite)
    }

    private func rebuild(_ all: [Entry], alreadySorted: Bool = false) {
        let sorted = alreadySorted ? all : all.sorted { Self.less($0.key, $1.key) }
        textBuffer = []
        textBuffer.reserveCapacity(sorted.reduce(0) { $0 + $1.text.count })
        slots = sorted.map(makeSlot)
        keys = sorted.map(\.key)
        ids = sorted.map(\.id)
        garbage = 0
    }

    private func currentEntries() -> [Entry] {
        slots.indices.map { i in
            var e = Entry(rowid: slots[i].rowid, id: ids[i], sortKey: "", name: "", text: "", favorite: slots[i].favorite,
                createdAt: slots[i].createdAt, updatedAt: slots[i].updatedAt)
            e.key = keys[i]
            e.text = Array(textBuffer[slots[i].textStart..<(slots[i].textStart + slots[i].textCount)])
            return e
        }
    }

    /// Forgets everything; the next search loads the index again.
    func reset() {
        pthread_rwlock_wrlock(&lock)
        slots = []
        keys = []
        ids = []
        textBuffer = []
        garbage = 0
        isLoaded = false
        pthread_rwlock_unlock(&lock)
    }

    /// Replaces or adds entries and removes others, keeping name order.
    func apply(upserts: [Entry], deletes: Set<String>) {
        if upserts.isEmpty && deletes.isEmpty { return }
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        guard isLoaded else { return }  // loaded later from the database as it is then
        let gone = deletes.union(upserts.map(\.id))
        if upserts.count + deletes.count > 256 {
            rebuild(currentEntries().filter { !gone.contains($0.id) } + upserts)
            return
        }
        var i = 0
        while i < ids.count {
            if gone.contains(ids[i]) {
                garbage += slots[i].textCount
                slots.remove(at: i)
                keys.remove(at: i)
                ids.remove(at: i)
            } else {
                i += 1
            }
        }
        for e in upserts {
            var lo = 0
            var hi = keys.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if Self.less(keys[mid], e.key) { lo = mid + 1 } else { hi = mid }
            }
            slots.insert(makeSlot(e), at: lo)
            keys.insert(e.key, at: lo)
            ids.insert(e.id, at: lo)
        }
        if garbage > 1 << 20 && garbage > textBuffer.count / 2 { rebuild(currentEntries()) }
    }

    enum Order {
        case name(ascending: Bool)
        case created(ascending: Bool)
        case updated(ascending: Bool)
    }

    /// The rowids of one page of matches, and how many match in all.
    func search(patterns: [[UInt8]], favoritesOnly: Bool, members: Set<Int64>?, order: Order, offset: Int, limit: Int?) -> (total: Int, rowids: [Int64]) {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        var matches: [Int] = []
        let needles = patterns.filter { !$0.isEmpty }
        textBuffer.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            slots.withUnsafeBufferPointer { slots in
                for i in 0..<slots.count {
                    let s = slots[i]
                    if favoritesOnly && !s.favorite { continue }
                    if let members, !members.contains(s.rowid) { continue }
                    var hit = needles.isEmpty
                    for n in needles where !hit {
                        hit = Self.contains(base + s.textStart, s.textCount, n)
                    }
                    if hit { matches.append(i) }
                }
            }
        }
        let total = matches.count
        switch order {
        case .name(let ascending):
            if !ascending { matches.reverse() }
        case .created(let ascending):
            matches.sort { a, b in
                let x = slots[a].createdAt, y = slots[b].createdAt
                return x == y ? a < b : (ascending ? x < y : x > y)
            }
        case .updated(let ascending):
            matches.sort { a, b in
                let x = slots[a].updatedAt, y = slots[b].updatedAt
                return x == y ? a < b : (ascending ? x < y : x > y)
            }
        }
        guard offset < total else { return (total, []) }
        let end = limit.map { min(total, offset + $0) } ?? total
        return (total, matches[offset..<end].map { slots[$0].rowid })
    }

    static func contains(_ hp: UnsafeRawPointer, _ hcount: Int, _ needle: [UInt8]) -> Bool {
        let count = needle.count
        if count > hcount { return false }
        return needle.withUnsafeBytes { n in
            // needle is non-empty (the caller drops empty patterns).
            let np = n.baseAddress!
            let first = Int32(n[0])
            let last = hcount - count
            var i = 0
            while i <= last {
                guard let p = memchr(hp + i, first, last - i + 1) else { return false }
                if count == 1 || memcmp(p + 1, np + 1, count - 1) == 0 { return true }
                i = hp.distance(to: p) + 1
            }
            return false
        }
    }

    static func less(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let r = a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                // Keys always hold two NUL separators, so neither buffer is empty.
                memcmp(x.baseAddress!, y.baseAddress!, min(x.count, y.count))
            }
        }
        return r == 0 ? a.count < b.count : r < 0
    }
}
