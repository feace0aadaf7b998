import ContactsCore
import ContactsSupport
import Foundation

extension ContactStore {
    static func groupKey(_ name: String) -> String { name.trimmingWhitespace().lowercased() }

    /// The name trimmed, or an error that says why no group may have it.
    public static func validGroupName(_ name: String) throws -> String {
        let trimmed = name.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw StoreError.invalid(ContactError(.invalidData, field: "name", "a group name cannot be blank"))
        }
        guard trimmed.utf8.count <= 256 else {
            throw StoreError.invalid(ContactError(.invalidData, field: "name", "a group name may have at most 256 bytes"))
        }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw StoreError.invalid(ContactError(.invalidData, field: "name", "a group name cannot contain control characters"))
        }
        return trimmed
    }

    public func groups() throws -> [ContactGroup] {
        try read { db in
            let s = try db.prepare(
                """
                SELECT g.id, g.name, (SELECT count(*) FROM memberships m WHERE m.group_rowid = g.rowid)
                FROM groups g ORDER BY g.sort_key, g.name
                """)
            var out: [ContactGroup] = []
            while try s.step() { out.append(ContactGroup(id: s.text(0), name: s.text(1), memberCount: s.int(2))) }
            return out
        }
    }

    /// A group by id, or by name (case-insensitive) when no id matches.
    public func group(_ idOrName: String) throws -> ContactGroup {
        try read { db in try Self.fetchGroup(db, idOrName) }
    }

    static func fetchGroup(_ db: Database, _ idOrName: String) throws -> ContactGroup {
        let s = try db.prepare(
            """
            SELECT g.id, g.name, (SELECT count(*) FROM memberships m WHERE m.group_rowid = g.rowid)
            FROM groups g WHERE g.id = ?1 OR g.name_key = ?2 ORDER BY g.id = ?1 DESC LIMIT 1
            """)
        try s.bind([.text(idOrName), .text(groupKey(idOrName))])
        guard try s.step() else { throw StoreError.notFound(kind: "group", id: idOrName) }
        return ContactGroup(id: s.text(0), name: s.text(1), memberCount: s.int(2))
    }

    static func groupRowid(_ db: Database, id: String) throws -> Int64 {
        try db.scalarInt("SELECT rowid FROM groups WHERE id = ?", [.text(id)])
    }

    public func createGroup(name: String) throws -> ContactGroup {
        let name = try Self.validGroupName(name)
        return try write { db, log in
            if let existing = try Self.existingGroupName(db, name) {
                throw StoreError.conflict(message: "a group named '\(existing)' already exists", id: nil, currentRevision: nil)
            }
            let id = try Self.insertGroup(db, name: name, log: &log).id
            return ContactGroup(id: id, name: name, memberCount: 0)
        }
    }

    static func existingGroupName(_ db: Database, _ name: String) throws -> String? {
        let s = try db.prepare("SELECT name FROM groups WHERE name_key = ?")
        try s.bind([.text(groupKey(name))])
        return try s.step() ? s.text(0) : nil
    }

    static func insertGroup(_ db: Database, name: String, log: inout ChangeLog) throws -> (id: String, rowid: Int64) {
        let id = Identifier.make()
        try db.prepare("INSERT INTO groups (id, name, name_key, sort_key, created_at) VALUES (?, ?, ?, ?, ?)").run([
            .text(id), .text(name), .text(groupKey(name)), .text(SearchFolding.sortKey(name)), .int(Timestamp.now()),
        ])
        log.groups.append(GroupChange(id: id, kind: .created, name: name))
        let rowid = db.lastInsertRowid
        try History.group(db, id: id, nameBefore: nil, .created, log: &log)
        return (id, rowid)
    }

    public func renameGroup(_ idOrName: String, to newName: String) throws -> ContactGroup {
        let newName = try Self.validGroupName(newName)
        return try write { db, log in
            var g = try Self.fetchGroup(db, idOrName)
            if let existing = try Self.existingGroupName(db, newName), Self.groupKey(existing) != Self.groupKey(g.name) {
                throw StoreError.conflict(message: "a group named '\(existing)' already exists", id: g.id, currentRevision: nil)
            }
            if g.name == newName { return g }
            try History.group(db, id: g.id, nameBefore: g.name, .updated, log: &log)
            let rowid = try Self.groupRowid(db, id: g.id)
            try Self.touch(db, contactRowids: try Self.memberRowids(db, groupRowid: rowid), log: &log)
            try db.prepare("UPDATE groups SET name = ?, name_key = ?, sort_key = ? WHERE id = ?").run([
                .text(newName), .text(Self.groupKey(newName)), .text(SearchFolding.sortKey(newName)), .text(g.id),
            ])
            g.name = newName
            log.groups.append(GroupChange(id: g.id, kind: .updated, name: newName))
            return g
        }
    }

    /// Deletes a group; its members stay, without it.
    public func deleteGroup(_ idOrName: String, origin: String = CommitOrigin.current) throws {
        try write(origin: origin) { db, log in
            let g = try Self.fetchGroup(db, idOrName)
            let rowid = try Self.groupRowid(db, id: g.id)
            let members = try Self.memberRowids(db, groupRowid: rowid)
            try History.group(db, id: g.id, nameBefore: g.name, .deleted, log: &log)
            try Self.touch(db, contactRowids: members, log: &log)
            try db.prepare("DELETE FROM groups WHERE rowid = ?").run([.int(rowid)])
            log.groups.append(GroupChange(id: g.id, kind: .deleted, name: g.name))
        }
    }

    public func addMembers(_ idOrName: String, contactIDs: [String]) throws -> ContactGroup {
        try changeMembers(idOrName, contactIDs: contactIDs, add: true)
    }

    public func removeMembers(_ idOrName: String, contactIDs: [String]) throws -> ContactGroup {
        try changeMembers(idOrName, contactIDs: contactIDs, add: false)
    }

    private func changeMembers(_ idOrName: String, contactIDs: [String], add: Bool) throws -> ContactGroup {
        try write { db, log in
            let g = try Self.fetchGroup(db, idOrName)
            let groupRowid = try Self.groupRowid(db, id: g.id)
            var changed: [Int64] = []
            for id in contactIDs {
                let rowid = try db.scalarInt("SELECT rowid FROM contacts WHERE id = ?", [.text(id)])
                guard rowid != 0 else { throw StoreError.notFound(kind: "contact", id: id) }
                if try Self.setMember(db, groupRowid: groupRowid, contactRowid: rowid, add, log: &log) { changed.append(rowid) }
            }
            try Self.touch(db, contactRowids: changed, recorded: true, log: &log)
            if !changed.isEmpty { log.groups.append(GroupChange(id: g.id, kind: .updated, name: g.name)) }
            return try Self.fetchGroup(db, g.id)
        }
    }

    /// Puts a contact in a group, or takes it out, its groups kept in its history first;
    /// whether that changed anything. The caller touches the contacts it changed.
    static func setMember(_ db: Database, groupRowid: Int64, contactRowid: Int64, _ member: Bool, log: inout ChangeLog) throws -> Bool {
        guard try isMember(db, groupRowid: groupRowid, contactRowid: contactRowid) != member else { return false }
        try History.groupsBefore(db, rowid: contactRowid, log: &log)
        log.membershipsChanged = true
        let sql =
            member
            ? "INSERT INTO memberships (group_rowid, contact_rowid) VALUES (?, ?)"
            : "DELETE FROM memberships WHERE group_rowid = ? AND contact_rowid = ?"
        try db.prepare(sql).run([.int(groupRowid), .int(contactRowid)])
        return true
    }

    static func memberRowids(_ db: Database, groupRowid: Int64) throws -> [Int64] {
        let s = try db.prepare("SELECT contact_rowid FROM memberships WHERE group_rowid = ?")
        try s.bind([.int(groupRowid)])
        var out: [Int64] = []
        while try s.step() { out.append(s.int64(0)) }
        return out
    }

    /// Makes a contact's memberships exactly `names`, creating groups that do not exist yet.
    /// Returns the stored spellings of the names, sorted.
    static func setMemberships(_ db: Database, contactRowid: Int64, names: [String], log: inout ChangeLog, isNew: Bool = false) throws
        -> [String]
    {
        if !isNew {
            try db.prepare("DELETE FROM memberships WHERE contact_rowid = ?").run([.int(contactRowid)])
            log.membershipsChanged = true
        }
        var stored: [String] = []
        for raw in names {
            let name = try validGroupName(raw)
            let s = try db.prepare("SELECT rowid, name FROM groups WHERE name_key = ?")
            try s.bind([.text(groupKey(name))])
            let groupRowid: Int64
            if try s.step() {
                groupRowid = s.int64(0)
                stored.append(s.text(1))
                s.reset()
            } else {
                s.reset()
                groupRowid = try insertGroup(db, name: name, log: &log).rowid
                stored.append(name)
            }
            try db.prepare("INSERT OR IGNORE INTO memberships (group_rowid, contact_rowid) VALUES (?, ?)").run([
                .int(groupRowid), .int(contactRowid),
            ])
        }
        return sortedGroupNames(stored)
    }
}

