import ContactsSupport
import PhoneNumbers

/// Contacts that are likely one person, in groups, with how likely and why.
public struct DuplicateGroup: Sendable, Equatable {
    /// Ids, in the order the candidates came.
    public var ids: [String]
    /// The places of those candidates in the list the finder was given, in the same order.
    public var members: [Int]
    /// 0 to 1: the highest score of a pair in the group, two decimals.
    public var score: Double
    /// What the contacts share: `email anna@example.com`, `phone +491715550199`, `name`,
    /// `similar name`.
    public var reasons: [String]
}

/// Finds duplicates by blocking keys, not by comparing every pair: each email, phone number
/// and name key (and each one-edit neighbour of a long name) puts the contacts that have it
/// in one block, and only pairs within a block are scored. A key that more than
/// `blockLimit` contacts share (a company's switchboard, a shared inbox) tells nobody apart
/// and is not followed.
///
/// A pair's score unites its evidence, 1 − Π(1 − weight): a shared email 0.8, a shared phone
/// number 0.5, the same name 0.6 when it is rare in the book, less the commoner it is
/// (`NameCommonness`), a name one edit apart 0.4. Evidence against lowers it: both have
/// emails and share none, both have phones and share none, or their names differ (×0.75
/// each). So two "Maria Garcia" with other emails and phones score 0.34 at most, a family
/// sharing a landline 0.38, and two contacts who share a common name and nothing else next
/// to nothing: shown only when asked for with a lower `minScore`.
///
/// A block whose evidence alone cannot reach `minScore` (a common name, a name one edit
/// away) is not paired: a pair it would add scores enough only with evidence of another
/// kind, whose own block pairs it.
public enum DuplicateFinder {
    public static let defaultMinScore = 0.5
    public static let blockLimit = 50

    enum Weight {
        static let email = 0.8
        static let phone = 0.5
        static let name = 0.6
        static let closeName = 0.4
        static let against = 0.75
    }

    /// The groups among `candidates` whose pairs score at least `minScore`, best first (then
    /// by the first contact's place); pairs in `dismissed` (ids, either order) are not joined.
    public static func groups(
        _ candidates: [DuplicateCandidate], minScore: Double = defaultMinScore, dismissed: Set<IDPair> = [], limit: Int? = nil
    ) -> [DuplicateGroup] {
        let names = NameCommonness(candidates)
        let (pairs, common) = candidatePairs(candidates, names: names, minScore: minScore)
        // Scored on every core; joined in one pass.
        let scored = Parallel.chunks(pairs.count, minimum: 4096) { r in
            pairs[r].compactMap { p -> (Int32, Int32, Double, [String])? in
                let (i, j) = (Int(p >> 32), Int(p & 0xFFFF_FFFF))
                let a = candidates[i], b = candidates[j]
                guard dismissed.isEmpty || !dismissed.contains(IDPair(a.id, b.id)) else { return nil }
                let (score, reasons) = self.score(a, b, ignoring: common) { k in names.weight(i, key: k, full: Weight.name) }
                return score >= minScore ? (Int32(p >> 32), Int32(p & 0xFFFF_FFFF), score, reasons) : nil
            }
        }.flatMap { $0 }
        var sets = UnionFind(count: candidates.count)
        for (a, b, _, _) in scored { sets.union(Int(a), Int(b)) }
        var byRoot: [Int: (members: Set<Int>, score: Double, reasons: [String])] = [:]
        for (a, b, score, reasons) in scored {
            let root = sets.find(Int(a))
            var g = byRoot[root] ?? ([], 0, [])
            g.members.insert(Int(a))
            g.members.insert(Int(b))
            g.score = max(g.score, score)
            for r in reasons where !g.reasons.contains(r) { g.reasons.append(r) }
            byRoot[root] = g
        }
        var out = byRoot.values.map { g in
            let members = g.members.sorted()
            return (
                first: members.first ?? 0,
                DuplicateGroup(
                    ids: members.map { candidates[$0].id }, members: members, score: (g.score * 100).rounded() / 100,
                    reasons: g.reasons)
            )
        }
        out.sort { $0.1.score != $1.1.score ? $0.1.score > $1.1.score : $0.first < $1.first }
        let groups = out.map(\.1)
        return limit.map { Array(groups.prefix($0)) } ?? groups
    }

    /// A pair's score and what it rests on.
    /// Keys in `common` (shared by too many to tell anyone apart) are no evidence either way.
    /// `nameWeight` gives the weight of a's name key k.
    static func score(
        _ a: DuplicateCandidate, _ b: DuplicateCandidate, ignoring common: Set<Int> = [], nameWeight: (Int) -> Double = { _ in Weight.name }
    ) -> (Double, [String]) {
        var reasons: [String] = []
        var against = 1.0
        var unlikely = 1.0
        let emails = a.emails.filter { b.emails.contains($0) && !common.contains(Entry.block(of: hash(Kind.email, $0))) }.sorted()
        for e in emails {
            reasons.append("email \(e)")
            unlikely *= 1 - Weight.email
        }
        if !a.emails.isEmpty && !b.emails.isEmpty && !a.emails.contains(where: b.emails.contains) { against *= Weight.against }
        // A messaging address is a person's as much as an email is.
        for m in a.messaging.filter({ b.messaging.contains($0) && !common.contains(Entry.block(of: hash(Kind.messaging, $0))) }).sorted() {
            reasons.append("im \(m)")
            unlikely *= 1 - Weight.email
        }
        let shared = a.phones.filter { p in b.phones.contains { DuplicateCandidate.samePhone(p, $0) } }
        for p in shared.filter({ !common.contains(Entry.block(of: phoneHash($0))) }).sorted() {
            reasons.append("phone \(p)")
            unlikely *= 1 - Weight.phone
        }
        if !a.phones.isEmpty && !b.phones.isEmpty && shared.isEmpty { against *= Weight.against }
        if let k = a.nameKeys.firstIndex(where: { b.nameKeys.contains($0) && !common.contains(Entry.block(of: hash(Kind.name, $0))) }) {
            reasons.append("name")
            unlikely *= 1 - nameWeight(k)
        } else if closeNames(a.fullName, b.fullName) {
            reasons.append("similar name")
            unlikely *= 1 - Weight.closeName
        } else {
            against *= Weight.against
        }
        return ((1 - unlikely) * against, reasons)
    }

