import ContactsCore
import ContactsSupport
import JSONCore

/// One change in a contact's history.
public struct HistoryEntry: Sendable, Equatable {
    /// The revision the change made.
    public var revision: Int
    public var at: Int64
    public var origin: String
    public var operation: Int64?
    /// `created`, `updated`, `deleted` or `restored`.
    public var change: String
    /// The fields it changed (for a contact made, the ones it was made with).
    public var fields: [String]
}

/// Reading a contact's history, its earlier states, and going back to one.
extension ContactStore {
    /// One change of a contact as its history keeps it, with the state before it.
    struct Step {
        var rowid: Int64
        var revision: Int
        var at: Int64
        var origin: String
        var operation: Int64?
        var change: String
        /// The fields it changed, when its record says (nil for a whole earlier state).
        var changed: [String]?
        /// The contact before the change (nil when neither it nor a later state is known).
        var before: Contact?
        /// The contact after it.
        var after: Contact?
    }

    /// Walks a contact's changes from the latest back to the one at history row `since`,
    /// working out each earlier state from the one after it, until `visit` answers false.
    /// Returns the contact as it is now (in the store or the trash).
    @discardableResult
    static func walkBack(_ db: Database, id: String, since: Int64 = 0, _ visit: (Step) throws -> Bool) throws -> Contact? {
        let now = try fetch(db, id: id, withCard: true) ?? trashed(db, id: id)
        var state = now
        let fieldsFrom = try declaredFieldsFrom(db)
        let s = try db.prepare(
            """
            SELECT h.rowid, h.revision, o.at, o.origin, h.operation, h.change, h.before FROM history h
            LEFT JOIN operations o ON o.id = h.operation
            WHERE h.kind = 0 AND h.item = ? AND h.rowid >= ? ORDER BY h.rowid DESC
            """)
        try s.bind([.text(id), .int(since)])
        defer { s.reset() }
        while try s.step() {
            var step = Step(
                rowid: s.int64(0), revision: s.int(1), at: s.int64(2), origin: s.optionalText(3) ?? "", operation: s.int64(4),
                change: s.text(5), changed: [], before: nil, after: state)
            if let text = s.optionalText(6) {
                var blank = Contact(name: "")
                blank.id = id
                // A difference needs the state after it; a whole state (older stores) does not.
                if let applied = HistoryDelta.apply(text, to: state ?? blank, revision: step.revision - 1),
                    applied.changed == nil || state != nil
                {
                    step.changed = applied.changed
                    step.before = applied.before
                }
            } else if var same = state {
                // Back from the trash (or made) as it was: the content before is the same.
                same.revision = step.revision - 1
                step.before = same
            }
            if step.rowid < fieldsFrom, var before = step.before {
                // Recorded before the fields were declared: the card alone held them.
                VCardMapping.declaredFromCard(into: &before)
                step.before = before
            }
            state = step.before
            guard try visit(step) else { break }
        }
        return now
    }

    /// The first history row recorded with the declared fields (dates, related, ...): the
    /// states before older rows hold them in their cards alone (migration 19 sets it).
    static func declaredFieldsFrom(_ db: Database) throws -> Int64 {
        try db.scalarText("SELECT value FROM settings WHERE key = 'declaredFieldsFrom'").flatMap { Int64($0) } ?? 0
    }

