import ContactsCore
import ContactsSupport
import Glibc
import JSONCore

/// One write transaction as the history keeps it.
public struct ChangeOperation: Sendable, Equatable {
    public var id: Int64
    public var at: Int64
    public var origin: String
    public var summary: String
    public var contacts: Int
    public var groups: Int
}

/// Whole operations: listed, and undone in one transaction that is itself an operation.
extension ContactStore {
    /// The operations the history keeps, the latest first.
    public func operations(limit: Int = 50, offset: Int = 0) throws -> [ChangeOperation] {
        try read { db in
            let s = try db.prepare(
                "SELECT id, at, origin, summary, contacts, groups FROM operations WHERE contacts + groups > 0 OR kept IS NOT NULL ORDER BY id DESC LIMIT ? OFFSET ?"
            )
            try s.bind([.int(Int64(limit)), .int(Int64(offset))])
            var out: [ChangeOperation] = []
            while try s.step() {
                out.append(
                    ChangeOperation(
                        id: s.int64(0), at: s.int64(1), origin: s.text(2), summary: s.text(3), contacts: s.int(4), groups: s.int(5)))
            }
            s.reset()
            return out
        }
    }

    /// Puts every contact and group `operation` touched back as it was before it: contacts it
    /// made go to the trash, contacts it deleted come back, the others get their earlier
    /// content as a new revision; groups are made, renamed back or removed. Without
    /// `operation`, the latest that is not undone now and is no undo itself: repeated, undo
    /// steps back through the operations (`redo` goes forward again). When a later operation
    /// changed one of them, nothing is done and `StoreError.changedSince` names them all,
    /// unless `force`; a later operation undone since, with its undo, is no later change. An
    /// operation undone already is refused. Returns the undone operation and the undo's own.
    public func undo(operation: Int64? = nil, force: Bool = false) throws -> (undone: ChangeOperation, by: ChangeOperation?) {
        let target =
            try operation
            ?? read { db in
                var chain = try UndoChain(db)
                let s = try db.prepare(
                    "SELECT id FROM operations WHERE (contacts + groups > 0 OR kept IS NOT NULL) AND undoes IS NULL ORDER BY id DESC")
                defer { s.reset() }
                while try s.step() {
                    if !chain.isUndone(s.int64(0)) { return s.int64(0) }
                }
                throw StoreError.conflict(
                    message: "nothing to undo: every operation the history keeps is undone already", id: nil, currentRevision: nil)
            }
        guard let undone = try Self.findOperation(self, target) else {
            throw StoreError.notFound(kind: "operation", id: String(target))
        }
        if let kept = try keptStore(of: target) { return try undoRestore(undone, kept: kept) }
        let byID = try write(origin: "undo") { db, log -> Int64? in
            var chain = try UndoChain(db)
            if let by = chain.liveUndo(of: target) {
                throw StoreError.conflict(
                    message: "operation \(target) is undone already (by operation \(by)); redo does it again", id: nil,
                    currentRevision: nil)
            }
            log.undoes = target
            // Each thing the operation touched, with the state before its first change there.
            struct Touched {
                var kind: Int64
                var item: String
                var change: String
                /// Its first history row in the operation.
                var rowid: Int64
                var before: String?
            }
            // A contact the operation made goes back to the trash, whatever else the operation
            // did to it; the rest go back to their state before their first change there.
            let made = "SELECT id FROM contacts WHERE created_operation = ?1 UNION ALL SELECT id FROM trash WHERE created_operation = ?1"
            var touched: [Touched] = []
            var seen = Set<String>()
            let s = try db.prepare(
                """
                SELECT kind, item, change, rowid, before FROM history
                WHERE operation = ?1 AND NOT (kind = 0 AND item IN (\(made))) ORDER BY rowid
                """)
            try s.bind([.int(target)])
            while try s.step() {
                guard seen.insert("\(s.int64(0)):\(s.text(1))").inserted else { continue }
                touched.append(Touched(kind: s.int64(0), item: s.text(1), change: s.text(2), rowid: s.int64(3), before: s.optionalText(4)))
            }
            s.reset()
            if !force {
                // Later changes of the same things, but for those undone since with their undos.
                let cancelled = chain.cancelled(after: target)
                var later: [String] = []
                let l = try db.prepare(
                    """
                    SELECT operation, item FROM history WHERE operation > ?1
                        AND ((kind, item) IN (SELECT kind, item FROM history WHERE operation = ?1) OR (kind = 0 AND item IN (\(made))))
                    """)
                try l.bind([.int(target)])
                while try l.step() {
                    if !cancelled.contains(l.int64(0)) && !later.contains(l.text(1)) { later.append(l.text(1)) }
                }
                l.reset()
                if !later.isEmpty {
                    throw StoreError.changedSince(
                        message:
                            "operation \(target) cannot be undone: a later change touched \(later.count) of the same contacts or groups"
                            + " (\(later.prefix(5).joined(separator: ", "))\(later.count > 5 ? ", ..." : "")); force (--force) undoes it all the same",
                        ids: later)
                }
            }
            // Groups first, so that contacts coming back find theirs.
            for t in touched where t.kind == History.groupKind {
                try Self.undoGroup(db, id: t.item, change: t.change, before: t.before, log: &log)
            }
            try Self.deleteRows(db, where: "c.created_operation = ?1", [.int(target)], origin: "undo", log: &log)
            for t in touched where t.kind == History.contactKind {
                switch History.Change(rawValue: t.change) {
                case .restored?:
                    _ = try Self.deleteRow(db, id: t.item, origin: "undo", log: &log)
                case .updated?, .deleted?:
                    try Self.restoreState(db, id: t.item, since: t.rowid, log: &log)
                case .created?, nil: continue
                }
            }
            return log.operation
        }
        return (undone, try byID.flatMap { id in try Self.findOperation(self, id) })
    }

