import ContactsCore
import Foundation
import Glibc
import ScanKernel

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
        /// `sort_key NUL name NUL id`: the order of `ORDER BY sort_key, name, id`.
        var key: [UInt8]
        var text: [UInt8]
        var favorite: Bool
        var createdAt: Int64
        var updatedAt: Int64

        init(rowid: Int64, id: String, sortKey: String, name: String, text: String, favorite: Bool, createdAt: Int64, updatedAt: Int64) {
            var k = Array(sortKey.utf8)
            k.append(0)
            k.append(contentsOf: name.utf8)
            k.append(0)
            k.append(contentsOf: id.utf8)
            self.init(rowid: rowid, key: k, text: Array(text.utf8), favorite: favorite, createdAt: createdAt, updatedAt: updatedAt)
        }

        init(rowid: Int64, key: [UInt8], text: [UInt8], favorite: Bool, createdAt: Int64, updatedAt: Int64) {
            self.rowid = rowid
            self.key = key
            self.text = text
            self.favorite = favorite
            self.createdAt = createdAt
            self.updatedAt = updatedAt
        }
    }

    /// What the index keeps for each contact, without reference counting: its text and key
    /// live in two shared buffers. (A hundred thousand small arrays and strings would be
    /// scattered over the heap among whatever else was allocated meanwhile, and pin its pages
    /// long after an import freed everything around them.)
    private struct Slot {
        var rowid: Int64
        var createdAt: Int64
        var updatedAt: Int64
        var textStart: Int
        var keyStart: Int
        var textCount: Int32
        var keyCount: Int32
        var favorite: Bool

        var textEnd: Int { textStart + Int(textCount) }
    }

    private var lock = pthread_rwlock_t()
    /// In name order.
    private var slots: [Slot] = []
    private var textBuffer: [UInt8] = []
    /// `sort_key NUL name NUL id` of each slot: the id is what follows the last NUL.
    private var keyBuffer: [UInt8] = []
    /// Bytes of the buffers that no slot refers to any more.
    private var garbage = 0
    private(set) var isLoaded = false

    init() { pthread_rwlock_init(&lock, nil) }

    /// Whether the index is loaded and can answer at once.
    var ready: Bool {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return isLoaded
    }
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
        // SQLite's BINARY collation compares bytes as `less` does, so the rows come sorted:
        // they go straight into the buffers, with no per-contact arrays on the way.
        var fresh: [Slot] = [], texts: [UInt8] = [], keys: [UInt8] = []
        while try s.step() {
            let textStart = texts.count, keyStart = keys.count
            s.withBytes(4) { texts.append(contentsOf: $0) }
            s.withBytes(2) { keys.append(contentsOf: $0) }
            keys.append(0)
            s.withBytes(3) { keys.append(contentsOf: $0) }
            keys.append(0)
            s.withBytes(1) { keys.append(contentsOf: $0) }
            fresh.append(
                Slot(
                    rowid: s.int64(0), createdAt: s.int64(6), updatedAt: s.int64(7), textStart: textStart, keyStart: keyStart,
                    textCount: Int32(texts.count - textStart), keyCount: Int32(keys.count - keyStart), favorite: s.int64(5) != 0))
        }
        pthread_rwlock_wrlock(&lock)
        if !isLoaded {
            slots = fresh
            textBuffer = texts
            keyBuffer = keys
            garbage = 0
            isLoaded = true
        }
        pthread_rwlock_unlock(&lock)
    }

    /// Appends the entry's text and key to the buffers; returns its slot.
    private func makeSlot(_ e: Entry) -> Slot {
        let textStart = textBuffer.count, keyStart = keyBuffer.count
        textBuffer.append(contentsOf: e.text)
        keyBuffer.append(contentsOf: e.key)
        return Slot(
            rowid: e.rowid, createdAt: e.createdAt, updatedAt: e.updatedAt, textStart: textStart, keyStart: keyStart,
            textCount: Int32(e.text.count), keyCount: Int32(e.key.count), favorite: e.favorite)
    }

    private func rebuild(_ all: [Entry], alreadySorted: Bool = false) {
        let sorted = alreadySorted ? all : all.sorted { Self.less($0.key, $1.key) }
        textBuffer = []
        keyBuffer = []
        slots = []
        textBuffer.reserveCapacity(sorted.reduce(0) { $0 + $1.text.count })
        keyBuffer.reserveCapacity(sorted.reduce(0) { $0 + $1.key.count })
        slots.reserveCapacity(sorted.count)
        for e in sorted { slots.append(makeSlot(e)) }
        garbage = 0
    }

    private func currentEntries() -> [Entry] {
        slots.map { slot in
            Entry(
                rowid: slot.rowid, key: Array(keyBuffer[slot.keyStart..<(slot.keyStart + Int(slot.keyCount))]),
                text: Array(textBuffer[slot.textStart..<slot.textEnd]), favorite: slot.favorite, createdAt: slot.createdAt,
                updatedAt: slot.updatedAt)
        }
    }

    /// Whether slot `i`'s key sorts before `key`.
    private func slotKey(_ i: Int, isLessThan key: [UInt8]) -> Bool {
        let slot = slots[i]
        return keyBuffer.withUnsafeBytes { k in
            key.withUnsafeBytes { y in Self.less(UnsafeRawBufferPointer(rebasing: k[slot.keyStart..<(slot.keyStart + Int(slot.keyCount))]), y) }
        }
    }

    /// Forgets everything; the next search loads the index again.
    func reset() {
        pthread_rwlock_wrlock(&lock)
        slots = []
        textBuffer = []
        keyBuffer = []
        garbage = 0
        isLoaded = false
        pthread_rwlock_unlock(&lock)
    }

    /// Replaces or adds entries and removes the contacts of `deletes` (rowids), keeping name
    /// order.
    func apply(upserts: [Entry], deletes: Set<Int64>) {
        if upserts.isEmpty && deletes.isEmpty { return }
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        guard isLoaded else { return }  // loaded later from the database as it is then
        let gone = deletes.union(upserts.map(\.rowid))
        if upserts.count + deletes.count > 256 {
            rebuild(currentEntries().filter { !gone.contains($0.rowid) } + upserts)
            return
        }
        slots.removeAll { slot in
            guard gone.contains(slot.rowid) else { return false }
            garbage += Int(slot.textCount) + Int(slot.keyCount)
            return true
        }
        for e in upserts {
            var lo = 0
            var hi = slots.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if slotKey(mid, isLessThan: e.key) { lo = mid + 1 } else { hi = mid }
            }
            slots.insert(makeSlot(e), at: lo)
        }
        if garbage > 1 << 20 && garbage > (textBuffer.count + keyBuffer.count) / 2 { rebuild(currentEntries(), alreadySorted: true) }
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
        textBuffer.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            slots.withUnsafeBufferPointer { slots in
                let scan = Scan(
                    text: base, slots: slots, needles: patterns.filter { !$0.isEmpty }.map(Needle.init), favoritesOnly: favoritesOnly,
                    members: members)
                // A large index is scanned in parts on all cores; the parts come back in order.
                matches = Parallel.chunks(slots.count, minimum: Self.parallelScanMinimum) { scan.run($0) }.flatMap { $0 }
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

    /// Below this many contacts one thread scans faster than several can be started.
    static let parallelScanMinimum = 20_000

    /// One search's view of the index. The caller holds the read lock for as long as any
    /// part of the scan runs, so the pointers stay valid and unchanged.
    private struct Scan: @unchecked Sendable {
        let text: UnsafeRawPointer
        let slots: UnsafeBufferPointer<Slot>
        let needles: [Needle]
        let favoritesOnly: Bool
        let members: Set<Int64>?

        /// The matching slots of `range`, in order.
        func run(_ range: Range<Int>) -> [Int] {
            var found: [Int] = []
            guard !needles.isEmpty else {
                for i in range where passes(slots[i]) { found.append(i) }
                return found
            }
            var marks = [Bool](repeating: false, count: range.count)
            // Slots whose texts follow one another in the buffer (all of them, after a rebuild)
            // are searched as one stretch: `memchr` then runs over many contacts at a time.
            var i = range.lowerBound
            while i < range.upperBound {
                var j = i + 1
                while j < range.upperBound && slots[j].textStart == slots[j - 1].textEnd { j += 1 }
                for n in needles { mark(n, in: i..<j, marks: &marks, base: range.lowerBound) }
                i = j
            }
            for i in range where marks[i - range.lowerBound] && passes(slots[i]) { found.append(i) }
            return found
        }

        func passes(_ s: Slot) -> Bool {
            if favoritesOnly && !s.favorite { return false }
            if let members, !members.contains(s.rowid) { return false }
            return true
        }

        /// Marks the slots of one stretch whose text holds the needle. A candidate that begins
        /// in one contact's text and ends in the next is no match.
        func mark(_ needle: Needle, in run: Range<Int>, marks: inout [Bool], base: Int) {
            let count = needle.bytes.count
            // Where the scan's stop sits in the needle: its rarest pair of bytes (0 for one byte).
            let k = needle.pair
            let runEnd = slots[run.upperBound - 1].textEnd
            let lastAnchor = runEnd - count + k
            needle.bytes.withUnsafeBytes { n in
                let np = n.baseAddress!
                let anchorByte = Int32(n[k])
                let first = n[0], last = n[count - 1]
                var cursor = run.lowerBound
                var pos = slots[cursor].textStart + k
                let bytes = text.assumingMemoryBound(to: UInt8.self)
                while pos <= lastAnchor {
                    let found: Int
                    if count >= 2 {
                        let r = scan_find_pair(bytes + pos, lastAnchor - pos + 2, n[k], n[k + 1])
                        if r < 0 { return }
                        found = pos + r
                    } else {
                        guard let p = memchr(text + pos, anchorByte, lastAnchor - pos + 1) else { return }
                        found = text.distance(to: p)
                    }
                    let matchStart = found - k
                    while slots[cursor].textEnd <= matchStart {
                        cursor += 1
                        if cursor == run.upperBound { return }
                    }
                    let s = slots[cursor]
                    // The needle's first and last bytes are compared before a call to memcmp:
                    // most candidates fail there.
                    if matchStart >= s.textStart && matchStart + count <= s.textEnd
                        && (count == 1
                            || (text.load(fromByteOffset: matchStart, as: UInt8.self) == first
                                && text.load(fromByteOffset: matchStart + count - 1, as: UInt8.self) == last
                                && (count == 2 || memcmp(text + matchStart, np, count) == 0)))
                    {
                        marks[cursor - base] = true
                        cursor += 1
                        if cursor == run.upperBound { return }
                        pos = slots[cursor].textStart + k
                    } else {
                        pos = matchStart + k + 1
                    }
                }
            }
        }
    }

    /// A needle prepared for the scan: which of its pairs of bytes to look for first. A byte
    /// that occurs everywhere (the `a` of "appleseed", any digit) would stop the scan on every
    /// contact; the needle's rarest pair in contact text rarely does.
    struct Needle: @unchecked Sendable {
        let bytes: [UInt8]
        /// Where its rarest pair of adjacent bytes starts (0 for a needle of one byte).
        let pair: Int

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var bestPair = 0
            func pairCommonness(_ i: Int) -> Int { Needle.commonness(bytes[i]) * Needle.commonness(bytes[i + 1]) }
            for i in 0..<max(0, bytes.count - 1) where pairCommonness(i) < pairCommonness(bestPair) { bestPair = i }
            pair = bestPair
        }

        /// How often a byte turns up in folded contact text (names, addresses, digits), roughly:
        /// English and European letter frequencies, digits and separators.
        static func commonness(_ b: UInt8) -> Int {
            switch b {
            case UInt8(ascii: "e"), UInt8(ascii: "a"), UInt8(ascii: " "), UInt8(ascii: "."): return 100
            case UInt8(ascii: "o"), UInt8(ascii: "i"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "m"), UInt8(ascii: "l"): return 80
            case UInt8(ascii: "s"), UInt8(ascii: "t"), UInt8(ascii: "c"), UInt8(ascii: "5"), UInt8(ascii: "x"): return 70
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return 50
            case UInt8(ascii: "h"), UInt8(ascii: "d"), UInt8(ascii: "u"), UInt8(ascii: "p"), UInt8(ascii: "@"): return 45
            case UInt8(ascii: "g"), UInt8(ascii: "b"), UInt8(ascii: "y"), UInt8(ascii: "k"), UInt8(ascii: "w"): return 30
            case UInt8(ascii: "f"), UInt8(ascii: "v"), UInt8(ascii: "j"): return 20
            case UInt8(ascii: "q"), UInt8(ascii: "z"): return 10
            default: return 5  // punctuation, and the bytes of other scripts
            }
        }
    }

    static func less(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { x in b.withUnsafeBytes { y in less(x, y) } }
    }

    /// The order of keys: their bytes, then the shorter first (SQLite's BINARY collation).
    /// Keys always hold two NUL separators, so neither is empty.
    static func less(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
        let r = memcmp(x.baseAddress!, y.baseAddress!, min(x.count, y.count))
        return r == 0 ? x.count < y.count : r < 0
    }
}
