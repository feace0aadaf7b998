import ContactsCore
import ContactsSupport
import Foundation
import Glibc
import ScanKernel

/// An in-memory copy of what substring search needs: each contact's folded search text, its
/// sort position and its filter fields, kept in name order.
///
/// A search is a linear scan over about a hundred bytes a contact, already in name order
/// (`SearchIndex+Scan.swift`; the order itself in `SearchIndex+Order.swift`). The store
/// updates the index after each commit, under its write lock, so it never disagrees with a
/// committed state for long; readers never wait for a transaction in progress. Why a scan and
/// not an index of trigrams: docs/decisions.md.
final class SearchIndex: @unchecked Sendable {
    struct Entry {
        var rowid: Int64
        /// `sort_key NUL name`: with the rowid after it, the order of `ORDER BY sort_key, name, rowid`.
        var key: [UInt8]
        var text: [UInt8]
        var favorite: Bool
        var createdAt: Int64
        var updatedAt: Int64

        init(rowid: Int64, sortKey: String, name: String, text: String, favorite: Bool, createdAt: Int64, updatedAt: Int64) {
            self.init(
                rowid: rowid, key: Self.key(sortKey: sortKey, name: name), text: Array(text.utf8), favorite: favorite,
                createdAt: createdAt, updatedAt: updatedAt)
        }

