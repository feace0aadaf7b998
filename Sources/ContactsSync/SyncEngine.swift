import CardDAV
import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation
import VCard

/// One two-way sync of one account, as SYNC.md lays it out: writes whose answer was lost are
/// checked first; then what changed on the server since the last token is downloaded in
/// batches and stored batch by batch (merged with local edits against the last synced card);
/// then local edits, new contacts and deletions are sent with their preconditions. Nothing
/// either side wrote is dropped: a value that loses a conflict stays in the contact's history.
public final class SyncEngine: Sendable {
    let store: ContactStore
    /// Cards per multiget.
    let batch: Int
    /// A sync deletes at most this many contacts on either side without confirmation...
    static let deletionFloor = 10
    /// ...or this share of the account's, whichever is more.
    static let deletionShare = 0.25

    /// What to do with deletions the guard holds back.
    public enum HeldDeletions: Sendable {
        /// Keep holding them (the default).
        case hold
        /// Carry them out.
        case confirm
        /// Undo them: a card the server deleted goes back up, a contact deleted here comes
        /// back from the trash.
        case reject
    }

    public init(store: ContactStore, batch: Int = 100) {
        self.store = store
        self.batch = batch
    }

    /// Syncs `account` with `backend`. Throws when the server cannot be used at all (it could
    /// not be reached, refused the credentials); a card it refuses is in the report.
    public func sync(
        _ account: SyncAccount, with backend: some SyncBackend, held: HeldDeletions = .hold, cancelled: () -> Bool = { false }
    ) throws -> SyncReport {
        let started = Date()
        var report = SyncReport(account: account.name)
        let requestsBefore = backend.requests
        do {
            try checkIntents(account, backend, &report)
            let token = try download(account, backend, held, &report, cancelled: cancelled)
            if !account.readOnly { try upload(account, backend, held, &report, cancelled: cancelled) }
            try store.recordSync(account: account.name, token: token, error: nil)
        } catch let e as DAVError {
            try? store.recordSync(account: account.name, token: nil, error: e.description)
            throw e
        }
        report.requests = backend.requests - requestsBefore
        report.durationMs = Int(Date().timeIntervalSince(started) * 1000)
        return report
    }

    // MARK: Writes whose answer was lost

    /// A write was sent and its answer never seen: what the server has now says whether it
    /// landed. A card that is there with the contact's UID is recorded as uploaded; a deletion
    /// that landed is recorded as done; anything else is sent again by this sync.
    func checkIntents(_ account: SyncAccount, _ backend: some SyncBackend, _ report: inout SyncReport) throws {
        for intent in try store.intents(account: account.name) {
            let there = try backend.get(intent.href)
            switch intent.action {
            case "delete":
                if there == nil { try store.forgetItem(account: account.name, href: intent.href) }
            default:
                if let there, let id = intent.contactID, let c = try store.contacts(ids: [id])[id], let remote = Self.parse(there.data),
                    remote.contact.uid == c.uid
                {
                    try store.recordUpload(
                        account: account.name,
                        SyncItem(
                            href: intent.href, contactID: id, etag: there.etag, card: String(decoding: there.data, as: UTF8.self),
                            syncedRevision: ContactField.changes(remote.contact, c).filter { $0 != "favorite" && $0 != "properties" }
                                .isEmpty
                                ? c.revision : 0))
                }
            }
            try store.clearIntent(account: account.name, href: intent.href)
        }
    }

    // MARK: Download

