import ContactsCore
import ContactsSupport
import JSONCore

/// The history of contacts and groups, written inside each write transaction: the
/// transaction's operation (`operations`: when, by what, how much), and for each change the
/// state it replaced (`history.before`: for a contact, what differs from the state the change
/// made, see `HistoryDelta`; nil for one that came back from the trash or a group just made). A contact's making is
/// the `created_operation` of its row, not a history row.
enum History {
    enum Change: String, Sendable {
        case created, updated, deleted, restored
    }

    static let contactKind: Int64 = 0
    static let groupKind: Int64 = 1

    /// The operation this write records its changes under, numbered with the first of them
    /// (the number SQLite would give its row: the write transaction holds it) and written by
    /// `finish`. Its row is written once, at the end: a row written at the start and again at
    /// the end of a large import would have its page spilled to the log early and written again
    /// at the commit, and SQLite then reads the whole log back to checksum it anew.
    static func operation(_ db: Database, _ log: inout ChangeLog) throws -> Int64 {
        if let id = log.operation { return id }
        let id = try db.scalarInt("SELECT coalesce(max(id), 0) + 1 FROM operations")
        log.operation = id
        log.operationAt = Timestamp.now()
        return id
    }

    /// The operation a contact made now is made by (its row keeps it), nil without history.
    static func creatingOperation(_ db: Database, _ log: inout ChangeLog) throws -> Int64? {
        log.keepsHistory ? try operation(db, &log) : nil
    }

    /// Keeps what a change of a contact's content replaces: the fields in which `old` and
    /// `new` differ, with their values in `old` (see `HistoryDelta`), and the photo it had
    /// when the photo changed.
    static func contactChanged(_ db: Database, from old: Contact, to new: Contact, log: inout ChangeLog) throws {
        guard log.keepsHistory else { return }
        let operation = try operation(db, &log)
        let changed = HistoryDelta.changes(old, new)
        let photo = changed.contains("photo") ? old.photo?.hash : nil
        try db.prepare(
            "INSERT INTO history (operation, kind, item, change, revision, photo_hash, before) VALUES (?, 0, ?, 'updated', ?, ?, ?)"
        ).run([
            .int(operation), .text(old.id), .int(Int64(old.revision + 1)), photo.map { .text($0) } ?? .null,
            .text(HistoryDelta.encode(old, changed: changed)),
        ])
    }

    /// Keeps a contact's groups before a change of its memberships alone.
    static func groupsBefore(_ db: Database, rowid: Int64, log: inout ChangeLog) throws {
        guard log.keepsHistory else { return }
        let operation = try operation(db, &log)
        try db.prepare(
            """
            INSERT INTO history (operation, kind, item, change, revision, before)
            SELECT ?1, 0, c.id, 'updated', c.revision + 1,
                json_object('changed', json_array('groups'), 'updatedAt', c.updated_at,
                    'groups', (SELECT json_group_array(g.name) FROM memberships m JOIN groups g ON g.rowid = m.group_rowid
                               WHERE m.contact_rowid = c.rowid))
            FROM contacts c WHERE c.rowid = ?2
            """
        ).run([.int(operation), .int(rowid)])
    }

    /// Notes the contacts `condition` picks (on `contacts c`) as about to go to the trash,
    /// which keeps them whole: the state before the deletion is the trash's.
    static func deleted(_ db: Database, where condition: String, _ args: [SQLValue], log: inout ChangeLog) throws {
        guard log.keepsHistory else { return }
        let operation = try operation(db, &log)
        let n = args.count
        try db.prepare(
            """
            INSERT INTO history (operation, kind, item, change, revision, before)
            SELECT ?\(n + 1), 0, c.id, 'deleted', c.revision + 1, json_object('changed', json_array(), 'updatedAt', c.updated_at)
            FROM contacts c WHERE \(condition)
            """
        ).run(args + [.int(operation)])
    }

    /// Notes a contact that did not exist before this change (made, or back from the trash).
    static func contactAppeared(_ db: Database, id: String, revision: Int, _ change: Change, log: inout ChangeLog) throws {
        guard log.keepsHistory else { return }
        let operation = try operation(db, &log)
        try db.prepare("INSERT INTO history (operation, kind, item, change, revision) VALUES (?, 0, ?, ?, ?)").run([
            .int(operation), .text(id), .text(change.rawValue), .int(Int64(revision)),
        ])
    }

    /// Keeps a group's name before `change` (nil for a group just made).
    static func group(_ db: Database, id: String, nameBefore: String?, _ change: Change, log: inout ChangeLog) throws {
        guard log.keepsHistory else { return }
        let operation = try operation(db, &log)
        try db.prepare("INSERT INTO history (operation, kind, item, change, revision, before) VALUES (?, 1, ?, ?, 0, ?)").run([
            .int(operation), .text(id), .text(change.rawValue),
            nameBefore.map { .text(JSONWriter.string(["name": .string($0)])) } ?? .null,
        ])
    }

    /// Writes the operation's row, with what it changed in numbers and in words.
    static func finish(_ db: Database, _ log: ChangeLog) throws {
        guard let operation = log.operation else { return }
        var counts: [String: Int] = [:]
        for c in log.contacts {
            counts[c.kind == .created && log.restored.contains(c.id) ? "restored" : c.kind.rawValue, default: 0] += 1
        }
        var parts: [String] = []
        for kind in ["created", "restored", "updated", "deleted"] {
            if let n = counts[kind] { parts.append("\(n) \(n == 1 ? "contact" : "contacts") \(kind)") }
        }
        if !log.groups.isEmpty { parts.append("\(log.groups.count) \(log.groups.count == 1 ? "group" : "groups") changed") }
        try db.prepare("INSERT INTO operations (id, at, origin, contacts, groups, summary, undoes) VALUES (?, ?, ?, ?, ?, ?, ?)").run([
            .int(operation), .int(log.operationAt), .text(log.origin), .int(Int64(log.contacts.count)), .int(Int64(log.groups.count)),
            .text(parts.joined(separator: ", ")), log.undoes.map { .int($0) } ?? .null,
        ])
    }
}
