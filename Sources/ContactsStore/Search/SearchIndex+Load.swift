import ContactsCore
import ContactsSupport
import Foundation
import Glibc
import ScanKernel

/// Loading the index: every contact read once, in name order, into the buffers a scan reads.
extension SearchIndex {
    /// Loads every contact, unless already loaded. Loads never overlap: a caller arriving
    /// during one waits for it. A write that commits while the table is read (its changes
    /// come here, to an index not loaded yet, and are dropped) makes the load read it again:
    /// otherwise its contacts would be missing from searches until the next start.
    func loadIfNeeded(_ db: Database) throws {
        try loading.withLock { loads in
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
                    loads += 1
                    return
                }
            }
        }
    }

    /// Every contact, read in the table's order (one pass over it, with no index to follow)
    /// straight into the buffers, then put in name order.
    static func load(_ db: Database) throws -> Contents {
        let s = try db.prepare("SELECT \(Self.selectColumns) FROM contacts")
        var read: [Slot] = [], texts: [UInt8] = [], keys: [UInt8] = []
        while try s.step() {
            var slot = Slot(rowid: s.int64(0), favorite: s.int64(3) != 0, collected: s.int64(4) != 0)
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
}
