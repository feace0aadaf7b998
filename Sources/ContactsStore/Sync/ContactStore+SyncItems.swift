import ContactsCore
import ContactsSupport

/// What the store knows of each card an account shares with it, and the changes a sync makes:
/// each contact change and the item that records it land in one transaction, so that a sync
/// stopped at any point (a crash, a kill) leaves nothing half known.
extension ContactStore {
    public func syncItems(account: String) throws -> [SyncItem] {
        try read { db in
            let s = try db.prepare("SELECT href, contact_id, etag, card, synced_revision FROM sync_items WHERE account = ? ORDER BY href")
            try s.bind([.text(account)])
            var out: [SyncItem] = []
            while try s.step() {
                out.append(
                    SyncItem(
                        href: s.text(0), contactID: s.optionalText(1), etag: s.optionalText(2), card: s.optionalText(3),
                        syncedRevision: s.optionalInt64(4).map { Int($0) }))
            }
            s.reset()
            return out
        }
    }

    /// The contacts with these ids that are in the store now (not the trash), with their cards.
    public func contacts(ids: [String]) throws -> [String: Contact] {
        try read { db in
            var out: [String: Contact] = [:]
            for id in ids { if let c = try Self.fetch(db, id: id, withCard: true) { out[id] = c } }
            return out
        }
    }

    /// Whether the contact is in the trash.
    public func isTrashed(id: String) throws -> Bool {
        try read { db in try db.scalarInt("SELECT count(*) FROM trash WHERE id = ?", [.text(id)]) > 0 }
    }

    /// Stores a card `account` has at `href`: the contact it is already (back from the trash
    /// when it was deleted here), else a stored contact of the same UID that no account has,
    /// else a new contact. Its favorite flag is this machine's and stays. `pending` says the
    /// contact stored differs from the card (a merge of edits on both sides) and is to be sent
    /// back. Returns the contact.
    public func applyDownload(
        account: String, href: String, etag: String?, card: String, contact incoming: Contact, photo: PhotoData? = nil,
        pending: Bool = false
    ) throws -> Contact {
        try write(origin: "sync:\(account)") { db, log in
            if let photo { _ = try photos.put(photo.hash, photo.bytes) }
            var linked = try db.scalarText(
                "SELECT contact_id FROM sync_items WHERE account = ? AND href = ?", [.text(account), .text(href)])
            if let id = linked, try Self.fetch(db, id: id) == nil {
                if try !Self.undeleteRow(db, id: id, log: &log) { linked = nil }
            }
            var target = try linked.flatMap { try Self.fetch(db, id: $0, withCard: true) }
            if target == nil, !incoming.uid.isEmpty, let same = try Self.fetch(db, uid: incoming.uid),
                try db.scalarInt("SELECT count(*) FROM sync_items WHERE contact_id = ?", [.text(same.id)]) == 0
            {
                target = same
            }
            var stored: Contact
            if let target {
                var c = incoming
                c.id = target.id
                c.createdAt = target.createdAt
                c.favorite = target.favorite
                if c.uid.isEmpty { c.uid = target.uid }
                try Self.validate(c)
                if Self.sameContent(c, target) {
                    stored = target
                } else {
                    try Self.rewrite(db, &c, previous: target, log: &log)
                    stored = c
                }
            } else {
                stored = try Self.insert(db, incoming, log: &log)
            }
            try Self.saveItem(
                db, account: account,
                SyncItem(href: href, contactID: stored.id, etag: etag, card: card, syncedRevision: pending ? 0 : stored.revision))
            return stored
        }
    }

    /// The server deleted the card at `href`: its contact goes to the trash (origin
    /// `sync:ACCOUNT`) and the item goes. Returns whether a contact went.
    @discardableResult
    public func applyRemoteDeletion(account: String, href: String) throws -> Bool {
        try write(origin: "sync:\(account)") { db, log in
            let id = try db.scalarText("SELECT contact_id FROM sync_items WHERE account = ? AND href = ?", [.text(account), .text(href)])
            try db.prepare("DELETE FROM sync_items WHERE account = ? AND href = ?").run([.text(account), .text(href)])
            guard let id else { return false }
            return try Self.deleteRow(db, id: id, origin: "sync:\(account)", log: &log)
        }
    }

