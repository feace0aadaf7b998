import ContactsCore
import ContactsSupport

/// What the store knows of each card an account shares with it, and the changes a sync makes:
/// each contact change and the item that records it land in one transaction, so that a sync
/// stopped at any point (a crash, a kill) leaves nothing half known.
extension ContactStore {
    public func syncItems(account: String) throws -> [SyncItem] {
        try items(
            "SELECT href, contact_id, etag, card, synced_revision, moved, group_id FROM sync_items WHERE account = ? ORDER BY href",
            [.text(account)])
    }

    /// The item at `href`, if the account has one there.
    public func syncItem(account: String, href: String) throws -> SyncItem? {
        try items(
            "SELECT href, contact_id, etag, card, synced_revision, moved, group_id FROM sync_items WHERE account = ? AND href = ?",
            [.text(account), .text(href)]
        ).first
    }

    /// The account's group cards.
    public func groupItems(account: String) throws -> [SyncItem] {
        try items(
            "SELECT href, contact_id, etag, card, synced_revision, moved, group_id FROM sync_items WHERE account = ? AND group_id IS NOT NULL",
            [.text(account)])
    }

    /// The items with something to send: never sent (no tag), their contact changed since
    /// (another revision), or gone from the store.
    public func pendingItems(account: String) throws -> [SyncItem] {
        try items(
            """
            SELECT i.href, i.contact_id, i.etag, i.card, i.synced_revision, i.moved, i.group_id FROM sync_items i LEFT JOIN contacts c ON c.id = i.contact_id
            WHERE i.account = ? AND i.group_id IS NULL AND (i.etag IS NULL OR c.id IS NULL OR c.revision <> coalesce(i.synced_revision, -1))
            ORDER BY i.href
            """, [.text(account)])
    }

    /// The items a query selects (href, contact_id, etag, card, synced_revision, moved, group_id, in that order).
    private func items(_ sql: String, _ args: [SQLValue]) throws -> [SyncItem] {
        try read { db in
            let s = try db.prepare(sql)
            try s.bind(args)
            defer { s.reset() }
            var out: [SyncItem] = []
            while try s.step() {
                out.append(
                    SyncItem(
                        href: s.text(0), contactID: s.optionalText(1), etag: s.optionalText(2), card: s.optionalText(3),
                        syncedRevision: s.optionalInt64(4).map { Int($0) }, moved: s.int64(5) != 0, groupID: s.optionalText(6)))
            }
            return out
        }
    }

    /// How many cards the account shares with the store.
    /// How many of the account's cards are contacts here (not group cards, not cards moved away).
    public func contactCount(account: String) throws -> Int {
        try read { db in
            Int(try db.scalarInt("SELECT count(*) FROM sync_items WHERE account = ? AND contact_id IS NOT NULL", [.text(account)]))
        }
    }

    public func syncItemCount(account: String) throws -> Int {
        try read { db in Int(try db.scalarInt("SELECT count(*) FROM sync_items WHERE account = ?", [.text(account)])) }
    }

    /// The contacts with these ids that are in the store now (not the trash), with their cards.
    /// Many are read on every core, each part in a read of its own (a first sync's multiget
    /// asks for a whole book).
    public func contacts(ids: [String]) throws -> [String: Contact] {
        let parts = Parallel.chunks(ids.count, minimum: 1024) { range in
            Result { () throws -> [(String, Contact)] in
                try read { db in try ids[range].compactMap { id in try Self.fetch(db, id: id, withCard: true).map { (id, $0) } } }
            }
        }
        var out: [String: Contact] = [:]
        out.reserveCapacity(ids.count)
        for part in parts { for (id, c) in try part.get() { out[id] = c } }
        return out
    }

    /// Whether the contact is in the trash.
    public func isTrashed(id: String) throws -> Bool {
        try read { db in try db.scalarInt("SELECT count(*) FROM trash WHERE id = ?", [.text(id)]) > 0 }
    }

    /// A card downloaded from an account, to store.
    public struct Download: Sendable {
        public var href: String
        public var etag: String?
        public var card: String
        public var contact: Contact
        public var photo: PhotoData?
        /// The contact stored differs from the card (a merge of edits on both sides) and is to
        /// be sent back.
        public var pending: Bool
        /// The card says whether the contact is a favorite (Google's starred), and that is
        /// taken; else the flag is this machine's and stays.
        public var carriesFavorite: Bool