    /// Brings the server's changes in; returns the token to ask from next time.
    func download(
        _ account: SyncAccount, _ backend: some SyncBackend, _ held: HeldDeletions, _ report: inout SyncReport, cancelled: () -> Bool
    ) throws -> String? {
        var token = account.syncToken
        var changed: [(href: String, etag: String?)] = []
        var removed: [String] = []
        var full = token == nil
        while true {
            guard let step = try Self.changes(backend, since: token) else {
                // The server forgot the token (Radicale 403, Xandikos 412): list everything.
                token = nil
                full = true
                changed = []
                removed = []
                continue
            }
            changed += step.changed
            removed += step.removed
            token = step.token
            if !step.truncated || step.token == nil { break }
        }
        // What is known of the cards (read only when the server named some).
        let items =
            changed.isEmpty && removed.isEmpty && !full
            ? [:] : Dictionary(try store.syncItems(account: account.name).map { ($0.href, $0) }) { a, _ in a }
        if full {
            // A whole listing says a deletion by a card's absence.
            let listed = Set(changed.map(\.href))
            removed = items.values.filter { $0.etag != nil && !listed.contains($0.href) }.map(\.href)
        }
        let wanted = changed.filter { c in items[c.href].map { $0.etag == nil || $0.etag != c.etag } ?? true }.map(\.href)
        // The contacts those cards are here, read once.
        let ids = (wanted + removed).compactMap { items[$0]?.contactID }
        var local = try store.contacts(ids: ids)
        for start in stride(from: 0, to: wanted.count, by: batch) {
            if cancelled() { throw SyncStopped() }
            let cards = try backend.fetch(Array(wanted[start..<min(wanted.count, start + batch)]))
            // Cards edited only there are stored together, in one transaction per batch.
            var plain: [ContactStore.Download] = []
            for card in cards {
                if let d = try prepare(card, item: items[card.href], local: &local, account, &report) { plain.append(d) }
            }
            for (d, result) in zip(plain, try store.applyDownloads(account: account.name, plain)) {
                switch result {
                case .success(let stored):
                    if items[d.href]?.contactID == nil { report.downloaded.created += 1 } else { report.downloaded.updated += 1 }
                    local[stored.id] = stored
                case .failure(let e):
                    report.errors.append(SyncReport.CardError(href: d.href, status: nil, message: "not stored: \(e)"))
                }
            }
        }
        let heldBefore = report.held
        try applyRemovals(removed, items: items, local: local, account, held, &report)
        // Held deletions are asked for again next time: the token stays where it was.
        return report.held > heldBefore ? account.syncToken : token
    }

    static func attempt<T>(_ body: () throws(DAVError) -> T) -> Result<T, DAVError> {
        do { return .success(try body()) } catch { return .failure(error) }
    }

    /// The changes since `token`; nil when the server no longer knows it.
    static func changes(_ backend: some SyncBackend, since token: String?) throws(DAVError) -> RemoteChanges? {
        do {
            return try backend.changes(since: token)
        } catch {
            if token != nil && backend.isInvalidToken(error) { return nil }
            throw error
        }
    }

    /// Stores one downloaded card, merged with the contact's local edits when it has some.
    func apply(_ card: RemoteCard, item: SyncItem?, local: inout [String: Contact], _ account: SyncAccount, _ report: inout SyncReport)
        throws
    {
        guard let d = try prepare(card, item: item, local: &local, account, &report) else { return }
        do {
            let stored = try store.applyDownload(
                account: account.name, href: d.href, etag: d.etag, card: d.card, contact: d.contact, photo: d.photo, pending: d.pending)
            if item?.contactID == nil { report.downloaded.created += 1 } else { report.downloaded.updated += 1 }
            local[stored.id] = stored
        } catch let e as StoreError {
            report.errors.append(SyncReport.CardError(href: card.href, status: nil, message: "not stored: \(e)"))
        }
    }

