import ContactsCore
import ContactsSupport

/// A group card of a book (`KIND:group` with `MEMBER`, or Apple's `X-ADDRESSBOOKSERVER-KIND`
/// with `X-ADDRESSBOOKSERVER-MEMBER`), as the server has it.
public struct GroupCardDownload: Sendable {
    public var href: String
    public var etag: String?
    public var card: String
    public var name: String
    /// The members' UIDs, as the card names them (with or without `urn:uuid:`).
    public var memberUIDs: [String]

    public init(href: String, etag: String?, card: String, name: String, memberUIDs: [String]) {
        self.href = href
        self.etag = etag
        self.card = card
        self.name = name
        self.memberUIDs = memberUIDs
    }
}

/// A group as it stands here, against the card the book has for it.
public struct GroupCardState: Sendable {
    /// The card's item; nil for a group with members in the account and no card yet.
    public var item: SyncItem?
    public var groupID: String?
    /// Nil when the group was deleted here.
    public var name: String?
    /// The UIDs of the account's contacts in the group, sorted.
    public var memberUIDs: [String]
}

/// The book's group cards: stored as the groups they are here, and what changed here to send.
extension ContactStore {
    /// Stores group cards from the server. Each is a group here (the one its item links, else
    /// the group of that name, else a new one) with the card's name; the account's contacts
    /// in it are exactly those the card names (members that are not the account's stay).
    /// A membership the server changed is not a local edit: it is not sent back. Returns the
    /// cards left out, with why (a name no group may have), for the sync to report.
    @discardableResult
    public func applyGroupCards(account: String, _ cards: [GroupCardDownload]) throws -> [(href: String, reason: String)] {
        guard !cards.isEmpty else { return [] }
        return try write(origin: "sync:\(account)") { db, log in
            let inAccount = try Self.accountContacts(db, account: account)
            var refused: [(href: String, reason: String)] = []
            for card in cards {
                let name: String
                do {
                    name = try Self.validGroupName(card.name)
                } catch {
                    refused.append((card.href, "group card '\(card.name.prefix(40))': \(error)"))
                    continue
                }
                var group: (id: String, rowid: Int64)?
                if let linked = try db.scalarText(
                    "SELECT group_id FROM sync_items WHERE account = ? AND href = ?", [.text(account), .text(card.href)]),
                    case let rowid = try db.scalarInt("SELECT rowid FROM groups WHERE id = ?", [.text(linked)]), rowid != 0
                {
                    group = (linked, rowid)
                }
                if group == nil {
                    let s = try db.prepare("SELECT id, rowid FROM groups WHERE name_key = ?")
                    try s.bind([.text(Self.groupKey(name))])
                    if try s.step() { group = (s.text(0), s.int64(1)) }
                    s.reset()
                }
                let (groupID, groupRowid) = try group ?? Self.insertGroup(db, name: name, log: &log)
                let current = try Self.fetchGroup(db, groupID)
                if current.name != name,
                    try Self.existingGroupName(db, name).map({ Self.groupKey($0) == Self.groupKey(current.name) }) ?? true
                {
                    try History.group(db, id: groupID, nameBefore: current.name, .updated, log: &log)
                    try db.prepare("UPDATE groups SET name = ?, name_key = ?, sort_key = ? WHERE id = ?").run([
                        .text(name), .text(Self.groupKey(name)), .text(SearchFolding.sortKey(name)), .text(groupID),
                    ])
                    try Self.touch(db, contactRowids: try Self.memberRowids(db, groupRowid: groupRowid), log: &log)
                    log.groups.append(GroupChange(id: groupID, kind: .updated, name: name))
                }
                let wanted = Set(card.memberUIDs.map(GroupCard.bareUID))
                var changed: [Int64] = []
                for (rowid, uid) in inAccount
                where try Self.setMember(
                    db, groupRowid: groupRowid, contactRowid: rowid, wanted.contains(GroupCard.bareUID(uid)), log: &log)
                {
                    changed.append(rowid)
                }
                try Self.touch(db, contactRowids: changed, recorded: true, log: &log)
                for rowid in changed {
                    // In step before, in step after: the new revision is the server's too.
                    try db.prepare(
                        """
                        UPDATE sync_items SET synced_revision = synced_revision + 1
                        WHERE account = ? AND contact_id = (SELECT id FROM contacts WHERE rowid = ?)
                        AND synced_revision = (SELECT revision FROM contacts WHERE rowid = ?) - 1
                        """
                    ).run([.text(account), .int(rowid), .int(rowid)])
                }
                if !changed.isEmpty { log.groups.append(GroupChange(id: groupID, kind: .updated, name: name)) }
                try Self.saveItem(
                    db, account: account,
                    SyncItem(href: card.href, contactID: nil, etag: card.etag, card: card.card, syncedRevision: nil, groupID: groupID))
            }
            return refused
        }
    }