        public init(
            href: String, etag: String?, card: String, contact: Contact, photo: PhotoData? = nil, pending: Bool = false,
            carriesFavorite: Bool = false
        ) {
            self.href = href
            self.etag = etag
            self.card = card
            self.contact = contact
            self.photo = photo
            self.pending = pending
            self.carriesFavorite = carriesFavorite
        }
    }

    /// Stores a card `account` has at `href`: the contact it is already (back from the trash
    /// when it was deleted here), else a stored contact of the same UID that no account has,
    /// else a new contact. Its favorite flag is this machine's and stays (unless the card
    /// carries one). Returns the contact.
    public func applyDownload(
        account: String, href: String, etag: String?, card: String, contact incoming: Contact, photo: PhotoData? = nil,
        pending: Bool = false
    ) throws -> Contact {
        let d = Download(href: href, etag: etag, card: card, contact: incoming, photo: photo, pending: pending)
        switch try applyDownloads(account: account, [d])[0] {
        case .success(let c): return c
        case .failure(let e): throw e
        }
    }

    /// Stores a batch of downloaded cards in one transaction (as `applyDownload` stores one);
    /// a card the store refuses (no name, say) is answered with its error, and the others land.
    public func applyDownloads(account: String, _ downloads: [Download]) throws -> [Result<Contact, StoreError>] {
        // The rows of new contacts (search text, phone keys, body) on every core, before the
        // lock; a download that turns out to update a stored contact leaves its row unused.
        let rows = Parallel.chunks(downloads.count, minimum: 64) { r in downloads[r].map { PreparedRow(new: $0.contact) } }.flatMap { $0 }
        return try write(origin: "sync:\(account)") { db, log in
            var out: [Result<Contact, StoreError>] = []
            out.reserveCapacity(downloads.count)
            for (d, row) in zip(downloads, rows) {
                do {
                    out.append(.success(try Self.applyOne(db, account: account, d, row: row, photos: photos, log: &log)))
                } catch let e as StoreError {
                    out.append(.failure(e))
                }
            }
            return out
        }
    }

    private static func applyOne(
        _ db: Database, account: String, _ d: Download, row: PreparedRow? = nil, photos: PhotoStore, log: inout ChangeLog
    ) throws -> Contact {
        let incoming = d.contact
        var linked = try db.scalarText("SELECT contact_id FROM sync_items WHERE account = ? AND href = ?", [.text(account), .text(d.href)])
        var target = try linked.flatMap { try fetch(db, id: $0, withCard: true) }
        if target == nil, !incoming.uid.isEmpty, let same = try fetch(db, uid: incoming.uid) {
            if let other = try db.scalarText(
                "SELECT href FROM sync_items WHERE account = ? AND contact_id = ? AND href <> ?",
                [.text(account), .text(same.id), .text(d.href)])
            {
                // Two cards of one book with one UID: the card moved (deleted at its old name in
                // the same changes, which the caller knows) or a device that lost its sync state
                // made a second one (then the first stays the contact's).
                throw StoreError.sameUID(uid: incoming.uid, href: other, id: same.id)
            }
            if try db.scalarInt("SELECT count(*) FROM sync_items WHERE contact_id = ?", [.text(same.id)]) == 0 { target = same }
        }
        if target == nil, let id = linked, try fetch(db, id: id) == nil {
            // Deleted here, changed there: back from the trash, then the server's version.
            if try undeleteRow(db, id: id, log: &log) { target = try fetch(db, id: id, withCard: true) } else { linked = nil }
        }
        var c = incoming
        if let target {
            c.id = target.id
            c.createdAt = target.createdAt
            if !d.carriesFavorite { c.favorite = target.favorite }
            if c.uid.isEmpty { c.uid = target.uid }
            try validate(c)
            if let photo = d.photo { _ = try photos.put(photo.hash, photo.bytes) }
            if sameContent(c, target) {
                c = target
            } else {
                try rewrite(db, &c, previous: target, log: &log)
            }
        } else {
            try validate(c)
            if let photo = d.photo { _ = try photos.put(photo.hash, photo.bytes) }
            c = try insert(db, incoming, row: row, log: &log)
        }
        try saveItem(
            db, account: account,
            SyncItem(href: d.href, contactID: c.id, etag: d.etag, card: d.card, syncedRevision: d.pending ? 0 : c.revision))
        if linked == nil { log.accountsChanged = true }
        c.account = account
        return c
    }

