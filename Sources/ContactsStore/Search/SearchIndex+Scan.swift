import ContactsSupport
import Glibc
import ScanKernel

/// A search: the scan of every slot's text for the query's needles, on all cores, and the
/// page of matches in name order. (Other orders are the store's: `ContactStore+TimeOrder.swift`.)
extension SearchIndex {
    /// One page of matches (their rowids) in name order, and how many match in all.
    func search(
        patterns: [[UInt8]], favoritesOnly: Bool, members: Set<Int64>?, collected: CollectedScope = .excluded, ascending: Bool,
        offset: Int, limit: Int?
    ) -> (total: Int, rowids: [Int64]) {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        // A page is the first (or last) `offset + limit` matches: each part of the scan keeps
        // only that many of its own and counts the rest.
        var keep: Scan.Keep = .all
        if let limit {
            let wanted = offset.addingReportingOverflow(limit)
            if !wanted.overflow { keep = ascending ? .first(wanted.partialValue) : .last(wanted.partialValue) }
        }
        let parts = scan(patterns: patterns, favoritesOnly: favoritesOnly, members: members, collected: collected, keep: keep)
        let total = parts.reduce(0) { $0 + $1.count }
        guard offset < total else { return (total, []) }
        // Each part kept its first matches, or its last ones in order: a page that counts back
        // from the end takes them the other way round.
        let matches = ascending ? parts.flatMap(\.kept) : parts.reversed().flatMap { $0.kept.reversed() }
        let end = min(matches.count, limit.map { offset + $0 } ?? matches.count)
        guard offset < end else { return (total, []) }
        return (total, matches[offset..<end].map { slots[$0].rowid })
    }

    /// Every match in name order, and whether a needle starts its text's line or a word of it
    /// (a name's, an address's), which is what someone typing the start of a name means.
    func matchesWithStarts(patterns: [[UInt8]], collected: CollectedScope) -> [(rowid: Int64, atStart: Bool, collected: Bool)] {
        pthread_rwlock_rdlock(&lock)
        defer { pthread_rwlock_unlock(&lock) }
        let needles = patterns.filter { !$0.isEmpty }
        let parts = scan(patterns: needles, favoritesOnly: false, members: nil, collected: collected, keep: .all)
        return textBuffer.withUnsafeBytes { t in
            parts.flatMap(\.kept).map { i in
                let slot = slots[i]
                let text = UnsafeRawBufferPointer(rebasing: t[Int(slot.textStart)..<slot.textEnd])
                return (slot.rowid, needles.contains { n in n.withUnsafeBytes { Self.startsWord(text, $0) } }, slot.collected)
            }
        }
    }

    /// Whether `needle` occurs in `text` at the start of a line or after a space.
    static func startsWord(_ text: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard let t = text.baseAddress, let n = needle.baseAddress, !needle.isEmpty, needle.count <= text.count else { return false }
        var at = 0
        while at + needle.count <= text.count {
            if at == 0 || text[at - 1] == 0x0A || text[at - 1] == 0x20, memcmp(t + at, n, needle.count) == 0 { return true }
            at += 1
        }
        return false
    }

    /// The scan's parts, in order, each with the slots it kept. (The caller holds the lock.)
    private func scan(patterns: [[UInt8]], favoritesOnly: Bool, members: Set<Int64>?, collected: CollectedScope, keep: Scan.Keep)
        -> [Scan.Part]
    {
        var parts: [Scan.Part] = []
        textBuffer.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            slots.withUnsafeBufferPointer { slots in
                features.withUnsafeBufferPointer { features in
                    let scan = Scan(
                        text: base, textLength: buffer.count, slots: slots, features: features, stretches: stretches,
                        needles: patterns.filter { !$0.isEmpty }.map(Needle.init), favoritesOnly: favoritesOnly, members: members,
                        collected: anyCollected || collected == .only ? collected : .included, keep: keep)
                    // A large index is scanned in parts on all cores; the parts come back in order.
                    parts = Parallel.chunks(slots.count, minimum: parallelScanMinimum) { scan.run($0) }
                }
            }
        }
        return parts
    }

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
        let collected: CollectedScope

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
            let filtered = favoritesOnly || members != nil || collected != .included
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
            if !collected.admits(s.collected) { return false }
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
}
