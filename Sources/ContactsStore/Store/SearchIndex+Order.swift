import ContactsSupport
import Dispatch
import Glibc

/// The name order of the index: keys compared as SQLite compares them, sorted on two cores.
extension SearchIndex {
    /// The positions of `slots` in the order of their keys (`less`). Most comparisons are
    /// settled by the keys' first eight bytes, compared as one number. A large index sorts
    /// its halves on two cores and merges them.
    static func nameOrder(_ slots: [Slot], keys: UnsafeRawBufferPointer) -> [Int] {
        var items = slots.indices.map { i -> OrderItem in
            let slot = slots[i]
            var p: UInt64 = 0
            for k in 0..<min(8, Int(slot.keyCount)) { p |= UInt64(keys[slot.keyStart + k]) << (56 - 8 * k) }
            return OrderItem(prefix: p, start: slot.keyStart, count: Int(slot.keyCount), rowid: slot.rowid, index: i)
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
        var rowid: Int64
        var index: Int

        @inline(__always)
        func before(_ other: OrderItem, _ keys: UnsafeRawBufferPointer) -> Bool {
            if prefix != other.prefix { return prefix < other.prefix }
            // Every key holds a NUL separator, so the buffer of keys is not empty.
            // swift-format-ignore: NeverForceUnwrap
            return SearchIndex.before(
                UnsafeRawBufferPointer(start: keys.baseAddress! + start, count: count), rowid,
                UnsafeRawBufferPointer(start: keys.baseAddress! + other.start, count: other.count), other.rowid)
        }
    }

    enum Order {
        case name(ascending: Bool)
        case created(ascending: Bool)
        case updated(ascending: Bool)
    }

    /// The order of slots: their keys' bytes, the shorter first (SQLite's BINARY collation),
    /// then their rowids. Keys always hold a NUL separator, so neither is empty.
    static func before(_ x: UnsafeRawBufferPointer, _ xRowid: Int64, _ y: UnsafeRawBufferPointer, _ yRowid: Int64) -> Bool {
        // Neither key is empty (see above).
        // swift-format-ignore: NeverForceUnwrap
        let r = memcmp(x.baseAddress!, y.baseAddress!, min(x.count, y.count))
        if r != 0 { return r < 0 }
        return x.count != y.count ? x.count < y.count : xRowid < yRowid
    }
}

/// Values handed to threads that each use their own part of them: the caller answers for that.
private struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
