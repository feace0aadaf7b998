import XCTest

@testable import ContactsStore

/// The change between two windows, both ways of working it out: applied to the old window as
/// API.md says (drop the removed and moved, insert the added and moved at their indexes,
/// lowest first), it gives the new one, and the contacts that changed are the ones that move.
final class LiveQueryChangeTests: XCTestCase {
    typealias Member = LiveQuery.Member

    func member(_ rowid: Int64, _ key: String) -> Member { Member(id: "c\(rowid)", rowid: rowid, key: Array(key.utf8)) }

    func applied(_ change: LiveQueryChange, to old: [Member], offset: Int) -> [String] {
        let gone = Set(change.removed).union(change.moved.map(\.id))
        var ids = old.map(\.id).filter { !gone.contains($0) }
        let inserts = (change.added.map { ($0.index, $0.id) } + change.moved.map { ($0.to, $0.id) }).sorted { $0.0 < $1.0 }
        for (index, id) in inserts { ids.insert(id, at: index - offset) }
        return ids
    }

    func testBothWaysGiveTheNewWindowAndMoveWhatChanged() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<400 {
            // A list of 60 with random keys; a commit renames, deletes and adds a few.
            var list = (1...60).map { member(Int64($0), String(format: "%04d", Int.random(in: 0..<10_000, using: &rng))) }
            let sorted: ([Member]) -> [Member] = { $0.sorted { $0.precedes($1, ascending: true) } }
            list = sorted(list)
            var next = list
            var changed = Set<Int64>()
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let k = Int.random(in: 0..<next.count, using: &rng)
                let r = next[k].rowid
                changed.insert(r)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: next[k] = member(r, String(format: "%04d", Int.random(in: 0..<10_000, using: &rng)))
                case 1: next.remove(at: k)
                default:
                    next.append(
                        member(Int64(100 + round * 10 + next.count), String(format: "%04d", Int.random(in: 0..<10_000, using: &rng))))
                }
            }
            next = sorted(next)
            // A window of it: the whole list, or a part of it.
            let (offset, limit) = round % 2 == 0 ? (0, 1000) : (Int.random(in: 0..<20, using: &rng), Int.random(in: 1..<30, using: &rng))
            let old = Array(list.dropFirst(offset).prefix(limit)), new = Array(next.dropFirst(offset).prefix(limit))
            for keyed in [nil, true] {
                let c = LiveQueryChange.between(
                    old, new, offset: offset, changed: changed, from: 1, to: 2, total: next.count, keyedAscending: keyed)
                XCTAssertEqual(applied(c, to: old, offset: offset), new.map(\.id), "round \(round), keyed \(String(describing: keyed))")
                XCTAssertTrue(c.moved.allSatisfy { changed.contains($0.rowid) }, "only changed contacts move: \(c.moved)")
                XCTAssertEqual(
                    Set(c.touched.map(\.rowid)), Set(new.map(\.rowid)).intersection(old.map(\.rowid)).intersection(changed),
                    "touched: the changed contacts both windows hold")
            }
        }
    }
}
