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
        var collected: Bool

        init(rowid: Int64, sortKey: String, text: String, favorite: Bool, collected: Bool = false) {
            self.init(rowid: rowid, key: Self.key(sortKey: sortKey), text: Array(text.utf8), favorite: favorite, collected: collected)
        }

        /// A sort key as the index keeps it: its first `keyLimit` bytes. (Names that long
        /// are ordered by that much of them, then by when they were made.)
        static func key(sortKey: String) -> [UInt8] { Array(sortKey.utf8.prefix(SearchIndex.keyLimit)) }

        init(rowid: Int64, key: [UInt8], text: [UInt8], favorite: Bool, collected: Bool = false) {
            self.rowid = rowid
            self.key = key
            self.text = text
            self.favorite = favorite
            self.collected = collected
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
    var isLoaded = false
    /// Whether any slot may be a collected contact's: while none is, a list that leaves them
    /// out is a slice of the order, as before there were any.
    var anyCollected = false
    /// Held through a load, so that loads never overlap; how many loads were made.
    let loading = Locked(0)

    init() { pthread_rwlock_init(&lock, nil) }

    deinit { pthread_rwlock_destroy(&lock) }

    static let selectColumns = "rowid, sort_key, search, favorite, collected"

    static func entry(_ s: Statement) -> Entry {
        Entry(rowid: s.int64(0), sortKey: s.text(1), text: s.text(2), favorite: s.int64(3) != 0, collected: s.int64(4) != 0)
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
        anyCollected = c.slots.contains { $0.collected }
    }

    /// Every contact's rowid, in name order.
    func rowidsInNameOrder() -> [Int64] { rowidsInNameOrder(taking: .included).rowids }

    /// The rowids of the contacts `collected` takes, in name order, and whether they are every
    /// contact there is (it leaves none out, or leaves out collected ones and there are none).
    func rowidsInNameOrder(taking collected: CollectedScope) -> (rowids: [Int64], everyone: Bool) {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        if collected == .included || (collected == .excluded && !anyCollected) { return (slots.map(\.rowid), true) }
        return (slots.compactMap { collected.admits($0.collected) ? $0.rowid : nil }, false)
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
    func unload() {
        slots = []
        features = []
        textBuffer = []
        keyBuffer = []
        garbage = 0
        stretches = [0]
        isLoaded = false
    }

    /// Below this many contacts one thread scans faster than several can be started.
    var parallelScanMinimum = 20_000
    /// Changes that came while the index was not loaded (and so were not applied).
    var changesWhileUnloaded = 0
    /// Called between reading the table and installing what was read (tests only).
    nonisolated(unsafe) var afterReadForTesting: (() -> Void)?

}
