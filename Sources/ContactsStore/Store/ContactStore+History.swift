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
    /// The changes of a contact (in the store or the trash), the latest first.
    public func history(id: String, limit: Int? = nil) throws -> [HistoryEntry] {
        try read { db in
            // The state each change left: the next one's "before", and the contact as it is now
            // (or as the trash keeps it) for the latest.
            var after: Contact? = try Self.fetch(db, id: id, withCard: true) ?? Self.trashed(db, id: id)
            let exists = after != nil
            var entries: [HistoryEntry] = []
            let s = try db.prepare(
                """
                SELECT h.revision, h.at, o.origin, h.operation, h.change, h.before FROM history h
                LEFT JOIN operations o ON o.id = h.operation
                WHERE h.kind = 0 AND h.item = ? ORDER BY h.rowid DESC
                """)
            try s.bind([.text(id)])
            while try s.step() {
                let before = s.optionalText(5).flatMap { Self.snapshot($0, id: id) }
                let change = s.text(4)
                let fields: [String]
                if change == History.Change.deleted.rawValue {
                    fields = []
                } else if let before, let after {
                    fields = Self.changedFields(before, after)
                } else {
                    fields = after.map { Self.changedFields(Contact(name: ""), $0) } ?? []
                }
                entries.append(
                    HistoryEntry(
                        revision: s.int(0), at: s.int64(1), origin: s.optionalText(2) ?? "", operation: s.int64(3),
                        change: change, fields: fields))
                after = before ?? after
            }
            s.reset()
            // The making of the contact, when the history saw it.
            let made = try db.prepare(
                """
                SELECT o.id, o.at, o.origin FROM operations o
                WHERE o.id = (SELECT created_operation FROM contacts WHERE id = ?1) OR o.id = (SELECT created_operation FROM trash WHERE id = ?1)
                """)
            try made.bind([.text(id)])
            if try made.step() {
                let first = after ?? Contact(name: "")
                entries.append(
                    HistoryEntry(
                        revision: 1, at: made.int64(1), origin: made.text(2), operation: made.int64(0),
                        change: History.Change.created.rawValue,
                        fields: Self.changedFields(Contact(name: ""), first)))
            }
            made.reset()
            guard exists || !entries.isEmpty else { throw StoreError.notFound(kind: "contact", id: id) }
            return limit.map { Array(entries.prefix($0)) } ?? entries
        }
    }

    /// A contact as it was at `revision`.
    public func contact(id: String, revision: Int) throws -> Contact {
        try read { db in
            if let now = try Self.fetch(db, id: id, withCard: true) ?? Self.trashed(db, id: id), now.revision == revision { return now }
            let s = try db.prepare(
                "SELECT before FROM history WHERE kind = 0 AND item = ? AND revision = ? AND before IS NOT NULL ORDER BY rowid DESC LIMIT 1"
            )
            try s.bind([.text(id), .int(Int64(revision + 1))])
            defer { s.reset() }
            guard try s.step(), let c = Self.snapshot(s.text(0), id: id), c.revision == revision else {
                throw StoreError.notFound(kind: "revision", id: "\(id)@\(revision)")
            }
            return c
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

    /// A contact from a history snapshot (the JSON `History.contactBefore` keeps).
    static func snapshot(_ text: String, id: String) -> Contact? {
        guard case .object(let o)? = try? JSONParser.parse(text) else { return nil }
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

    /// The names of the fields that differ between two states of a contact.
    static func changedFields(_ a: Contact, _ b: Contact) -> [String] {
        var out: [String] = []
        func check(_ name: String, _ same: Bool) { if !same { out.append(name) } }
        check("uid", a.uid == b.uid || a.uid.isEmpty)
        check("name", a.name == b.name)
        check("structuredName", a.structuredName == b.structuredName)
        check("nickname", a.nickname == b.nickname)
        check("phones", a.phones == b.phones)
        check("emails", a.emails == b.emails)
        check("addresses", a.addresses == b.addresses)
        check("organization", a.organization == b.organization)
        check("title", a.title == b.title)
        check("birthday", a.birthday == b.birthday)
        check("note", a.note == b.note)
        check("urls", a.urls == b.urls)
        check("favorite", a.favorite == b.favorite)
        check("groups", sameGroups(a.groups, b.groups))
        check("photo", a.photo == b.photo)
        return out
    }
}
