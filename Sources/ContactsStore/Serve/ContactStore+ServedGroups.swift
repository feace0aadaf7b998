import ContactsCore
import ContactsSupport

/// A group a CardDAV client made as a card (`KIND:group`), served in the book of this machine
/// under the name and UID the client gave it.
public struct ServedGroup: Sendable, Equatable {
    public var groupID: String
    /// The card's last path segment.
    public var name: String
    public var uid: String
    public var groupName: String
    /// The state of its last change: its ETag, and whether a sync token has seen it.
    public var state: Int64
    public var createdAt: Int64
    /// The UIDs of its members.
    public var memberUIDs: [String]
}

extension ContactStore {
    /// Every served group, with its members' UIDs.
    public func servedGroups() throws -> [ServedGroup] {
        try read { db in try Self.servedGroups(db, where: "1", []) }
    }

    /// The served group at this card name, if there is one.
    public func servedGroup(named name: String) throws -> ServedGroup? {
        try read { db in try Self.servedGroups(db, where: "sg.name = ?", [.text(name)]).first }
    }

    static func servedGroups(_ db: Database, where condition: String, _ args: [SQLValue]) throws -> [ServedGroup] {
        let s = try db.prepare(
            """
            SELECT g.rowid, g.id, sg.name, sg.uid, g.name, g.state, g.created_at FROM served_groups sg
            JOIN groups g ON g.rowid = sg.group_rowid WHERE \(condition) ORDER BY sg.name
            """)
        try s.bind(args)
        var out: [(Int64, ServedGroup)] = []
        while try s.step() {
            out.append(
                (
                    s.int64(0),
                    ServedGroup(
                        groupID: s.text(1), name: s.text(2), uid: s.text(3), groupName: s.text(4), state: s.int64(5),
                        createdAt: s.int64(6), memberUIDs: [])
                ))
        }
        s.reset()
        let members = try db.prepare(
            "SELECT c.uid FROM memberships m JOIN contacts c ON c.rowid = m.contact_rowid WHERE m.group_rowid = ? ORDER BY c.uid")
        return try out.map { rowid, group in
            var g = group
            try members.bind([.int(rowid)])
            while try members.step() { g.memberUIDs.append(members.text(0)) }
            members.reset()
            return g
        }
    }

    /// Stores a group card a client PUT at `name`: the served group there changes (renamed,
    /// its members made the ones the card names), or a new one is served (the group of that
    /// name when there is one, else a new group). `ifState` (the card's ETag), when given,
    /// must be the served group's state. Members are the contacts with the UIDs the card
    /// names; UIDs no contact has are left out. Returns the group as stored and whether it
    /// is new to the book.
    public func putServedGroup(
        name: String, uid: String, groupName: String, memberUIDs: [String], ifState: Int64?, origin: String
    ) throws -> (group: ServedGroup, created: Bool) {
        let groupName = try Self.validGroupName(groupName)
        return try write(origin: origin) { db, log in
            let existing = try Self.servedGroups(db, where: "sg.name = ?", [.text(name)]).first
            if let ifState, ifState != existing?.state ?? -1 {
                throw StoreError.conflict(
                    message: "the group card \(name) is at \(existing.map { "state \($0.state)" } ?? "no state: it is gone")",
                    id: existing?.groupID, currentRevision: nil)
            }
            var groupID: String
            var groupRowid: Int64
            if let existing {
                groupID = existing.groupID
                groupRowid = try Self.groupRowid(db, id: groupID)
                if existing.groupName != groupName {
                    if let other = try Self.existingGroupName(db, groupName), Self.groupKey(other) != Self.groupKey(existing.groupName) {
                        throw StoreError.conflict(message: "a group named '\(other)' already exists", id: groupID, currentRevision: nil)
                    }
                    try History.group(db, id: groupID, nameBefore: existing.groupName, .updated, log: &log)
                    try Self.touch(db, contactRowids: try Self.memberRowids(db, groupRowid: groupRowid), log: &log)
                    try db.prepare("UPDATE groups SET name = ?, name_key = ?, sort_key = ? WHERE rowid = ?").run([
                        .text(groupName), .text(Self.groupKey(groupName)), .text(SearchFolding.sortKey(groupName)), .int(groupRowid),
                    ])
                }
                try db.prepare("UPDATE served_groups SET uid = ? WHERE group_rowid = ?").run([.text(uid), .int(groupRowid)])
            } else {
                let found = try db.prepare("SELECT rowid, id FROM groups WHERE name_key = ?")
                try found.bind([.text(Self.groupKey(groupName))])
                if try found.step() {
                    (groupRowid, groupID) = (found.int64(0), found.text(1))
                    found.reset()
                    guard try db.scalarInt("SELECT count(*) FROM served_groups WHERE group_rowid = ?", [.int(groupRowid)]) == 0 else {
                        throw StoreError.conflict(
                            message: "the group '\(groupName)' is served as another card already", id: groupID, currentRevision: nil)
                    }
                } else {
                    found.reset()
                    (groupID, groupRowid) = try Self.insertGroup(db, name: groupName, log: &log)
                }
                try db.prepare("INSERT INTO served_groups (group_rowid, name, uid) VALUES (?, ?, ?)").run([
                    .int(groupRowid), .text(name), .text(uid),
                ])
                try db.prepare("UPDATE groups SET state = ? WHERE rowid = ?").run([.int(log.state), .int(groupRowid)])
            }
            // The members exactly as the card names them.
            var wanted = Set<Int64>()
            for member in memberUIDs {
                let bare = GroupCard.bareUID(member)
                let rowid = try db.scalarInt(
                    "SELECT rowid FROM contacts WHERE uid IN (?, ?, ?) LIMIT 1", [.text(member), .text(bare), .text("urn:uuid:" + bare)])
                if rowid != 0 { wanted.insert(rowid) }
            }
            let current = Set(try Self.memberRowids(db, groupRowid: groupRowid))
            var changed: [Int64] = []
            for rowid in wanted.symmetricDifference(current).sorted()
            where try Self.setMember(db, groupRowid: groupRowid, contactRowid: rowid, wanted.contains(rowid), log: &log) {
                changed.append(rowid)
            }
            try Self.touch(db, contactRowids: changed, recorded: true, log: &log)
            if existing != nil && (!changed.isEmpty || existing?.groupName != groupName) {
                log.groups.append(GroupChange(id: groupID, kind: .updated, name: groupName))
            }
            guard let stored = try Self.servedGroups(db, where: "sg.group_rowid = ?", [.int(groupRowid)]).first else {
                throw StoreError.notFound(kind: "group", id: groupID)
            }
            return (stored, existing == nil)
        }
    }
}
