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
        /// The sort key (at most `keyLimit` bytes): with the rowid after it, the order of
        /// `ORDER BY sort_key, rowid`.
        var key: [UInt8]
        var text: [UInt8]
        var favorite: Bool

        init(rowid: Int64, sortKey: String, text: String, favorite: Bool) {
            self.init(rowid: rowid, key: Self.key(sortKey: sortKey), text: Array(text.utf8), favorite: favorite)
        }

        /// A sort key as the index keeps it: its first `keyLimit` bytes. (Names that long
        /// are ordered by that much of them, then by when they were made.)
        static func key(sortKey: String) -> [UInt8] { Array(sortKey.utf8.prefix(SearchIndex.keyLimit)) }

        init(rowid: Int64, key: [UInt8], text: [UInt8], favorite: Bool) {
            self.rowid = rowid
            self.key = key
            self.text = text
            self.favorite = favorite
        }
    }

    /// The longest key a slot holds (its length is 16 bits).
    static let keyLimit = Int(UInt16.max)
    /// The largest buffer of texts or keys a slot can point into (its offsets are 32 bits):
    /// some 50 million contacts. (Lowered by tests only.)
    nonisolated(unsafe) static var bufferLimit = Int(UInt32.max)

    /// What the index keeps for each contact, without reference counting: its text and key
    /// live in two shared buffers, and most keys are the start of their contact's text. (A
    /// hundred thousand small arrays and strings would be scattered over the heap among
    /// whatever else was allocated meanwhile, and pin its pages long after an import freed
    /// everything around them.) The type is the scan kernel's, so the scan reads the slot
    /// array as it is.
    typealias Slot = ScanSlot

    var lock = pthread_rwlock_t()
    /// In name order.
    var slots: [Slot] = []
    /// What each slot's text holds, for the scan to pass over contacts that cannot match:
    /// `features[i]` belongs to `slots[i]`.
    var features: [ScanFeatures] = []
    var textBuffer: [UInt8] = []
    /// The sort keys that are not the start of their contact's text. (Not the id: 36 bytes
    /// a contact that a search can do without, the rowid standing in for it in the order and
    /// in the contact cache.)
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

    static let selectColumns = "rowid, sort_key, search, favorite"

    static func entry(_ s: Statement) -> Entry {
        Entry(rowid: s.int64(0), sortKey: s.text(1), text: s.text(2), favorite: s.int64(3) != 0)
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
            var slot = Slot(rowid: s.int64(0), favorite: s.int64(3) != 0)
            s.withBytes(2) { text in
                s.withBytes(1) { key in slot.place(text: text, key: UnsafeRawBufferPointer(rebasing: key.prefix(keyLimit)), &texts, &keys) }
            }
            guard texts.count <= bufferLimit && keys.count <= bufferLimit else { throw tooLarge }
            read.append(slot)
        }
        return ordered(read, texts: texts, keys: keys)
    }

    static var tooLarge: StoreError {
        .unavailable("the search index cannot hold this many contacts' text (over \(bufferLimit) bytes); searches are unavailable")
    }

    /// Slots pointing into `texts` and `keys` in any order made into the index's contents:
    /// put in name order (unless `alreadySorted`), with the buffers laid out again in that
    /// order (a scan then reads them front to back, and what no slot points at is left out)
    /// and the features worked out.
    static func ordered(_ read: [Slot], texts: [UInt8], keys: [UInt8], alreadySorted: Bool = false) -> Contents {
        var slots =
            alreadySorted
            ? read : texts.withUnsafeBytes { t in keys.withUnsafeBytes { k in Self.nameOrder(read, texts: t, keys: k) } }.map { read[$0] }
        var c = Contents()
        c.textBuffer = Self.gather(texts, &slots, start: \.textStart, count: { Int($0.textCount) })
        c.keyBuffer = Self.gather(keys, &slots, start: \.keyStart, count: { $0.keyInText ? 0 : Int($0.keyCount) })
        c.features = Self.features(of: slots, in: c.textBuffer)
        c.slots = slots
        return c
    }

    /// The pieces of `buffer` the slots point at (by `start` and `count`), one after another
    /// in the slots' order; the slots are changed to point into the result.
    static func gather(_ buffer: [UInt8], _ slots: inout [Slot], start: WritableKeyPath<Slot, UInt32>, count: (Slot) -> Int) -> [UInt8] {
        let total = slots.reduce(0) { $0 + count($1) }
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            buffer.withUnsafeBufferPointer { from in
                var at = 0
                for k in slots.indices {
                    let n = count(slots[k])
                    // n > 0 means both buffers hold bytes.
                    // swift-format-ignore: NeverForceUnwrap
                    if n > 0 { (out.baseAddress! + at).initialize(from: from.baseAddress! + Int(slots[k][keyPath: start]), count: n) }
                    slots[k][keyPath: start] = UInt32(at)
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
        let slot = Slot(e, texts: &texts, keys: &keys)
        return (slot, texts.withUnsafeBufferPointer { slot.features(in: $0) })
    }

    /// Everything the index holds, made apart from it.
    struct Contents {
        var slots: [Slot] = []
        var features: [ScanFeatures] = []
        var textBuffer: [UInt8] = []
        var keyBuffer: [UInt8] = []
        /// The change would take the buffers past `bufferLimit`: installed, it unloads the
        /// index, which the next search loads again (or refuses to, saying why).
        var tooLarge = false
    }

    func install(_ c: Contents) {
        if c.tooLarge { return unload() }
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
        for e in upserts { read.append(Slot(e, texts: &texts, keys: &keys)) }
        guard texts.count <= Self.bufferLimit && keys.count <= Self.bufferLimit else { return Contents(tooLarge: true) }
        return Self.ordered(read, texts: texts, keys: keys)
    }

    func install(prepared: Contents) {
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        if isLoaded { install(prepared) } else { changesWhileUnloaded += 1 }
    }

    func findStretches() {
        var stretches = [0]
        slots.withUnsafeBufferPointer { slots in
            for i in slots.indices.dropFirst() where Int(slots[i].textStart) != slots[i - 1].textEnd { stretches.append(i) }
        }
        self.stretches = stretches
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
        return textBuffer.withUnsafeBytes { t in
            keyBuffer.withUnsafeBytes { k in
                key.withUnsafeBytes { y in Self.before(slot.key(texts: t, keys: k), slot.rowid, y, rowid) }
            }
        }
    }

    /// Forgets everything; the next search loads the index again.
    func reset() {
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        unload()
    }

    /// `reset` with the write lock held.
    private func unload() {
        slots = []
        features = []
        textBuffer = []
        keyBuffer = []
        garbage = 0
        stretches = [0]
        isLoaded = false
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
        // Offsets past 32 bits: unloaded, and loaded again (or refused) by the next search.
        guard textBuffer.count + upserts.reduce(0, { $0 + $1.text.count }) <= Self.bufferLimit,
            keyBuffer.count + upserts.reduce(0, { $0 + $1.key.count }) <= Self.bufferLimit
        else { return unload() }
        let gone = deletes.union(upserts.map(\.rowid))
        // The slots before the first one going stay where they are; the smallest and largest
        // rowid going pass over most slots without hashing.
        let (low, high) = (gone.min() ?? 0, gone.max() ?? -1)
        func goes(_ rowid: Int64) -> Bool { rowid >= low && rowid <= high && gone.contains(rowid) }
        // Worked on as locals: a loop over a class's stored arrays pays an exclusivity check
        // at each element.
        var (slots, features) = (self.slots, self.features)
        (self.slots, self.features) = ([], [])
        var kept = slots.firstIndex { goes($0.rowid) } ?? slots.count
        for i in kept..<slots.count {
            if goes(slots[i].rowid) {
                garbage += Int(slots[i].textCount) + (slots[i].keyInText ? 0 : Int(slots[i].keyCount))
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
            textBuffer.withUnsafeBytes { t in
                keyBuffer.withUnsafeBytes { k in
                    e.key.withUnsafeBytes { y in
                        while lo < hi {
                            let mid = (lo + hi) / 2
                            if Self.before(slots[mid].key(texts: t, keys: k), slots[mid].rowid, y, e.rowid) {
                                lo = mid + 1
                            } else {
                                hi = mid
                            }
                        }
                    }
                }
            }
            let (slot, summary) = Self.makeSlot(e, texts: &textBuffer, keys: &keyBuffer)
            slots.insert(slot, at: lo)
            features.insert(summary, at: lo)
        }
        (self.slots, self.features) = (slots, features)
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
        guard textBuffer.count + keyBuffer.count + texts.values.reduce(0, { $0 + 2 * $1.count }) <= Self.bufferLimit else {
            return unload()
        }
        for i in slots.indices {
            guard let text = texts[slots[i].rowid] else { continue }
            garbage += Int(slots[i].textCount)
            if slots[i].keyInText {
                // The key stays where it is unless the new text starts with it too.
                let (start, count) = (Int(slots[i].textStart), Int(slots[i].keyCount))
                if count > text.count || !textBuffer[start..<(start + count)].elementsEqual(text[..<count]) {
                    slots[i].keyStart = UInt32(keyBuffer.count)
                    keyBuffer.append(contentsOf: textBuffer[start..<(start + count)])
                    slots[i].keyInText = false
                }
            }
            slots[i].textStart = UInt32(textBuffer.count)
            slots[i].textCount = UInt32(text.count)
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
    init(rowid: Int64, favorite: Bool) {
        self.init(rowid: rowid, textStart: 0, textCount: 0, keyStart: 0, keyCount: 0, keyInText: false, favorite: favorite)
    }

    /// The entry's slot, its text and key appended to the buffers (the key only when the text
    /// does not start with it).
    init(_ e: SearchIndex.Entry, texts: inout [UInt8], keys: inout [UInt8]) {
        self.init(rowid: e.rowid, favorite: e.favorite)
        e.text.withUnsafeBytes { t in e.key.withUnsafeBytes { k in place(text: t, key: k, &texts, &keys) } }
    }

    /// Appends `text` to `texts` and `key` (at most `keyLimit` bytes) to `keys`, unless the
    /// text starts with it, and points the slot at them.
    mutating func place(text: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, _ texts: inout [UInt8], _ keys: inout [UInt8]) {
        textStart = UInt32(truncatingIfNeeded: texts.count)
        textCount = UInt32(truncatingIfNeeded: text.count)
        keyCount = UInt16(key.count)
        texts.append(contentsOf: text)
        // Both hold bytes where memcmp is reached.
        // swift-format-ignore: NeverForceUnwrap
        keyInText = key.count <= text.count && (key.isEmpty || memcmp(key.baseAddress!, text.baseAddress!, key.count) == 0)
        if !keyInText {
            keyStart = UInt32(truncatingIfNeeded: keys.count)
            keys.append(contentsOf: key)
        }
    }

    /// The slot's key, in one of the two buffers.
    func key(texts: UnsafeRawBufferPointer, keys: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let (buffer, start) = keyInText ? (texts, Int(textStart)) : (keys, Int(keyStart))
        return UnsafeRawBufferPointer(rebasing: buffer[start..<(start + Int(keyCount))])
    }

    var textEnd: Int { Int(textStart) + Int(textCount) }

    /// The features of the slot's text, which lies in `buffer`.
    func features(in buffer: UnsafeBufferPointer<UInt8>) -> ScanFeatures {
        var f = ScanFeatures()
        scan_features(buffer.baseAddress.map { $0 + Int(textStart) }, Int(textCount), &f)
        return f
    }
}
