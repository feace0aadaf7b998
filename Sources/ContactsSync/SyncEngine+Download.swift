import CardDAV
import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation
import VCard

/// A sync's first half: what changed on the server comes in, merged with local edits against
/// the card as last synced, and stored batch by batch.
extension SyncEngine {
    /// Brings the server's changes in; returns the token to ask from next time.
    ///
    /// The cards come with the list of changes when the backend can send them (one request for
    /// a whole first download, read as it arrives and stored `batch` at a time). When cards of
    /// the account are stored already and there is no token (a first sync cut short, a token
    /// the server forgot), only the listing is asked for, and just the cards missing or
    /// changed are fetched.
    func download(
        _ account: SyncAccount, _ backend: some SyncBackend, _ held: HeldDeletions, _ report: inout SyncReport,
        cancelled: @escaping () -> Bool,
        progress: @escaping (SyncProgress) -> Void
    ) throws -> String? {
        let intake = CardIntake(engine: self, account: account, cancelled: cancelled, progress: progress)
        var token = account.syncToken
        var withCards = try token != nil || store.syncItemCount(account: account.name) == 0
        var changed: [(href: String, etag: String?)] = []
        var removed: [String] = []
        var full = token == nil
        if let stamp = token, stamp.hasPrefix(Self.ctagPrefix) {
            // A book without sync-collection: its ctag says whether anything changed (one
            // request when nothing did), a listing says what.
            let p = try backend.properties()
            if Self.stamp(of: p) != stamp {
                (changed, token) = (try backend.listing(), Self.stamp(of: p))
                full = true
            }
        } else {
            while true {
                let since = token
                let asked = Self.attempt { () throws(DAVError) in
                    try Self.changes(backend, since: since, cards: withCards ? intake.take : nil)
                }
                if case .failure(let e) = asked, token == nil, Self.refusesSyncCollection(e) {
                    // No sync-collection from an empty token (Google refuses one; some books
                    // have none): the collection's own token or ctag, then a listing.
                    let p = try backend.properties()
                    (changed, token) = (try backend.listing(), Self.stamp(of: p))
                    break
                }
                let step = try asked.get()
                try intake.check()
                guard let step else {
                    // The server forgot the token (Radicale 403, Xandikos 412): list everything.
                    token = nil
                    full = true
                    changed = []
                    removed = []
                    withCards = try store.syncItemCount(account: account.name) == 0
                    continue
                }
                changed += step.changed
                removed += step.removed
                token = step.token
                if !step.truncated || step.token == nil { break }
            }
        }
        try intake.flush()
        // What is known of the cards, as it was before this sync (read only when the server named some).
        let items = changed.isEmpty && removed.isEmpty && !full ? [:] : try intake.known()
        if full {
            // A whole listing says a deletion by a card's absence.
            let listed = Set(changed.map(\.href))
            removed = items.values.filter { $0.etag != nil && !listed.contains($0.href) }.map(\.href)
        }
        // Cards named without their data, new or changed since they were stored.
        let wanted = changed.filter { c in
            !intake.seen.contains(c.href) && (items[c.href].map { $0.etag == nil || $0.etag != c.etag } ?? true)
        }.map(\.href)
        if !wanted.isEmpty { intake.expected = intake.seen.count + wanted.count }
        for start in stride(from: 0, to: wanted.count, by: batch) {
            if cancelled() { throw SyncStopped() }
            for card in try backend.fetch(Array(wanted[start..<min(wanted.count, start + batch)])) { _ = intake.take(card) }
            try intake.flush()
        }
        // A card that moved (same UID, new name) is the contact it was; one that still shares
        // its UID with another card is asked for again next time.
        let refused = try intake.relink(removed: &removed) { try backend.get($0) == nil }
        try intake.flushGroups()
        report.add(intake.report)
        // A book that offers vCard 4.0 and holds its cards in it gets 4.0 from here.
        if account.offers4 && intake.version4 + intake.otherVersions > 0 {
            let four = intake.version4 > intake.otherVersions
            if four != account.vcard4 {
                var a = try store.account(named: account.name)
                a.vcard4 = four
                try store.updateAccount(a)
            }
        }
        let local = try store.contacts(ids: removed.compactMap { items[$0]?.contactID })
        let heldBefore = report.held
        try applyRemovals(removed, items: items, local: local, account, held, &report)
        // Held deletions and refused cards are asked for again next time: the token stays where it was.
        return report.held > heldBefore || refused > 0 ? account.syncToken : token
    }

    /// How a book without sync-collection is remembered: its ctag, marked as one.
    static let ctagPrefix = "ctag:"

