import ContactsCore

/// A position in the store's commit sequence: every change up to `state`, or, for a page cut
/// inside one commit, that commit's changes up to a row (its contacts first, then its
/// removals).
public struct ChangeCursor: Sendable, Hashable, CustomStringConvertible {
    public enum Part: Sendable, Hashable {
        /// All of `state`.
        case whole
        /// Of `state`, the contacts up to this rowid.
        case contacts(through: Int64)
        /// Of `state`, every contact and the removals up to this rowid.
        case removals(through: Int64)
    }
    public var state: Int64
    public var part: Part

    public init(state: Int64, part: Part = .whole) {
        self.state = state
        self.part = part
    }

    /// `42`, or `42:c:1234` / `42:r:17` for a cut inside a commit.
    public var description: String {
        switch part {
        case .whole: "\(state)"
        case .contacts(let rowid): "\(state):c:\(rowid)"
        case .removals(let rowid): "\(state):r:\(rowid)"
        }
    }

    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard let state = Int64(parts[0]), state >= 0 else { return nil }
        switch parts.count {
        case 1: self.init(state: state)
        case 3:
            guard let rowid = Int64(parts[2]), rowid >= 0 else { return nil }
            switch parts[1] {
            case "c": self.init(state: state, part: .contacts(through: rowid))
            case "r": self.init(state: state, part: .removals(through: rowid))
            default: return nil
            }
        default: return nil
        }
    }
}

/// A contact made or changed after a cursor.
public struct ChangedContact: Sendable, Equatable {
    public var id: String
    public var revision: Int
    public var updatedAt: Int64
    /// Made after the cursor (else changed, or moved into the book).
    public var created: Bool
}

/// A contact gone from a book after a cursor (deleted, or moved to another book), with the
/// name it was served under there.
public struct RemovedContact: Sendable, Equatable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// What changed after a cursor, up to `next`; `more` when a limit cut it short.
public struct ChangePage: Sendable {
    public var changed: [ChangedContact]
    public var removed: [RemovedContact]
    public var next: ChangeCursor
    public var more: Bool
}

extension ContactStore {
    /// The latest state of the store, and the oldest one `changes` still answers from.
    public func commitState() throws -> (state: Int64, floor: Int64) {
        try read { db in try CommitState.read(db) }
    }

    /// The state of a book's last change (a contact in it made, changed, moved in, or gone
    /// from it): what its `cs:getctag` and sync token say.
    public func lastChange(in book: AccountScope?) throws -> Int64 {
        try read { db in
            let contacts: Int64
            let removals: Int64
            switch book {
            case nil:
                return try CommitState.read(db).state
            case .local:
                contacts = try db.scalarInt(
                    "SELECT c.state FROM contacts c WHERE \(Self.inBook(.local)) ORDER BY c.state DESC LIMIT 1")
                // With the groups a client made as cards, served in this book.
                let groups = try db.scalarInt("SELECT max(g.state) FROM groups g JOIN served_groups sg ON sg.group_rowid = g.rowid")
                removals = max(groups, try db.scalarInt("SELECT max(state) FROM removals WHERE book = ''"))
            case .collected:
                contacts = try db.scalarInt("SELECT max(c.state) FROM contacts c WHERE c.collected = 1")
                removals = try db.scalarInt("SELECT max(state) FROM removals WHERE book = ?", [.text(AccountScope.collected.removalsBook)])
            case .account(let name):
                contacts = try db.scalarInt(
                    "SELECT max(c.state) FROM sync_items si JOIN contacts c ON c.id = si.contact_id WHERE si.account = ?",
                    [.text(name)])
                removals = try db.scalarInt("SELECT max(state) FROM removals WHERE book = ?", [.text(name)])
            }
            return max(contacts, removals)
        }
    }