    /// What to store of a downloaded card: the server's version, or the merge of it with the
    /// local edits (the server's losing values stored first, so that history keeps them).
    /// Nil for a card not to store (a group card, one that is not a vCard: reported).
    func prepare(_ card: RemoteCard, item: SyncItem?, local: inout [String: Contact], _ account: SyncAccount, _ report: inout SyncReport)
        throws -> ContactStore.Download?
    {
        let text = String(decoding: card.data, as: UTF8.self)
        // A group card (KIND:group, Apple's X-ADDRESSBOOKSERVER-KIND) is not a person: the
        // book's groups stay on the server as they are, and are not made contacts here.
        let parsed = VCardParser.parse([UInt8](card.data)).cards.first
        if let parsed, Self.isGroupCard(parsed) { return nil }
        guard let parsed, let (remote, photo) = try? VCardMapping.contactWithPhoto(from: parsed) else {
            report.errors.append(
                SyncReport.CardError(href: card.href, status: nil, message: "the server's card is not a vCard this store can read"))
            return nil
        }
        var incoming = remote
        var pending = false
        if let item, let id = item.contactID, let mine = local[id], item.etag != nil, mine.revision != item.syncedRevision {
            // Edited here and there: merged against the card as last synced.
            let base = item.card.flatMap { Self.parse(Data($0.utf8))?.contact }
            let remoteTime = Self.revisionTime(parsed) ?? Timestamp.now()
            let m = ThreeWayMerge.merge(base: base, local: mine, remote: remote, remoteIsLater: remoteTime > mine.updatedAt)
            if m.remoteLost {
                // The value that lost goes into the contact's history first.
                _ = try store.applyDownload(
                    account: account.name, href: card.href, etag: card.etag, card: text, contact: remote, photo: photo)
            }
            incoming = m.merged
            pending = m.differsFromRemote
            report.merged += 1
            if !m.conflicts.isEmpty { report.conflicts.append(SyncReport.Conflict(id: id, fields: m.conflicts)) }
        }
        return ContactStore.Download(href: card.href, etag: card.etag, card: text, contact: incoming, photo: photo, pending: pending)
    }

    /// Cards deleted on the server: their contacts go to the trash, unless edited here (then
    /// they go back up as new cards), or unless there are so many that they wait for a yes.
    func applyRemovals(
        _ removed: [String], items: [String: SyncItem], local: [String: Contact], _ account: SyncAccount, _ held: HeldDeletions,
        _ report: inout SyncReport
    ) throws {
        var deletions: [String] = []
        for href in removed {
            guard let item = items[href] else { continue }
            if let id = item.contactID, let mine = local[id], mine.revision != item.syncedRevision {
                // Edited here: it stays, and is sent again as new.
                try store.recordUpload(
                    account: account.name, SyncItem(href: href, contactID: id, etag: nil, card: nil, syncedRevision: nil))
                continue
            }
            deletions.append(href)
        }
        if Self.mustHold(deletions.count, of: items.count) {
            switch held {
            case .hold:
                report.held += deletions.count
                return
            case .reject:
                // Each goes back up as a new card.
                for href in deletions {
                    guard let id = items[href]?.contactID else { continue }
                    try store.recordUpload(
                        account: account.name, SyncItem(href: href, contactID: id, etag: nil, card: nil, syncedRevision: nil))
                }
                return
            case .confirm: break
            }
        }
        for href in deletions where try store.applyRemoteDeletion(account: account.name, href: href) {
            report.downloaded.deleted += 1
        }
    }

    static func mustHold(_ deletions: Int, of total: Int) -> Bool {
        deletions > deletionFloor && Double(deletions) > Double(total) * deletionShare
    }

    // MARK: Cards

    /// A card's contact and photo, nil when it holds no vCard.
    static func parse(_ data: Data) -> (contact: Contact, photo: PhotoData?)? {
        let parsed = VCardParser.parse([UInt8](data))
        guard let card = parsed.cards.first, let (c, photo) = try? VCardMapping.contactWithPhoto(from: card) else { return nil }
        return (c, photo)
    }

    /// A group card (`KIND:group`, Apple's `X-ADDRESSBOOKSERVER-KIND:group`), as the importer tells them.
    static func isGroupCard(_ card: VCard) -> Bool {
        (card.first("KIND") ?? card.first("X-ADDRESSBOOKSERVER-KIND"))?.text.lowercased() == "group"
    }

    /// The card's `REV`, in milliseconds, when it has one.
    static func revisionTime(_ card: VCard) -> Int64? {
        card.first("REV").flatMap { Timestamp.parseRevision($0.text) }
    }
}

/// A sync stopped between batches because the daemon is stopping.
public struct SyncStopped: Error, Sendable {}
