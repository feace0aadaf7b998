import ContactsCore
import ContactsSupport
import Foundation
import Glibc
import ScanKernel

/// Changing the index after a commit: small changes in place, large ones rebuilt apart and swapped in.
extension SearchIndex {
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

    /// Replaces or adds entries and removes the contacts of `deletes` (rowids), keeping name
    /// order.
    func apply(upserts: [Entry], deletes: Set<Int64>) {
        if upserts.isEmpty && deletes.isEmpty { return }
        let upserts = Self.latest(upserts)
        pthread_rwlock_wrlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        if upserts.contains(where: \.collected) { anyCollected = true }
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
}