    static func closeNames(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        return NameKey.letters(x) >= NameKey.closeMinimum && NameKey.letters(y) >= NameKey.closeMinimum && NameKey.withinOneEdit(x, y)
    }

    enum Kind {
        static let email = 1
        static let phone = 2
        static let name = 3
        static let closeName = 4
        static let messaging = 5
    }

    /// Every pair of candidates that share a block whose evidence could reach `minScore`,
    /// once each, as `first << 32 | second` (first < second); and the hashes of the keys too
    /// many share (`blockLimit`).
    static func candidatePairs(_ candidates: [DuplicateCandidate], names: NameCommonness? = nil, minScore: Double = 0) -> (
        pairs: [UInt64], common: Set<Int>
    ) {
        precondition(candidates.count <= Entry.indexMask, "more candidates than an entry can number")
        // Each key of each candidate as one integer, the key's hash above the candidate's
        // place, sorted by the hash: runs of one hash are the blocks. Hashes that collide only
        // add pairs that score low.
        let closeNames = Weight.closeName >= minScore
        let names = names ?? NameCommonness(uniform: candidates.count)
        var entries = Parallel.chunks(candidates.count, minimum: 8192) { r in
            var out: [UInt64] = []
            out.reserveCapacity(r.count * 4)
            for i in r {
                let c = candidates[i]
                for e in c.emails { out.append(Entry.make(hash(Kind.email, e), i)) }
                for p in c.phones { out.append(Entry.make(phoneHash(p), i)) }
                for m in c.messaging { out.append(Entry.make(hash(Kind.messaging, m), i)) }
                for (k, key) in c.nameKeys.enumerated() where names.weight(i, key: k, full: Weight.name) >= minScore {
                    out.append(Entry.make(hash(Kind.name, key), i))
                }
                guard closeNames else { continue }
                let scalars = Array(c.fullName.unicodeScalars)
                if NameKey.letters(scalars) >= NameKey.closeMinimum {
                    for h in NameKey.neighbourhood(scalars) { out.append(Entry.make(h &* 31 &+ Kind.closeName, i)) }
                }
            }
            return out
        }.flatMap { $0 }
        RadixSort.sort(&entries, fromBit: Entry.indexBits)
        var pairs: [UInt64] = []
        var common: Set<Int> = []
        var start = 0
        while start < entries.count {
            let block = Entry.block(entries[start])
            var end = start + 1
            while end < entries.count && Entry.block(entries[end]) == block { end += 1 }
            if end - start > blockLimit { common.insert(block) }
            if end - start >= 2 && end - start <= blockLimit {
                for i in start..<end {
                    for j in (i + 1)..<end {
                        let (a, b) = (Entry.index(entries[i]), Entry.index(entries[j]))
                        if a != b { pairs.append(UInt64(min(a, b)) << 32 | UInt64(max(a, b))) }
                    }
                }
            }
            start = end
        }
        pairs.sort()
        var unique: [UInt64] = []
        unique.reserveCapacity(pairs.count)
        for p in pairs where unique.last != p { unique.append(p) }
        return (unique, common)
    }

    /// A key of a candidate packed in one integer, so that sorting them is sorting integers:
    /// the key's hash in the upper bits (its block), the candidate's place in the lower 28.
    enum Entry {
        static let indexBits = 28
        static let indexMask = (1 << indexBits) - 1

        static func make(_ hash: Int, _ index: Int) -> UInt64 {
            UInt64(bitPattern: Int64(hash)) & ~UInt64(indexMask) | UInt64(index)
        }
        static func block(_ entry: UInt64) -> Int { Int(Int64(bitPattern: entry & ~UInt64(indexMask))) }
        static func index(_ entry: UInt64) -> Int { Int(entry & UInt64(indexMask)) }
        /// The block a key falls in, as `common` holds it.
        static func block(of hash: Int) -> Int { block(make(hash, 0)) }
    }

    /// A phone's block is its last digits: a number written with its country code and the same
    /// one without (no region to read it in) fall in one block, and `samePhone` tells.
    static func phoneHash(_ key: String) -> Int { hash(Kind.phone, PhoneDigits.tail(key) ?? key) }

    static func hash(_ kind: Int, _ key: String) -> Int {
        var h = Hasher()
        h.combine(kind)
        h.combine(key)
        return h.finalize()
    }
}

/// Two contact ids in either order: a pair a person said are different people.
public struct IDPair: Hashable, Sendable {
    public let first: String
    public let second: String

    public init(_ a: String, _ b: String) {
        (first, second) = a < b ? (a, b) : (b, a)
    }
}

/// Disjoint sets of 0..<count, joined by `union`.
struct UnionFind {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    mutating func find(_ x: Int) -> Int {
        var root = x
        while parent[root] != root { root = parent[root] }
        var y = x
        while parent[y] != root { (parent[y], y) = (root, parent[y]) }
        return root
    }

    mutating func union(_ a: Int, _ b: Int) {
        let (x, y) = (find(a), find(b))
        if x != y { parent[max(x, y)] = min(x, y) }
    }
}