    /// What to ask from next time after a listing: the book's sync token, else its ctag.
    static func stamp(of p: AddressBookProperties) -> String? {
        p.supportsSyncCollection ? p.syncToken ?? p.ctag.map { ctagPrefix + $0 } : p.ctag.map { ctagPrefix + $0 }
    }

    /// Whether a sync-collection from an empty token was refused as a request (not a failure
    /// to reach or sign in, which a listing would meet too).
    static func refusesSyncCollection(_ error: DAVError) -> Bool {
        guard case .status(let code, _, _, _) = error else { return false }
        return [400, 403, 405, 409, 412, 415, 422, 501].contains(code)
    }

    static func attempt<T>(_ body: () throws(DAVError) -> T) -> Result<T, DAVError> {
        do { return .success(try body()) } catch { return .failure(error) }
    }

    /// The changes since `token`; nil when the server no longer knows it.
    static func changes(_ backend: some SyncBackend, since token: String?, cards: ((RemoteCard) -> Bool)?) throws(DAVError)
        -> RemoteChanges?
    {
        do {
            return try backend.changes(since: token, cards: cards)
        } catch {
            if token != nil && backend.isInvalidToken(error) { return nil }
            throw error
        }
    }

    /// Stores one downloaded card, merged with the contact's local edits when it has some.
    func apply(_ card: RemoteCard, item: SyncItem?, local: inout [String: Contact], _ account: SyncAccount, _ report: inout SyncReport)
        throws
    {
        guard let d = try prepare(ReadCard(card), item: item, local: &local, account, &report) else { return }
        do {
            let stored = try store.applyDownloads(account: account.name, [d])[0].get()
            if item?.contactID == nil { report.downloaded.created += 1 } else { report.downloaded.updated += 1 }
            local[stored.id] = stored
        } catch let e as StoreError {
            report.errors.append(SyncReport.CardError(href: card.href, status: nil, message: "not stored: \(e)"))
        }
    }

    /// What to store of a downloaded card: the server's version, or the merge of it with the
    /// local edits (the server's losing values stored first, so that history keeps them).
    /// Nil for a card not to store (a group card, one that is not a vCard: reported).
    func prepare(_ read: ReadCard, item: SyncItem?, local: inout [String: Contact], _ account: SyncAccount, _ report: inout SyncReport)
        throws -> ContactStore.Download?
    {
        let card = read.card
        let text = read.text
        // A group card (KIND:group, Apple's X-ADDRESSBOOKSERVER-KIND) is not a person: the
        // book's groups stay on the server as they are, and are not made contacts here.
        if case .group? = read.content { return nil }
        guard let parsed = read.vcard, let remote = read.contact else {
            report.errors.append(
                SyncReport.CardError(href: card.href, status: nil, message: "the server's card is not a vCard this store can read"))
            return nil
        }
        var incoming = remote
        var pending = false
        if let item, let id = item.contactID, let mine = local[id], mine.revision != item.syncedRevision {
            // Edited here and there: merged against the card as last synced (never synced: a
            // card someone else put at this name, merged as two versions of one person).
            let base = item.card.flatMap { Self.contact(Data($0.utf8)) }
            let remoteTime = Self.revisionTime(parsed) ?? Timestamp.now()
            let m = ThreeWayMerge.merge(
                base: base, local: mine, remote: remote, remoteIsLater: remoteTime > mine.updatedAt, withFavorite: account.peopleAPI)
            if m.remoteLost {
                // The value that lost goes into the contact's history first.
                _ = try store.applyDownload(
                    account: account.name, href: card.href, etag: card.etag, card: text, contact: remote, photo: read.photo)
            }
            incoming = m.merged
            pending = m.differsFromRemote
            report.merged += 1
            if !m.conflicts.isEmpty { report.conflicts.append(SyncReport.Conflict(id: id, fields: m.conflicts)) }
        }
        if account.groupsLocal, let id = item?.contactID, let mine = local[id] {
            // The book keeps no groups: what it sends says nothing of them.
            incoming.groups = mine.groups
        }
        return ContactStore.Download(
            href: card.href, etag: card.etag, card: text, contact: incoming, photo: read.photo, pending: pending,
            carriesFavorite: account.peopleAPI)
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
            if item.groupID != nil {
                // A group card: its group goes here; not a contact, not counted by the guard.
                try store.applyRemoteGroupDeletion(account: account.name, href: href)
                continue
            }
            if let id = item.contactID, let mine = local[id], mine.revision != item.syncedRevision {
                // Edited here: it stays, and is sent again as new.
                try store.recordUpload(
                    account: account.name, SyncItem(href: href, contactID: id, etag: nil, card: nil, syncedRevision: nil))
                continue
            }
            deletions.append(href)
        }
        if Self.mustHold(deletions.count, of: items.values.filter { $0.groupID == nil }.count) {
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

}