        static func key(sortKey: String, name: String) -> [UInt8] {
            var k: [UInt8] = []
            k.reserveCapacity(sortKey.utf8.count + name.utf8.count + 1)
            k.append(contentsOf: sortKey.utf8)
            k.append(0)
            k.append(contentsOf: name.utf8)
            return k
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
    /// long after an import freed everything around them.) The type is the scan kernel's, so
    /// the scan reads the slot array as it is.
    typealias Slot = ScanSlot

    var lock = pthread_rwlock_t()
    /// In name order.
    var slots: [Slot] = []
    /// What each slot's text holds, for the scan to pass over contacts that cannot match:
    /// `features[i]` belongs to `slots[i]`.
    var features: [ScanFeatures] = []
    var textBuffer: [UInt8] = []
    /// `sort_key NUL name` of each slot. (Not the id: 36 bytes a contact that a search can do
    /// without, the rowid standing in for it in the order and in the contact cache.)
    var keyBuffer: [UInt8] = []
    /// Bytes of the buffers that no slot refers to any more.
    var garbage = 0
    /// Where each stretch of slots whose texts follow one another in the buffer begins: one
    /// after a load or rebuild; an insert starts new ones. A needle that most contacts could
    /// hold is looked for over a whole stretch in one pass.
    var stretches: [Int] = [0]
    private(set) var isLoaded = false
    let loading = NSLock()

    init() { pthread_rwlock_init(&lock, nil) }

    deinit { pthread_rwlock_destroy(&lock) }

    static let selectColumns = "rowid, sort_key, name, search, favorite, created_at, updated_at"

    static func entry(_ s: Statement) -> Entry {
        Entry(
            rowid: s.int64(0), sortKey: s.text(1), name: s.text(2), text: s.text(3), favorite: s.int64(4) != 0,
            createdAt: s.int64(5), updatedAt: s.int64(6))
    }

    /// Loads every contact, unless already loaded. Loads never overlap: a caller arriving
    /// during one waits for it. A write that commits while the table is read (its changes
    /// come here, to an index not loaded yet, and are dropped) makes the load read it again:
    /// otherwise its contacts would be missing from searches until the next start.
    func loadIfNeeded(_ db: Database) throws {
        loading.lock()
        defer { loading.unlock() }
        while true {
            pthread_rwlock_rdlock(&lock)
            let (loaded, seen) = (isLoaded, changesWhileUnloaded)
            pthread_rwlock_unlock(&lock)
            if loaded { return }
            let c = try Self.load(db)
            afterReadForTesting?()
            pthread_rwlock_wrlock(&lock)
            defer { pthread_rwlock_unlock(&lock) }
            if isLoaded { return }
            if changesWhileUnloaded == seen {
                install(c)
                isLoaded = true
                return
            }
        }
    }

    /// Changes that came while the index was not loaded (and so were not applied).
    var changesWhileUnloaded = 0
    /// Called between reading the table and installing what was read (tests only).
    nonisolated(unsafe) var afterReadForTesting: (() -> Void)?

    /// Every contact, read in the table's order (one pass over it, with no index to follow)
    /// straight into the buffers, then put in name order.
    static func load(_ db: Database) throws -> Contents {
        let s = try db.prepare("SELECT \(Self.selectColumns) FROM contacts")
        var read: [Slot] = [], texts: [UInt8] = [], keys: [UInt8] = []
        while try s.step() {
            let textStart = texts.count, keyStart = keys.count
            s.withBytes(3) { texts.append(contentsOf: $0) }
            s.withBytes(1) { keys.append(contentsOf: $0) }
            keys.append(0)
            s.withBytes(2) { keys.append(contentsOf: $0) }
            read.append(
                Slot(
                    rowid: s.int64(0), createdAt: s.int64(5), updatedAt: s.int64(6), textStart: textStart, keyStart: keyStart,
                    textCount: Int32(texts.count - textStart), keyCount: Int32(keys.count - keyStart), favorite: s.int64(4) != 0))
        }
        return ordered(read, texts: texts, keys: keys)
    }

    /// Slots pointing into `texts` and `keys` in any order made into the index's contents:
    /// put in name order (unless `alreadySorted`), with the buffers laid out again in that
    /// order (a scan then reads them front to back, and what no slot points at is left out)
    /// and the features worked out.
    static func ordered(_ read: [Slot], texts: [UInt8], keys: [UInt8], alreadySorted: Bool = false) -> Contents {
        var slots = alreadySorted ? read : keys.withUnsafeBytes { Self.nameOrder(read, keys: $0) }.map { read[$0] }
        var c = Contents()
        c.textBuffer = Self.gather(texts, &slots, start: \.textStart, count: \.textCount)
        c.keyBuffer = Self.gather(keys, &slots, start: \.keyStart, count: \.keyCount)
        c.features = Self.features(of: slots, in: c.textBuffer)
        c.slots = slots
        return c
    }

    /// The pieces of `buffer` the slots point at (by the `start` and `count` fields), one
    /// after another in the slots' order; the slots are changed to point into the result.
    static func gather(_ buffer: [UInt8], _ slots: inout [Slot], start: WritableKeyPath<Slot, Int>, count: KeyPath<Slot, Int32>)
        -> [UInt8]
    {
        let total = slots.reduce(0) { $0 + Int($1[keyPath: count]) }
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            buffer.withUnsafeBufferPointer { from in
                var at = 0
                for k in slots.indices {
                    let n = Int(slots[k][keyPath: count])
                    // n > 0 means both buffers hold bytes.
                    // swift-format-ignore: NeverForceUnwrap
                    if n > 0 { (out.baseAddress! + at).initialize(from: from.baseAddress! + slots[k][keyPath: start], count: n) }
                    slots[k][keyPath: start] = at
                    at += n
                }
            }
            initialized = total
        }
    }

    /// The features of every slot's text, worked out on all cores.
    static func features(of slots: [Slot], in texts: [UInt8]) -> [ScanFeatures] {
        Parallel.chunks(slots.count, minimum: 20_000) { range in
            texts.withUnsafeBufferPointer { text in range.map { slots[$0].features(in: text) } }
        }.flatMap { $0 }
    }

    /// Appends the entry's text and key to the buffers; returns its slot and the features of
    /// its text.
    static func makeSlot(_ e: Entry, texts: inout [UInt8], keys: inout [UInt8]) -> (Slot, ScanFeatures) {
        let textStart = texts.count, keyStart = keys.count
        texts.append(contentsOf: e.text)
        keys.append(contentsOf: e.key)
        let slot = Slot(
            rowid: e.rowid, createdAt: e.createdAt, updatedAt: e.updatedAt, textStart: textStart, keyStart: keyStart,
            textCount: Int32(e.text.count), keyCount: Int32(e.key.count), favorite: e.favorite)
        return (slot, texts.withUnsafeBufferPointer { slot.features(in: $0) })
    }

