import ContactsSupport
import Dispatch
import Glibc

/// The name order of the index: keys compared as SQLite compares them, sorted on two cores.
extension SearchIndex {
    /// The positions of `slots` in the order of their keys (`less`), which lie in `texts` or
    /// `keys`. Most comparisons are settled by the keys' first eight bytes, compared as one
    /// number. A large index sorts its halves on two cores and merges them.
    static func nameOrder(_ slots: [Slot], texts: UnsafeRawBufferPointer, keys: UnsafeRawBufferPointer) -> [Int] {
        var items = slots.indices.map { i -> OrderItem in
            let slot = slots[i]
            let key = slot.key(texts: texts, keys: keys)
            var p: UInt64 = 0
            for k in 0..<min(8, key.count) { p |= UInt64(key[k]) << (56 - 8 * k) }
            return OrderItem(prefix: p, key: key.baseAddress, count: key.count, rowid: slot.rowid, index: i)
        }
        guard items.count >= 50_000 else { return items.sorted { $0.before($1) }.map(\.index) }
        let middle = items.count / 2
        items.withUnsafeMutableBufferPointer { all in
            // Each half is sorted in place by a thread of its own.
            let shared = Unchecked(all)
            WorkerPool.shared.perform(iterations: 2) { half in
                let all = shared.value
                var part = UnsafeMutableBufferPointer(rebasing: half == 0 ? all[..<middle] : all[middle...])
                part.sort { $0.before($1) }
            }
        }
        var order: [Int] = []
        order.reserveCapacity(items.count)
        var a = 0, b = middle
        while a < middle && b < items.count {
            if items[b].before(items[a]) {
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
        /// Nil for an empty key.
        var key: UnsafeRawPointer?
        var count: Int
        var rowid: Int64
        var index: Int

        @inline(__always)
        func before(_ other: OrderItem) -> Bool {
            if prefix != other.prefix { return prefix < other.prefix }
            return SearchIndex.before(
                UnsafeRawBufferPointer(start: key, count: count), rowid, UnsafeRawBufferPointer(start: other.key, count: other.count),
                other.rowid)
        }
    }

    /// The order of slots: their keys' bytes, the shorter first (SQLite's BINARY collation),
    /// then their rowids.
    static func before(_ x: UnsafeRawBufferPointer, _ xRowid: Int64, _ y: UnsafeRawBufferPointer, _ yRowid: Int64) -> Bool {
        let common = min(x.count, y.count)
        if common > 0 {
            // Both hold bytes.
            // swift-format-ignore: NeverForceUnwrap
            let r = memcmp(x.baseAddress!, y.baseAddress!, common)
            if r != 0 { return r < 0 }
        }
        return x.count != y.count ? x.count < y.count : xRowid < yRowid
    }
}

/// Values handed to threads that each use their own part of them: the caller answers for that.
private struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