extension ContactStore {
    /// Stores a group card of an import: makes the group when it is new and adds the stored
    /// contacts whose UIDs it names (with or without `urn:uuid:`).
    static func importGroup(_ db: Database, _ card: ImportGroup, log: inout ChangeLog) throws {
        let select = try db.prepare("SELECT rowid, id FROM groups WHERE name_key = ?")
        try select.bind([.text(groupKey(card.name))])
        var groupRowid: Int64
        var groupID: String
        let existed = try select.step()
        if existed {
            groupRowid = select.int64(0)
            groupID = select.text(1)
            select.reset()
        } else {
            select.reset()
            (groupID, groupRowid) = try insertGroup(db, name: card.name, log: &log)
        }
        var added: [Int64] = []
        for uid in card.memberUIDs {
            let bare = uid.lowercased().hasPrefix("urn:uuid:") ? String(uid.dropFirst(9)) : uid
            let rowid = try db.scalarInt(
                "SELECT rowid FROM contacts WHERE uid IN (?, ?, ?) LIMIT 1", [.text(uid), .text(bare), .text("urn:uuid:" + bare)])
            guard rowid != 0, try !isMember(db, groupRowid: groupRowid, contactRowid: rowid) else { continue }
            try History.groupsBefore(db, rowid: rowid, log: &log)
            try db.prepare("INSERT INTO memberships (group_rowid, contact_rowid) VALUES (?, ?)").run([.int(groupRowid), .int(rowid)])
            added.append(rowid)
        }
        try touch(db, contactRowids: added, recorded: true, log: &log)
        // A group made by this card is in the log as created already.
        if existed && !added.isEmpty { log.groups.append(GroupChange(id: groupID, kind: .updated, name: card.name)) }
    }
}

extension ContactStore {
    static func isMember(_ db: Database, groupRowid: Int64, contactRowid: Int64) throws -> Bool {
        try db.scalarInt(
            "SELECT count(*) FROM memberships WHERE group_rowid = ? AND contact_rowid = ?", [.int(groupRowid), .int(contactRowid)]) > 0
    }
}
