/// Which operations are undone now: an undo undoes an operation until it is undone itself (a
/// redo), and an operation may be undone, redone and undone again. Read from the operations
/// that undo another (few; an index finds them).
struct UndoChain {
    /// Each undo's operation → the one it undoes, and each operation → its undos.
    private var target: [Int64: Int64] = [:]
    private var undos: [Int64: [Int64]] = [:]
    private var memo: [Int64: Bool] = [:]

    init(_ db: Database) throws {
        let s = try db.prepare("SELECT id, undoes FROM operations WHERE undoes IS NOT NULL ORDER BY id")
        defer { s.reset() }
        while try s.step() {
            target[s.int64(0)] = s.int64(1)
            undos[s.int64(1), default: []].append(s.int64(0))
        }
    }

    /// The operation `op` undoes, if it is an undo (or a redo).
    func undone(by op: Int64) -> Int64? { target[op] }

    /// Whether `op` is undone now: one of its undos is not undone itself.
    mutating func isUndone(_ op: Int64) -> Bool {
        if let known = memo[op] { return known }
        // The undos of an operation come after it: the recursion ends.
        let result = (undos[op] ?? []).contains { !isUndone($0) }
        memo[op] = result
        return result
    }

    /// The undo that undoes `op` now, if one does.
    mutating func liveUndo(of op: Int64) -> Int64? {
        (undos[op] ?? []).last { !isUndone($0) }
    }

    /// The operations after `after` whose effects are cancelled: each live undo of such an
    /// operation, with the operation it undoes (an operation undone and its undo, an undo
    /// redone and its redo, change nothing together).
    mutating func cancelled(after: Int64) -> Set<Int64> {
        var out = Set<Int64>()
        for (undo, op) in target where op > after && !isUndone(undo) {
            out.insert(undo)
            out.insert(op)
        }
        return out
    }

    /// The undos that are not undone, the latest first: what `redo` does again, in turn.
    mutating func liveUndosOfOperations() -> [Int64] {
        target.keys.sorted(by: >).filter { undo in
            guard let op = target[undo], target[op] == nil else { return false }
            return !isUndone(undo)
        }
    }
}