    /// Records a card the server took: at `href` (moved from `previousHref` when the server
    /// chose another name), with its new tag and the card sent as the next merge's base.
    public func recordUpload(account: String, _ item: SyncItem, previousHref: String? = nil) throws {
        try write(origin: "sync:\(account)") { db, _ in
            if let previousHref, previousHref != item.href {
                try db.prepare("DELETE FROM sync_items WHERE account = ? AND href = ?").run([.text(account), .text(previousHref)])
            }
            try Self.saveItem(db, account: account, item)
            try db.prepare("DELETE FROM sync_intents WHERE account = ? AND href IN (?, ?)").run([
                .text(account), .text(item.href), .text(previousHref ?? item.href),
            ])
        }
    }

    /// Forgets the item at `href` (its card is gone from the server and its contact from here).
    public func forgetItem(account: String, href: String) throws {
        try write(origin: "sync:\(account)") { db, _ in
            try db.prepare("DELETE FROM sync_items WHERE account = ? AND href = ?").run([.text(account), .text(href)])
            try db.prepare("DELETE FROM sync_intents WHERE account = ? AND href = ?").run([.text(account), .text(href)])
        }
    }

    /// Makes contacts of this machine members of `account`, each to be uploaded as a new card
    /// at the href `name` gives it. Contacts another account has are left where they are.
    public func addToAccount(_ account: String, ids: [String], href name: (Contact) -> String) throws -> Int {
        try write(origin: "sync:\(account)") { db, _ in
            var added = 0
            for id in ids {
                guard let c = try Self.fetch(db, id: id),
                    try db.scalarInt("SELECT count(*) FROM sync_items WHERE contact_id = ?", [.text(id)]) == 0
                else { continue }
                try Self.saveItem(db, account: account, SyncItem(href: name(c), contactID: id, etag: nil, card: nil, syncedRevision: nil))
                added += 1
            }
            return added
        }
    }

    /// The contacts of this machine that no account has.
    public func localContactIDs() throws -> [String] {
        try read { db in
            let s = try db.prepare(
                "SELECT id FROM contacts WHERE id NOT IN (SELECT contact_id FROM sync_items WHERE contact_id IS NOT NULL)")
            var out: [String] = []
            while try s.step() { out.append(s.text(0)) }
            s.reset()
            return out
        }
    }

    /// Notes a write about to be sent, before it is: if its answer is lost, the next sync
    /// checks the server before sending it again.
    public func recordIntent(account: String, _ intent: SyncIntent) throws {
        try write(origin: "sync:\(account)") { db, _ in
            try db.prepare("INSERT OR REPLACE INTO sync_intents (account, href, contact_id, action, at) VALUES (?, ?, ?, ?, ?)").run([
                .text(account), .text(intent.href), intent.contactID.map { .text($0) } ?? .null, .text(intent.action),
                .int(Timestamp.now()),
            ])
        }
    }

    public func intents(account: String) throws -> [SyncIntent] {
        try read { db in
            let s = try db.prepare("SELECT href, contact_id, action FROM sync_intents WHERE account = ? ORDER BY at")
            try s.bind([.text(account)])
            var out: [SyncIntent] = []
            while try s.step() { out.append(SyncIntent(href: s.text(0), contactID: s.optionalText(1), action: s.text(2))) }
            s.reset()
            return out
        }
    }

    public func clearIntent(account: String, href: String) throws {
        try write(origin: "sync:\(account)") { db, _ in
            try db.prepare("DELETE FROM sync_intents WHERE account = ? AND href = ?").run([.text(account), .text(href)])
        }
    }

    static func saveItem(_ db: Database, account: String, _ item: SyncItem) throws {
        try db.prepare(
            """
            INSERT OR REPLACE INTO sync_items (account, href, contact_id, etag, card, synced_revision) VALUES (?, ?, ?, ?, ?, ?)
            """
        ).run([
            .text(account), .text(item.href), item.contactID.map { .text($0) } ?? .null, item.etag.map { .text($0) } ?? .null,
            item.card.map { .text($0) } ?? .null, item.syncedRevision.map { .int(Int64($0)) } ?? .null,
        ])
    }
}