    /// The server deleted the card at `href`: its contact goes to the trash (origin
    /// `sync:ACCOUNT`) and the item goes. Returns whether a contact went.
    @discardableResult
    public func applyRemoteDeletion(account: String, href: String) throws -> Bool {
        try write(origin: "sync:\(account)") { db, log in
            let id = try db.scalarText("SELECT contact_id FROM sync_items WHERE account = ? AND href = ?", [.text(account), .text(href)])
            // The contact goes to the trash first, remembering its account: brought back, it
            // goes back there.
            let deleted = try id.map { try Self.deleteRow(db, id: $0, origin: "sync:\(account)", log: &log) } ?? false
            try db.prepare("DELETE FROM sync_items WHERE account = ? AND href = ?").run([.text(account), .text(href)])
            return deleted
        }
    }

    /// Records a card the server took: at `href` (moved from `previousHref` when the server
    /// chose another name), with its new tag and the card sent as the next merge's base.
    public func recordUpload(account: String, _ item: SyncItem, previousHref: String? = nil) throws {
        try recordUploads(account: account, [(item, previousHref)])
    }

    /// Records several cards the server took, in one transaction.
    public func recordUploads(account: String, _ uploads: [(item: SyncItem, previousHref: String?)]) throws {
        guard !uploads.isEmpty else { return }
        try write(origin: "sync:\(account)") { db, _ in
            for (item, previousHref) in uploads {
                if let previousHref, previousHref != item.href {
                    try db.prepare("DELETE FROM sync_items WHERE account = ? AND href = ?").run([.text(account), .text(previousHref)])
                }
                try Self.saveItem(db, account: account, item)
                try db.prepare("DELETE FROM sync_intents WHERE account = ? AND href IN (?, ?)").run([
                    .text(account), .text(item.href), .text(previousHref ?? item.href),
                ])
            }
        }
    }

    /// Records a new card the server stored under a name (and UID) of its own choosing, as
    /// Google does: the item moves to `href` with the card as the server keeps it (the base of
    /// later merges), and the contact takes the server's UID, so that the two stay one.
    public func adoptServerCard(
        account: String, href: String, previousHref: String, etag: String?, card: String, contactID: String, uid: String?
    )
        throws
    {
        try write(origin: "sync:\(account)") { db, log in
            guard var c = try Self.fetch(db, id: contactID, withCard: true) else { return }
            if let uid, !uid.isEmpty, uid != c.uid, try Self.fetch(db, uid: uid) == nil {
                let previous = c
                c.uid = uid
                try Self.rewrite(db, &c, previous: previous, log: &log)
            }
            try db.prepare("DELETE FROM sync_items WHERE account = ? AND href = ?").run([.text(account), .text(previousHref)])
            try db.prepare("DELETE FROM sync_intents WHERE account = ? AND href IN (?, ?)").run([
                .text(account), .text(previousHref), .text(href),
            ])
            try Self.saveItem(
                db, account: account, SyncItem(href: href, contactID: c.id, etag: etag, card: card, syncedRevision: c.revision))
        }
    }

    /// The server moved a card from `href` to `newHref` (deleted at one name, put at the other
    /// with the same UID): the item follows, with its contact, tag and base, so that the
    /// card at the new name is an update of the same contact.
    public func moveItem(account: String, from href: String, to newHref: String) throws {
        try write(origin: "sync:\(account)") { db, _ in
            try db.prepare("DELETE FROM sync_items WHERE account = ? AND href = ?").run([.text(account), .text(newHref)])
            try db.prepare("UPDATE sync_items SET href = ? WHERE account = ? AND href = ?").run([
                .text(newHref), .text(account), .text(href),
            ])
            try db.prepare("DELETE FROM sync_intents WHERE account = ? AND href IN (?, ?)").run([
                .text(account), .text(href), .text(newHref),
            ])
        }
    }

    /// Forgets the item at `href` (its card is gone from the server and its contact from here).
    public func forgetItem(account: String, href: String) throws {
        try write(origin: "sync:\(account)") { db, log in
            log.accountsChanged = true
            try db.prepare("DELETE FROM sync_items WHERE account = ? AND href = ?").run([.text(account), .text(href)])
            try db.prepare("DELETE FROM sync_intents WHERE account = ? AND href = ?").run([.text(account), .text(href)])
        }
    }