    /// What changed in `book` (nil: anywhere in the store) after `cursor`, at most `limit`
    /// changes (contacts and removals together), in commit order. Without a cursor: every
    /// contact of the book, and no removals. Nil when the log no longer reaches back to the
    /// cursor (its removals were pruned, or the store was restored since).
    public func changes(in book: AccountScope?, after cursor: ChangeCursor?, limit: Int? = nil) throws -> ChangePage? {
        try read { db in
            let (current, floor) = try CommitState.read(db)
            if let cursor, cursor.state < floor || cursor.state > current { return nil }
            let from = cursor ?? ChangeCursor(state: -1, part: .whole)
            let cap = limit.map { max(1, $0) + 1 } ?? -1
            var bookArgs: [SQLValue] = []
            if case .account(let name)? = book { bookArgs = [.text(name)] }
            let inBook = book.map { "AND " + Self.inBook($0, parameter: "?4") } ?? ""

            // After the cursor: the rest of its own state when it was cut inside one (a range
            // of the index by state and row), then the later states (a range by state). One
            // condition with an OR, or a row value, would read the cursor's whole state: all of
            // a large import's contacts, on every no-op.
            func afterCursor(_ table: String, rest: Int64?) -> [(condition: String, args: [SQLValue])] {
                var parts: [(String, [SQLValue])] = []
                if let rest { parts.append(("\(table).state = ?1 AND \(table).rowid > ?2", [.int(from.state), .int(rest)])) }
                parts.append(("\(table).state > ?1", [.int(from.state), .int(0)]))
                return parts
            }
            let contactsRest: Int64? =
                switch from.part {
                case .contacts(let rowid): rowid
                default: nil
                }
            var made: [(key: Key, change: ChangedContact)] = []
            for (condition, args) in afterCursor("c", rest: contactsRest) where cap < 0 || made.count < cap {
                let s = try db.prepare(
                    """
                    SELECT c.rowid, c.id, c.revision, c.updated_at, c.state, c.created_state FROM contacts c
                    WHERE \(condition) \(inBook)
                    ORDER BY c.state, c.rowid LIMIT ?3
                    """)
                try s.bind(args + [.int(Int64(cap))] + bookArgs)
                while try s.step() {
                    made.append(
                        (
                            Key(state: s.int64(4), removal: false, rowid: s.int64(0)),
                            ChangedContact(id: s.text(1), revision: s.int(2), updatedAt: s.int64(3), created: s.int64(5) > from.state)
                        ))
                }
                s.reset()
            }

            var gone: [(key: Key, removal: RemovedContact)] = []
            if cursor != nil {
                let removalsRest: Int64? =
                    switch from.part {
                    case .whole: nil
                    case .contacts: -1
                    case .removals(let rowid): rowid
                    }
                let bookCondition: String
                switch book {
                case nil: bookCondition = "AND r.group_card = 0"
                case .local: bookCondition = "AND r.book = ''"
                case .account: bookCondition = "AND r.book = ?4"
                case .collected: bookCondition = "AND r.book = '\(AccountScope.collected.removalsBook)'"
                }
                // A contact back in the book (undeleted, moved back) is not gone from it.
                for (condition, args) in afterCursor("r", rest: removalsRest) where cap < 0 || gone.count < cap {
                    let r = try db.prepare(
                        """
                        SELECT r.rowid, r.contact_id, r.name, r.state FROM removals r
                        WHERE \(condition) \(bookCondition)
                            AND NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = r.contact_id \(inBook))
                        ORDER BY r.state, r.rowid LIMIT ?3
                        """)
                    try r.bind(args + [.int(Int64(cap))] + bookArgs)
                    while try r.step() {
                        gone.append(
                            (Key(state: r.int64(3), removal: true, rowid: r.int64(0)), RemovedContact(id: r.text(1), name: r.text(2))))
                    }
                    r.reset()
                }
            }

            // The two in commit order, cut at the limit.
            var page = ChangePage(changed: [], removed: [], next: from, more: false)
            var i = 0
            var j = 0
            var last: Key?
            var reported = Set<String>()
            while i < made.count || j < gone.count {
                if let limit, page.changed.count + page.removed.count >= max(1, limit) {
                    page.more = true
                    break
                }
                if j >= gone.count || (i < made.count && made[i].key < gone[j].key) {
                    page.changed.append(made[i].change)
                    last = made[i].key
                    i += 1
                } else {
                    // Store-wide, a contact gone from two books is one removal.
                    if reported.insert(gone[j].removal.id).inserted { page.removed.append(gone[j].removal) }
                    last = gone[j].key
                    j += 1
                }
            }
            if page.more, let last {
                page.next = ChangeCursor(
                    state: last.state, part: last.removal ? .removals(through: last.rowid) : .contacts(through: last.rowid))
            } else {
                // All of it: the cursor moves to the book's last change, no earlier than the
                // cursor's own state nor than the oldest state answered.
                page.next = ChangeCursor(state: max(from.state, last?.state ?? from.state, floor))
                if book == nil { page.next = ChangeCursor(state: current) }
            }
            return page
        }
    }

    /// Whether a contact (`contacts c`) is in `book` (an account's takes its name as `parameter`).
    static func inBook(_ book: AccountScope, parameter: String = "?") -> String {
        switch book {
        // Collected addresses are no book's: they are served apart, as the mail client's own.
        case .local: "c.collected = 0 AND NOT EXISTS (SELECT 1 FROM sync_items si WHERE si.contact_id = c.id)"
        case .account: "EXISTS (SELECT 1 FROM sync_items si WHERE si.contact_id = c.id AND si.account = \(parameter))"
        case .collected: "c.collected = 1"
        }
    }

    /// Where a change falls in commit order: by state, a commit's contacts before its removals.
    private struct Key: Comparable {
        var state: Int64
        var removal: Bool
        var rowid: Int64

        static func < (a: Key, b: Key) -> Bool {
            (a.state, a.removal ? 1 : 0, a.rowid) < (b.state, b.removal ? 1 : 0, b.rowid)
        }
    }
}