    /// The changes of a contact (in the store or the trash), the latest first.
    public func history(id: String, limit: Int? = nil) throws -> [HistoryEntry] {
        try read { db in
            var entries: [HistoryEntry] = []
            var earliest: Contact?
            let now = try Self.walkBack(db, id: id) { step in
                let fields: [String]
                switch History.Change(rawValue: step.change) {
                case .deleted?: fields = []
                case .restored?: fields = step.after.map(Self.fieldsOfNew) ?? []
                default:
                    if let changed = step.changed {
                        // The card's other properties, when nothing else changed.
                        fields = changed.count > 1 ? changed.filter { $0 != "properties" } : changed
                    } else if let before = step.before, let after = step.after {
                        fields = HistoryDelta.changes(before, after)
                    } else {
                        fields = step.after.map(Self.fieldsOfNew) ?? []
                    }
                }
                entries.append(
                    HistoryEntry(
                        revision: step.revision, at: step.at, origin: step.origin, operation: step.operation, change: step.change,
                        fields: fields))
                earliest = step.before ?? step.after
                return true
            }
            // The making of the contact, when the history saw it.
            let made = try db.prepare(
                """
                SELECT o.id, o.at, o.origin FROM operations o
                WHERE o.id = (SELECT created_operation FROM contacts WHERE id = ?1) OR o.id = (SELECT created_operation FROM trash WHERE id = ?1)
                """)
            try made.bind([.text(id)])
            if try made.step() {
                entries.append(
                    HistoryEntry(
                        revision: 1, at: made.int64(1), origin: made.text(2), operation: made.int64(0),
                        change: History.Change.created.rawValue, fields: Self.fieldsOfNew(earliest ?? now ?? Contact(name: ""))))
            }
            made.reset()
            guard now != nil || !entries.isEmpty else { throw StoreError.notFound(kind: "contact", id: id) }
            return limit.map { Array(entries.prefix($0)) } ?? entries
        }
    }

    /// The fields a contact made with this content would list.
    static func fieldsOfNew(_ c: Contact) -> [String] {
        HistoryDelta.changes(Contact(name: ""), c).filter { $0 != "uid" }
    }

    /// A contact as it was at `revision`.
    public func contact(id: String, revision: Int) throws -> Contact {
        try read { db in
            var found: Contact?
            let now = try Self.walkBack(db, id: id) { step in
                if let before = step.before, before.revision == revision, step.revision == revision + 1 { found = before }
                return found == nil && step.revision > revision
            }
            if let now, now.revision == revision { return now }
            guard let found else { throw StoreError.notFound(kind: "revision", id: "\(id)@\(revision)") }
            return found
        }
    }

    /// Makes the contact what it was at `revision` again, as a new revision.
    public func revert(id: String, to revision: Int, ifRevision: Int? = nil) throws -> Contact {
        let old = try contact(id: id, revision: revision)
        return try update(id: id, ifRevision: ifRevision) { c in
            let (keptID, created) = (c.id, c.createdAt)
            let (revision, updated) = (c.revision, c.updatedAt)
            c = old
            c.id = keptID
            c.createdAt = created
            c.revision = revision
            c.updatedAt = updated
        }
    }

    /// A contact from a whole earlier state, as `history.before` held it before it kept differences.
    static func snapshot(_ o: JSONObject, id: String) -> Contact? {
        var c = Contact(name: o["name"]?.stringValue ?? "")
        c.id = id
        c.uid = o["uid"]?.stringValue ?? ""
        c.revision = o["revision"]?.intValue ?? 0
        c.favorite = (o["favorite"]?.intValue ?? 0) != 0
        c.createdAt = Int64(o["createdAt"]?.intValue ?? 0)
        c.updatedAt = Int64(o["updatedAt"]?.intValue ?? 0)
        if let body = o["body"]?.stringValue { Array(body.utf8).withUnsafeBytes { StoredBody.decode($0, into: &c) } }
        if let card = o["vcard"]?.stringValue { c.vcardProperties = Array(card.utf8).withUnsafeBytes { StoredProperties.decode($0) } }
        c.groups = sortedGroupNames((o["groups"]?.arrayValue ?? []).compactMap(\.stringValue))
        return c
    }

    /// A contact as the trash keeps it.
    static func trashed(_ db: Database, id: String) throws -> Contact? {
        let s = try db.prepare("SELECT \(trashColumns) FROM trash t WHERE t.id = ?")
        try s.bind([.text(id)])
        defer { s.reset() }
        return try s.step() ? RawRow(s, withCard: true).contact() : nil
    }
}