    /// Everything the index holds, made apart from it.
    struct Contents {
        var slots: [Slot] = []
        var features: [ScanFeatures] = []
        var textBuffer: [UInt8] = []
        var keyBuffer: [UInt8] = []
    }

    func install(_ c: Contents) {
        slots = c.slots
        features = c.features
        textBuffer = c.textBuffer
        keyBuffer = c.keyBuffer
        garbage = 0
        stretches = [0]
    }

    /// How many changes `apply` makes in place; beyond, it rebuilds the index.
    static let inPlaceLimit = 256

    /// The contents a large change gives (one `apply` would rebuild the index for), made while
    /// searches go on with the index as it is; `install` then swaps them in. The store makes
    /// them while its transaction commits, and installs them once it has. Nil for a change
    /// small enough to apply in place, or while the index is not loaded. The caller holds the
    /// store's write lock from here to `install`, so that nothing else changes the index.
    func prepare(upserts: [Entry], deletes: Set<Int64>) -> Contents? {
        guard upserts.count + deletes.count > Self.inPlaceLimit else { return nil }
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        guard isLoaded else { return nil }
        return rebuilt(upserts: Self.latest(upserts), deletes: deletes)
    }

    /// The last entry for each rowid, in their order. One write can change a contact twice
    /// (a file holding the same card twice: created, then updated), and hands over both.
    static func latest(_ upserts: [Entry]) -> [Entry] {
        // Rowids that only grow (new contacts, the usual import) cannot repeat.
        if zip(upserts, upserts.dropFirst()).allSatisfy({ $0.rowid < $1.rowid }) { return upserts }
        var seen = Set<Int64>(minimumCapacity: upserts.count)
        var kept: [Entry] = []
        kept.reserveCapacity(upserts.count)
        for e in upserts.reversed() where seen.insert(e.rowid).inserted { kept.append(e) }
        return kept.reversed()
    }

    /// The index's contents once the changes are made, made whole. (The caller holds the lock.)
    func rebuilt(upserts: [Entry], deletes: Set<Int64>) -> Contents {
        var read: [Slot] = []
        if !slots.isEmpty {
            let gone = deletes.union(upserts.map(\.rowid))
            read = slots.filter { !gone.contains($0.rowid) }
        }
        // The contacts that stay point into copies of the buffers; the new ones go after them.
        var texts = textBuffer, keys = keyBuffer
        read.reserveCapacity(read.count + upserts.count)
        texts.reserveCapacity(texts.count + upserts.reduce(0) { $0 + $1.text.count })
        keys.reserveCapacity(keys.count + upserts.reduce(0) { $0 + $1.key.count })
        for e in upserts {
            read.append(
                Slot(
                    rowid: e.rowid, createdAt: e.createdAt, updatedAt: e.updatedAt, textStart: texts.count, keyStart: keys.count,
                    textCount: Int32(e.text.count), keyCount: Int32(e.key.count), favorite: e.favorite))
            texts += e.text
            keys += e.key
        }
        return Self.ordered(read, texts: texts, keys: keys)
    }

    func install(prepared: Contents) {
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        if isLoaded { install(prepared) } else { changesWhileUnloaded += 1 }
    }

    func findStretches() {
        stretches = [0]
        for i in slots.indices.dropFirst() where slots[i].textStart != slots[i - 1].textEnd { stretches.append(i) }
    }

    /// The bytes the index holds: its slots, their features, and the buffers of texts and keys.
    var bytes: Int {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return slots.capacity * MemoryLayout<Slot>.stride + features.capacity * MemoryLayout<ScanFeatures>.stride
            + textBuffer.capacity + keyBuffer.capacity + stretches.capacity * MemoryLayout<Int>.stride
    }

    /// Every contact's rowid, in name order.
    func rowidsInNameOrder() -> [Int64] {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return slots.map(\.rowid)
    }