    /// Makes contacts of this machine members of `account`, each to be uploaded as a new card
    /// at the href `name` gives it. Contacts another account has are left where they are.
    public func addToAccount(_ account: String, ids: [String], href name: (Contact) -> String) throws -> Int {
        try write(origin: "sync:\(account)") { db, log in
            log.accountsChanged = true
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

    /// Moves contacts to `account` (nil: to this machine alone). A card they had on another
    /// account's server is deleted there by that account's next sync; on the new account
    /// they are uploaded as new cards at the href `name` gives. Returns how many moved
    /// (contacts already there are not counted).
    public func moveContacts(ids: [String], to account: String?, href name: (Contact) -> String) throws -> Int {
        try write(origin: CommitOrigin.current) { db, log in
            log.accountsChanged = true
            if let account, try db.scalarInt("SELECT count(*) FROM accounts WHERE name = ?", [.text(account)]) == 0 {
                throw StoreError.notFound(kind: "account", id: account)
            }
            var moved = 0
            for id in ids {
                guard let c = try Self.fetch(db, id: id) else { throw StoreError.notFound(kind: "contact", id: id) }
                let s = try db.prepare("SELECT account, href, etag FROM sync_items WHERE contact_id = ?")
                try s.bind([.text(id)])
                var current: (account: String, href: String, sent: Bool)?
                if try s.step() { current = (s.text(0), s.text(1), s.optionalText(2) != nil) }
                s.reset()
                if current?.account == account { continue }
                if let current {
                    if current.sent {
                        try db.prepare("UPDATE sync_items SET contact_id = NULL, moved = 1 WHERE account = ? AND href = ?").run([
                            .text(current.account), .text(current.href),
                        ])
                    } else {
                        // Never sent: nothing there to delete.
                        try db.prepare("DELETE FROM sync_items WHERE account = ? AND href = ?").run([
                            .text(current.account), .text(current.href),
                        ])
                    }
                }
                if let account {
                    try Self.saveItem(
                        db, account: account, SyncItem(href: name(c), contactID: id, etag: nil, card: nil, syncedRevision: nil))
                }
                moved += 1
            }
            return moved
        }
    }

    /// The contacts of this machine that no account has (not those collected from mail).
    public func localContactIDs() throws -> [String] {
        try read { db in
            let s = try db.prepare(
                "SELECT id FROM contacts WHERE collected = 0 AND id NOT IN (SELECT contact_id FROM sync_items WHERE contact_id IS NOT NULL)"
            )
            var out: [String] = []
            while try s.step() { out.append(s.text(0)) }
            s.reset()
            return out
        }
    }

    /// Notes a write about to be sent, before it is: if its answer is lost, the next sync
    /// checks the server before sending it again.
    public func recordIntent(account: String, _ intent: SyncIntent) throws {
        try recordIntents(account: account, [intent])
    }

    /// Notes several writes about to be sent, in one transaction.
    public func recordIntents(account: String, _ intents: [SyncIntent]) throws {
        guard !intents.isEmpty else { return }
        try write(origin: "sync:\(account)") { db, _ in
            for intent in intents {
                try db.prepare(
                    "INSERT OR REPLACE INTO sync_intents (account, href, contact_id, action, at, digest, revision) VALUES (?, ?, ?, ?, ?, ?, ?)"
                ).run([
                    .text(account), .text(intent.href), intent.contactID.map { .text($0) } ?? .null, .text(intent.action),
                    .int(Timestamp.now()), intent.digest.map { .text($0) } ?? .null, intent.revision.map { .int(Int64($0)) } ?? .null,
                ])
            }
        }
    }

    public func intents(account: String) throws -> [SyncIntent] {
        try read { db in
            let s = try db.prepare("SELECT href, contact_id, action, digest, revision FROM sync_intents WHERE account = ? ORDER BY at")
            try s.bind([.text(account)])
            var out: [SyncIntent] = []
            while try s.step() {
                out.append(
                    SyncIntent(
                        href: s.text(0), contactID: s.optionalText(1), action: s.text(2), digest: s.optionalText(3),
                        revision: s.optionalInt64(4).map { Int($0) }))
            }
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
            INSERT INTO sync_items (account, href, contact_id, etag, card, synced_revision, moved, group_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (account, href) DO UPDATE SET contact_id = excluded.contact_id, etag = excluded.etag, card = excluded.card,
                synced_revision = excluded.synced_revision, moved = excluded.moved, group_id = excluded.group_id
            """
        ).run([
            .text(account), .text(item.href), item.contactID.map { .text($0) } ?? .null, item.etag.map { .text($0) } ?? .null,
            item.card.map { .text($0) } ?? .null, item.syncedRevision.map { .int(Int64($0)) } ?? .null, .int(item.moved ? 1 : 0),
            item.groupID.map { .text($0) } ?? .null,
        ])
    }
}