    /// A restore undone: the store it replaced, kept aside, is put back (as a restore itself,
    /// which keeps the store it replaces in turn, so that redo can undo it).
    private func undoRestore(_ restore: ChangeOperation, kept: String) throws -> (undone: ChangeOperation, by: ChangeOperation?) {
        guard access(kept, R_OK) == 0 else {
            throw StoreError.conflict(
                message:
                    "operation \(restore.id) cannot be undone: the store it replaced is no longer kept (only the last \(Self.keptStores) are)",
                id: nil, currentRevision: nil)
        }
        do {
            try self.restore(from: kept, undoing: restore.id)
        } catch let e as PathError {
            throw StoreError.unavailable("operation \(restore.id) cannot be undone: \(e.description)")
        }
        let latest = try read { db in try db.scalarInt("SELECT coalesce(max(id), 0) FROM operations") }
        return (restore, try Self.findOperation(self, latest))
    }

    /// Does again what the latest undo that is not undone itself took back: undoes that undo,
    /// as an operation of its own. Repeated, redo goes forward through the undos. Returns the
    /// operation done again and the redo's own.
    public func redo(force: Bool = false) throws -> (redone: ChangeOperation, by: ChangeOperation?) {
        let (undo, original) = try read { db -> (Int64, Int64) in
            var chain = try UndoChain(db)
            guard let undo = chain.liveUndosOfOperations().first, let original = chain.undone(by: undo) else {
                throw StoreError.conflict(message: "nothing to redo: no undo is left to take back", id: nil, currentRevision: nil)
            }
            return (undo, original)
        }
        let r = try self.undo(operation: undo, force: force)
        guard let redone = try Self.findOperation(self, original) else {
            throw StoreError.notFound(kind: "operation", id: String(original))
        }
        return (redone, r.by)
    }

    /// Puts a contact that existed before an operation back as it was then (the state before
    /// its history row `since`): out of the trash when it was deleted since, then with the
    /// content it had.
    private static func restoreState(_ db: Database, id: String, since rowid: Int64, log: inout ChangeLog) throws {
        var old: Contact?
        try walkBack(db, id: id, since: rowid) { step in
            old = step.before ?? old
            return true
        }
        guard let old else { return }
        if try fetch(db, id: id) == nil {
            guard try undeleteRow(db, id: id, log: &log) else { return }
        }
        guard let current = try fetch(db, id: id, withCard: true), !HistoryDelta.changes(old, current).isEmpty else { return }
        var c = old
        c.id = current.id
        c.createdAt = current.createdAt
        try rewrite(db, &c, previous: current, log: &log)
    }

    private static func findOperation(_ store: ContactStore, _ id: Int64) throws -> ChangeOperation? {
        try store.read { db in
            let s = try db.prepare("SELECT id, at, origin, summary, contacts, groups FROM operations WHERE id = ?")
            try s.bind([.int(id)])
            defer { s.reset() }
            return try s.step()
                ? ChangeOperation(
                    id: s.int64(0), at: s.int64(1), origin: s.text(2), summary: s.text(3), contacts: s.int(4), groups: s.int(5))
                : nil
        }
    }

    /// A group as it was before a change: made again under its id, renamed back, or removed.
    private static func undoGroup(_ db: Database, id: String, change: String, before: String?, log: inout ChangeLog) throws {
        let name = before.flatMap { try? JSONParser.parse($0) }?["name"]?.stringValue
        let rowid = try db.scalarInt("SELECT rowid FROM groups WHERE id = ?", [.text(id)])
        switch History.Change(rawValue: change) {
        case .created?:
            guard rowid != 0 else { return }
            try History.group(db, id: id, nameBefore: try existingName(db, rowid), .deleted, log: &log)
            try touch(db, contactRowids: try memberRowids(db, groupRowid: rowid), log: &log)
            try db.prepare("DELETE FROM groups WHERE rowid = ?").run([.int(rowid)])
            log.groups.append(GroupChange(id: id, kind: .deleted, name: name ?? ""))
        case .deleted?:
            guard rowid == 0, let name, try existingGroupName(db, name) == nil else { return }
            try db.prepare("INSERT INTO groups (id, name, name_key, sort_key, created_at) VALUES (?, ?, ?, ?, ?)").run([
                .text(id), .text(name), .text(groupKey(name)), .text(SearchFolding.sortKey(name)), .int(Timestamp.now()),
            ])
            try History.group(db, id: id, nameBefore: nil, .restored, log: &log)
            log.groups.append(GroupChange(id: id, kind: .created, name: name))
        case .updated?:
            guard rowid != 0, let name else { return }
            try History.group(db, id: id, nameBefore: try existingName(db, rowid), .updated, log: &log)
            try touch(db, contactRowids: try memberRowids(db, groupRowid: rowid), log: &log)
            try db.prepare("UPDATE groups SET name = ?, name_key = ?, sort_key = ? WHERE rowid = ?").run([
                .text(name), .text(groupKey(name)), .text(SearchFolding.sortKey(name)), .int(rowid),
            ])
            log.groups.append(GroupChange(id: id, kind: .updated, name: name))
        default: return
        }
    }

    private static func existingName(_ db: Database, _ rowid: Int64) throws -> String? {
        let s = try db.prepare("SELECT name FROM groups WHERE rowid = ?")
        try s.bind([.int(rowid)])
        defer { s.reset() }
        return try s.step() ? s.text(0) : nil
    }
}