    /// The server deleted a group card: its group goes here (the members stay, without it).
    public func applyRemoteGroupDeletion(account: String, href: String) throws {
        try write(origin: "sync:\(account)") { db, log in
            let linked = try db.scalarText("SELECT group_id FROM sync_items WHERE account = ? AND href = ?", [.text(account), .text(href)])
            try db.prepare("DELETE FROM sync_items WHERE account = ? AND href = ?").run([.text(account), .text(href)])
            guard let linked, case let rowid = try db.scalarInt("SELECT rowid FROM groups WHERE id = ?", [.text(linked)]), rowid != 0
            else { return }
            let g = try Self.fetchGroup(db, linked)
            try History.group(db, id: g.id, nameBefore: g.name, .deleted, log: &log)
            try Self.touch(db, contactRowids: try Self.memberRowids(db, groupRowid: rowid), log: &log)
            try db.prepare("DELETE FROM groups WHERE rowid = ?").run([.int(rowid)])
            log.groups.append(GroupChange(id: g.id, kind: .deleted, name: g.name))
        }
    }

    /// Each group card of the account against its group here, and the groups with members in
    /// the account that have no card yet; nothing for a book without group cards (one query).
    public func groupCardStates(account: String) throws -> [GroupCardState] {
        let items = try groupItems(account: account)
        guard !items.isEmpty else { return [] }
        return try read { db in
            let inAccount = try Self.accountContacts(db, account: account)
            func members(_ groupRowid: Int64) throws -> [String] {
                let ids = Set(try Self.memberRowids(db, groupRowid: groupRowid))
                return inAccount.filter { ids.contains($0.rowid) }.map(\.uid).sorted()
            }
            var out: [GroupCardState] = []
            var linked: Set<String> = []
            for item in items {
                guard let id = item.groupID else { continue }
                linked.insert(id)
                let rowid = try db.scalarInt("SELECT rowid FROM groups WHERE id = ?", [.text(id)])
                let name = rowid == 0 ? nil : try Self.fetchGroup(db, id).name
                out.append(GroupCardState(item: item, groupID: id, name: name, memberUIDs: rowid == 0 ? [] : try members(rowid)))
            }
            let s = try db.prepare("SELECT id, rowid, name FROM groups ORDER BY sort_key")
            var unlinked: [(String, Int64, String)] = []
            while try s.step() {
                if !linked.contains(s.text(0)) { unlinked.append((s.text(0), s.int64(1), s.text(2))) }
            }
            s.reset()
            for (id, rowid, name) in unlinked {
                let uids = try members(rowid)
                if !uids.isEmpty { out.append(GroupCardState(item: nil, groupID: id, name: name, memberUIDs: uids)) }
            }
            return out
        }
    }

    /// The account's contacts: rowid and UID.
    static func accountContacts(_ db: Database, account: String) throws -> [(rowid: Int64, uid: String)] {
        let s = try db.prepare("SELECT c.rowid, c.uid FROM contacts c JOIN sync_items i ON i.contact_id = c.id WHERE i.account = ?")
        try s.bind([.text(account)])
        defer { s.reset() }
        var out: [(Int64, String)] = []
        while try s.step() { out.append((s.int64(0), s.text(1))) }
        return out
    }
}
