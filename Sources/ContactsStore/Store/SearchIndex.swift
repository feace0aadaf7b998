import ContactsCore
import ContactsSupport
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
            self.init(
                rowid: rowid, key: Self.key(sortKey: sortKey, name: name, id: id), text: Array(text.utf8), favorite: favorite,
                createdAt: createdAt, updatedAt: updatedAt)
        }

        static func key(sortKey: String, name: String, id: String) -> [UInt8] {
            var k: [UInt8] = []
            k.reserveCapacity(sortKey.utf8.count + name.utf8.count + id.utf8.count + 2)
            k.append(contentsOf: sortKey.utf8)
            k.append(0)
            k.append(contentsOf: name.utf8)
            k.append(0)
            k.append(contentsOf: id.utf8)
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

    private var lock = pthread_rwlock_t()
    /// In name order.
    private var slots: [Slot] = []
    /// What each slot's text holds, for the scan to pass over contacts that cannot match:
    /// `features[i]` belongs to `slots[i]`.
    private var features: [ScanFeatures] = []
    private var textBuffer: [UInt8] = []
    /// `sort_key NUL name NUL id` of each slot: the id is what follows the last NUL.
    private var keyBuffer: [UInt8] = []
    /// Bytes of the buffers that no slot refers to any more.
    private var garbage = 0
    /// Where each stretch of slots whose texts follow one another in the buffer begins: one
    /// after a load or rebuild; an insert starts new ones. A needle that most contacts could
    /// hold is looked for over a whole stretch in one pass.
    private var stretches: [Int] = [0]
    private(set) var isLoaded = false
    private let loading = NSLock()

    init() { pthread_rwlock_init(&lock, nil) }

    deinit { pthread_rwlock_destroy(&lock) }

    static let selectColumns = "rowid, id, sort_key, name, search, favorite, created_at, updated_at"

    static func entry(_ s: Statement) -> Entry {
        Entry(
            rowid: s.int64(0), id: s.text(1), sortKey: s.text(2), name: s.text(3), text: s.text(4), favorite: s.int64(5) != 0,
            createdAt: s.int64(6), updatedAt: s.int64(7))
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
    private var changesWhileUnloaded = 0
    /// Called between reading the table and installing what was read (tests only).
    nonisolated(unsafe) var afterReadForTesting: (() -> Void)?

    /// Every contact, read in the table's order (one pass over it, with no index to follow)
    /// straight into the buffers, then put in name order.
    private static func load(_ db: Database) throws -> Contents {
        let s = try db.prepare("SELECT \(Self.selectColumns) FROM contacts")
        var read: [Slot] = [], texts: [UInt8] = [], keys: [UInt8] = []
        while try s.step() {
            let textStart = texts.count, keyStart = keys.count
            s.withBytes(4) { texts.append(contentsOf: $0) }
            s.withBytes(2) { keys.append(contentsOf: $0) }
            keys.append(0)
            s.withBytes(3) { keys.append(contentsOf: $0) }
            keys.append(0)
            s.withBytes(1) { keys.append(contentsOf: $0) }
            read.append(
                Slot(
                    rowid: s.int64(0), createdAt: s.int64(6), updatedAt: s.int64(7), textStart: textStart, keyStart: keyStart,
                    textCount: Int32(texts.count - textStart), keyCount: Int32(keys.count - keyStart), favorite: s.int64(5) != 0))
        }
        return ordered(read, texts: texts, keys: keys)
    }

    /// Slots pointing into `texts` and `keys` in any order made into the index's contents:
    /// put in name order (unless `alreadySorted`), with the buffers laid out again in that
    /// order (a scan then reads them front to back, and what no slot points at is left out)
    /// and the features worked out.
    private static func ordered(_ read: [Slot], texts: [UInt8], keys: [UInt8], alreadySorted: Bool = false) -> Contents {
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
    private static func gather(_ buffer: [UInt8], _ slots: inout [Slot], start: WritableKeyPath<Slot, Int>, count: KeyPath<Slot, Int32>)
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
    private static func features(of slots: [Slot], in texts: [UInt8]) -> [ScanFeatures] {
        Parallel.chunks(slots.count, minimum: 20_000) { range in
            texts.withUnsafeBufferPointer { text in range.map { slots[$0].features(in: text) } }
        }.flatMap { $0 }
    }

    /// The positions of `slots` in the order of their keys (`less`). Most comparisons are
    /// settled by the keys' first eight bytes, compared as one number. A large index sorts
    /// its halves on two cores and merges them.
    static func nameOrder(_ slots: [Slot], keys: UnsafeRawBufferPointer) -> [Int] {
        var items = slots.indices.map { i -> OrderItem in
            let slot = slots[i]
            var p: UInt64 = 0
            for k in 0..<min(8, Int(slot.keyCount)) { p |= UInt64(keys[slot.keyStart + k]) << (56 - 8 * k) }
            return OrderItem(prefix: p, start: slot.keyStart, count: Int(slot.keyCount), index: i)
        }
        guard items.count >= 50_000 else { return items.sorted { $0.before($1, keys) }.map(\.index) }
        let middle = items.count / 2
        items.withUnsafeMutableBufferPointer { all in
            // Each half is sorted in place by a thread of its own.
            let shared = Unchecked((all, keys))
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                let (all, keys) = shared.value
                var part = UnsafeMutableBufferPointer(rebasing: half == 0 ? all[..<middle] : all[middle...])
                part.sort { $0.before($1, keys) }
            }
        }
        var order: [Int] = []
        order.reserveCapacity(items.count)
        var a = 0, b = middle
        while a < middle && b < items.count {
            if items[b].before(items[a], keys) {
                order.append(items[b].index)
                b += 1
            } else {
                order.append(items[a].index)
                a += 1
            }
        }
        order += items[a..<middle].map(\.index)
        order += items[b...].map(\.index)
        return order
    }

    /// A key to sort by: where it lies and its first eight bytes as one number.
    struct OrderItem {
        var prefix: UInt64
        var start: Int
        var count: Int
        var index: Int

        @inline(__always)
        func before(_ other: OrderItem, _ keys: UnsafeRawBufferPointer) -> Bool {
            if prefix != other.prefix { return prefix < other.prefix }
            // Every key holds two NUL separators, so the buffer of keys is not empty.
            // swift-format-ignore: NeverForceUnwrap
            return SearchIndex.less(
                UnsafeRawBufferPointer(start: keys.baseAddress! + start, count: count),
                UnsafeRawBufferPointer(start: keys.baseAddress! + other.start, count: other.count))
        }
    }

    /// Appends the entry's text and key to the buffers; returns its slot and the features of
    /// its text.
    private static func makeSlot(_ e: Entry, texts: inout [UInt8], keys: inout [UInt8]) -> (Slot, ScanFeatures) {
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
        fileprivate var slots: [Slot] = []
        fileprivate var features: [ScanFeatures] = []
        fileprivate var textBuffer: [UInt8] = []
        fileprivate var keyBuffer: [UInt8] = []
    }

    private func install(_ c: Contents) {
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
    private func rebuilt(upserts: [Entry], deletes: Set<Int64>) -> Contents {
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

    private func findStretches() {
        stretches = [0]
        for i in slots.indices.dropFirst() where slots[i].textStart != slots[i - 1].textEnd { stretches.append(i) }
    }

    /// Every contact's rowid, in name order.
    func rowidsInNameOrder() -> [Int64] {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        return slots.map(\.rowid)
    }

    /// The contact id of slot `i`: what follows the last NUL of its key.
    private func id(ofSlot i: Int) -> String {
        let slot = slots[i]
        let key = keyBuffer[slot.keyStart..<(slot.keyStart + Int(slot.keyCount))]
        let start = key.lastIndex(of: 0).map { $0 + 1 } ?? key.startIndex
        return String(decoding: key[start...], as: UTF8.self)
    }

    /// Whether slot `i`'s key sorts before `key`.
    private func slotKey(_ i: Int, isLessThan key: [UInt8]) -> Bool {
        let slot = slots[i]
        return keyBuffer.withUnsafeBytes { k in
            key.withUnsafeBytes { y in
                Self.less(UnsafeRawBufferPointer(rebasing: k[slot.keyStart..<(slot.keyStart + Int(slot.keyCount))]), y)
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
                if slotKey(mid, isLessThan: e.key) { lo = mid + 1 } else { hi = mid }
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

    enum Order {
        case name(ascending: Bool)
        case created(ascending: Bool)
        case updated(ascending: Bool)
    }

    /// One page of matches (rowids and ids), and how many match in all.
    func search(patterns: [[UInt8]], favoritesOnly: Bool, members: Set<Int64>?, order: Order, offset: Int, limit: Int?) -> (
        total: Int, rowids: [Int64], ids: [String]
    ) {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        // In name order a page is the first (or last) `offset + limit` matches: each part of
        // the scan keeps only that many of its own and counts the rest.
        var keep: Scan.Keep = .all
        if let limit, case .name(let ascending) = order {
            let wanted = offset.addingReportingOverflow(limit)
            if !wanted.overflow { keep = ascending ? .first(wanted.partialValue) : .last(wanted.partialValue) }
        }
        var parts: [Scan.Part] = []
        textBuffer.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            slots.withUnsafeBufferPointer { slots in
                features.withUnsafeBufferPointer { features in
                    let scan = Scan(
                        text: base, textLength: buffer.count, slots: slots, features: features, stretches: stretches,
                        needles: patterns.filter { !$0.isEmpty }.map(Needle.init), favoritesOnly: favoritesOnly, members: members,
                        keep: keep)
                    // A large index is scanned in parts on all cores; the parts come back in order.
                    parts = Parallel.chunks(slots.count, minimum: parallelScanMinimum) { scan.run($0) }
                }
            }
        }
        let total = parts.reduce(0) { $0 + $1.count }
        guard offset < total else { return (total, [], []) }
        var matches: [Int]
        switch order {
        case .name(let ascending):
            if ascending {
                matches = parts.flatMap(\.kept)
            } else {
                // Each part kept its last matches, in order: the page counts back from the end.
                matches = parts.reversed().flatMap { $0.kept.reversed() }
            }
        case .created(let ascending):
            matches = parts.flatMap(\.kept)
            matches.sort { a, b in
                let x = slots[a].createdAt, y = slots[b].createdAt
                return x == y ? a < b : (ascending ? x < y : x > y)
            }
        case .updated(let ascending):
            matches = parts.flatMap(\.kept)
            matches.sort { a, b in
                let x = slots[a].updatedAt, y = slots[b].updatedAt
                return x == y ? a < b : (ascending ? x < y : x > y)
            }
        }
        let end = min(matches.count, limit.map { offset + $0 } ?? matches.count)
        guard offset < end else { return (total, [], []) }
        let page = matches[offset..<end]
        return (total, page.map { slots[$0].rowid }, page.map(id(ofSlot:)))
    }

    /// Below this many contacts one thread scans faster than several can be started.
    var parallelScanMinimum = 20_000

    /// One search's view of the index. The caller holds the read lock for as long as any
    /// part of the scan runs, so the pointers stay valid and unchanged.
    private struct Scan: @unchecked Sendable {
        let text: UnsafeRawPointer
        let textLength: Int
        let slots: UnsafeBufferPointer<Slot>
        let features: UnsafeBufferPointer<ScanFeatures>
        let stretches: [Int]
        let needles: [Needle]
        let favoritesOnly: Bool
        let members: Set<Int64>?

        /// Which matches a part keeps.
        enum Keep {
            case all
            case first(Int)
            case last(Int)
        }
        let keep: Keep

        /// What a part of the scan found: how many slots match, and those it kept, in order.
        struct Part {
            var count = 0
            var kept: [Int] = []
        }

        /// The matching slots of `range`.
        func run(_ range: Range<Int>) -> Part {
            let filtered = favoritesOnly || members != nil
            if needles.isEmpty {
                guard filtered else {
                    // Every slot matches: the page is a slice of the range.
                    switch keep {
                    case .all: return Part(count: range.count, kept: Array(range))
                    case .first(let n): return Part(count: range.count, kept: Array(range.prefix(n)))
                    case .last(let n): return Part(count: range.count, kept: Array(range.suffix(n)))
                    }
                }
                return collect(range) { passes(slots[$0]) }
            }
            var marks = [UInt8](repeating: 0, count: range.count)
            marks.withUnsafeMutableBufferPointer { marks in
                // The stretches that overlap the range, each cut to it.
                var k = max(0, (stretches.firstIndex { $0 > range.lowerBound } ?? stretches.count) - 1)
                while k < stretches.count && stretches[k] < range.upperBound {
                    let start = max(stretches[k], range.lowerBound)
                    let end = min(k + 1 < stretches.count ? stretches[k + 1] : slots.count, range.upperBound)
                    for n in needles {
                        n.bytes.withUnsafeBufferPointer { needle in
                            // The slots, features and marks hold an entry for every position of `range`, which is not empty here.
                            // swift-format-ignore: NeverForceUnwrap
                            scan_mark(
                                text.assumingMemoryBound(to: UInt8.self), textLength, slots.baseAddress! + start,
                                features.baseAddress! + start, end - start, needle.baseAddress, needle.count, n.pair, true,
                                marks.baseAddress! + (start - range.lowerBound))
                        }
                    }
                    k += 1
                }
            }
            return marks.withUnsafeBufferPointer { marks in
                collect(range) { marks[$0 - range.lowerBound] != 0 && (!filtered || passes(slots[$0])) }
            }
        }

        /// Counts the slots of `range` that match and keeps those `keep` asks for, in order.
        private func collect(_ range: Range<Int>, _ matches: (Int) -> Bool) -> Part {
            var part = Part()
            switch keep {
            case .all:
                for i in range where matches(i) { part.kept.append(i) }
                part.count = part.kept.count
            case .first(let n):
                for i in range where matches(i) {
                    part.count += 1
                    if part.kept.count < n { part.kept.append(i) }
                }
            case .last(let n):
                // The last n are the first n met going backwards.
                for i in range.reversed() where matches(i) {
                    part.count += 1
                    if part.kept.count < n { part.kept.append(i) }
                }
                part.kept.reverse()
            }
            return part
        }

        func passes(_ s: Slot) -> Bool {
            if favoritesOnly && !s.favorite { return false }
            if let members, !members.contains(s.rowid) { return false }
            return true
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
            func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
            func pairCommonness(_ i: Int) -> Int {
                let both = Needle.commonness(bytes[i]) * Needle.commonness(bytes[i + 1])
                // Digits stand together (phone numbers) and apart from letters and spaces: a
                // digit beside anything else is rare in contact text.
                return isDigit(bytes[i]) == isDigit(bytes[i + 1]) ? both : both / 10
            }
            // Of equally rare pairs the last: the start of a number (a country or area code) is
            // what many contacts share.
            for i in 0..<max(0, bytes.count - 1) where pairCommonness(i) <= pairCommonness(bestPair) { bestPair = i }
            pair = bestPair
        }

        /// How often a byte turns up in folded contact text (names, addresses, digits), roughly:
        /// English and European letter frequencies, digits and separators.
        static func commonness(_ b: UInt8) -> Int {
            switch b {
            case UInt8(ascii: "e"), UInt8(ascii: "a"), UInt8(ascii: " "), UInt8(ascii: "."): return 100
            case UInt8(ascii: "o"), UInt8(ascii: "i"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "m"), UInt8(ascii: "l"): return 80
            // Digits: every contact has phone numbers, ten or more digits each.
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return 90
            case UInt8(ascii: "s"), UInt8(ascii: "t"), UInt8(ascii: "c"), UInt8(ascii: "x"): return 70
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
        // Neither key is empty (see above).
        // swift-format-ignore: NeverForceUnwrap
        let r = memcmp(x.baseAddress!, y.baseAddress!, min(x.count, y.count))
        return r == 0 ? x.count < y.count : r < 0
    }
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

/// Values handed to threads that each use their own part of them: the caller answers for that.
private struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