    /// Whether slot `i` sorts before the entry with `key` and `rowid`.
    func slot(_ i: Int, isBefore key: [UInt8], rowid: Int64) -> Bool {
        let slot = slots[i]
        return keyBuffer.withUnsafeBytes { k in
            key.withUnsafeBytes { y in
                Self.before(UnsafeRawBufferPointer(rebasing: k[slot.keyStart..<(slot.keyStart + Int(slot.keyCount))]), slot.rowid, y, rowid)
            }
        }
    }

    /// Forgets everything; the next search loads the index again.
    func reset() {
        pthread_rwlock_wrlock(&lock)
        slots = []
        features = []
        textBuffer = []
        keyBuffer = []
        garbage = 0
        stretches = [0]
        isLoaded = false
        pthread_rwlock_unlock(&lock)
    }

    /// Replaces or adds entries and removes the contacts of `deletes` (rowids), keeping name
    /// order.
    func apply(upserts: [Entry], deletes: Set<Int64>) {
        if upserts.isEmpty && deletes.isEmpty { return }
        let upserts = Self.latest(upserts)
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        guard isLoaded else {
            // Loaded later from the database as it is then (a load under way reads again).
            changesWhileUnloaded += 1
            return
        }
        if upserts.count + deletes.count > Self.inPlaceLimit {
            install(rebuilt(upserts: upserts, deletes: deletes))
            return
        }
        let gone = deletes.union(upserts.map(\.rowid))
        var kept = 0
        for i in slots.indices {
            if gone.contains(slots[i].rowid) {
                garbage += Int(slots[i].textCount) + Int(slots[i].keyCount)
            } else {
                slots[kept] = slots[i]
                features[kept] = features[i]
                kept += 1
            }
        }
        slots.removeLast(slots.count - kept)
        features.removeLast(features.count - kept)
        for e in upserts {
            var lo = 0
            var hi = slots.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if slot(mid, isBefore: e.key, rowid: e.rowid) { lo = mid + 1 } else { hi = mid }
            }
            let (slot, summary) = Self.makeSlot(e, texts: &textBuffer, keys: &keyBuffer)
            slots.insert(slot, at: lo)
            features.insert(summary, at: lo)
        }
        if garbage > 1 << 20 && garbage > (textBuffer.count + keyBuffer.count) / 2 {
            install(Self.ordered(slots, texts: textBuffer, keys: keyBuffer, alreadySorted: true))
        } else {
            findStretches()
        }
    }

    /// Gives contacts new search texts, their places in the order unchanged (their phones read
    /// as numbers): each new text goes to the buffer's end, and the buffer is compacted once
    /// the old ones are half of it.
    func replaceTexts(_ texts: [Int64: [UInt8]]) {
        if texts.isEmpty { return }
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        guard isLoaded else {
            changesWhileUnloaded += 1
            return
        }
        for i in slots.indices {
            guard let text = texts[slots[i].rowid] else { continue }
            garbage += Int(slots[i].textCount)
            slots[i].textStart = textBuffer.count
            slots[i].textCount = Int32(text.count)
            textBuffer.append(contentsOf: text)
            features[i] = textBuffer.withUnsafeBufferPointer { slots[i].features(in: $0) }
        }
        if garbage > 1 << 20 && garbage > (textBuffer.count + keyBuffer.count) / 2 {
            install(Self.ordered(slots, texts: textBuffer, keys: keyBuffer, alreadySorted: true))
        } else {
            findStretches()
        }
    }

    /// Below this many contacts one thread scans faster than several can be started.
    var parallelScanMinimum = 20_000

}

extension ScanSlot {
    var textEnd: Int { textStart + Int(textCount) }

    /// The features of the slot's text, which lies in `buffer`.
    func features(in buffer: UnsafeBufferPointer<UInt8>) -> ScanFeatures {
        var f = ScanFeatures()
        scan_features(buffer.baseAddress.map { $0 + textStart }, Int(textCount), &f)
        return f
    }
}
