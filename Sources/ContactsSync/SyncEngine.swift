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
    /// The store, as a sync sees it.
    let store: any SyncStore
    /// Cards per multiget.
    let batch: Int
    /// Cards stored per transaction, when they come with the changes.
    let storeBatch: Int
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

    /// Makes a JPEG of a contact's photo no larger than the side given (in pixels), for a
    /// server that refuses a card's size; nil when it cannot.
    public typealias PhotoShrinker = @Sendable (_ contact: Contact, _ side: Int) -> [UInt8]?
    let smallerPhoto: PhotoShrinker?

    public init(store: any SyncStore, batch: Int = 100, storeBatch: Int = 500, smallerPhoto: PhotoShrinker? = nil) {
        self.store = store
        self.batch = batch
        self.storeBatch = storeBatch
        self.smallerPhoto = smallerPhoto
    }

    /// Syncs `account` with `backend`. Throws when the server cannot be used at all (it could
    /// not be reached, refused the credentials); a card it refuses is in the report.
    public func sync(
        _ account: SyncAccount, with backend: some SyncBackend, held: HeldDeletions = .hold, cancelled: @escaping () -> Bool = { false },
        progress: @escaping (SyncProgress) -> Void = { _ in }
    ) throws -> SyncReport {
        let started = Date()
        var report = SyncReport(account: account.name)
        let requestsBefore = backend.requests
        do {
            try checkIntents(account, backend, &report)
            var token = try download(account, backend, held, &report, cancelled: cancelled, progress: progress)
            // What was stored is not asked for again, even if sending fails.
            try store.recordToken(account: account.name, token: token)
            // What the download learnt of the book (its vCard version, its groups) counts for the upload.
            if !account.readOnly {
                let current = try store.account(named: account.name)
                let sent = report.uploaded
                try upload(current, backend, held, &report, cancelled: cancelled, progress: progress)
                try uploadGroupCards(current, backend, &report)
                if report.uploaded != sent, let stamp = token, !stamp.hasPrefix(Self.ctagPrefix) {
                    // A token from before these writes does not know them: a card sent now and
                    // deleted elsewhere before the next sync would be in no later changes
                    // (Xandikos and Radicale leave out a card made and deleted since a token).
                    // Asked once more, the changes are these writes (known, skipped) and
                    // whatever others did meanwhile.
                    token = try download(
                        try store.account(named: account.name), backend, held, &report, cancelled: cancelled, progress: progress)
                }
            }
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
    /// landed. A card that is there byte for byte as it was sent is recorded as uploaded (the
    /// base of later merges); a deletion that landed is recorded as done. Anything else (not
    /// there, or a card someone else wrote over it or restored at that name) leaves the item
    /// as it was: the download then merges the server's card against the last one synced,
    /// and whatever is still to send goes again.
    func checkIntents(_ account: SyncAccount, _ backend: some SyncBackend, _ report: inout SyncReport) throws {
        for intent in try store.intents(account: account.name) {
            let there = try backend.get(intent.href)
            switch intent.action {
            case "delete":
                if there == nil { try store.forgetItem(account: account.name, href: intent.href) }
            default:
                if let there, let id = intent.contactID, let c = try store.contacts(ids: [id])[id],
                    try landed(there.data, intent, current: c, account)
                {
                    // Edited again since it was sent: still an edit to send.
                    let revision = intent.revision.map { $0 == c.revision ? c.revision : 0 } ?? 0
                    try store.recordUpload(
                        account: account.name,
                        SyncItem(
                            href: intent.href, contactID: id, etag: there.etag, card: String(decoding: there.data, as: UTF8.self),
                            syncedRevision: revision))
                }
            }
            try store.clearIntent(account: account.name, href: intent.href)
        }
    }

    /// Whether the server's card is the one `intent` sent: the same bytes, or (for a server
    /// that writes what it keeps anew, as Radicale does) the same contact as the card sent,
    /// made again from the contact's revision it was made from.
    func landed(_ data: Data, _ intent: SyncIntent, current: Contact, _ account: SyncAccount) throws -> Bool {
        guard let digest = intent.digest else { return false }
        if SHA256.hex(data) == digest { return true }
        guard let revision = intent.revision,
            let sent = revision == current.revision ? current : try? store.contact(id: current.id, revision: revision)
        else { return false }
        let again = card(sent, account)
        guard SHA256.hex(again) == digest, var mine = Self.contact(again), var theirs = Self.contact(data) else {
            return false
        }
        // The order of a card's lines says nothing.
        mine.vcardProperties = mine.vcardProperties.map(Self.inOrder)
        theirs.vcardProperties = theirs.vcardProperties.map(Self.inOrder)
        return ContactField.changes(mine, theirs).allSatisfy { $0 == "favorite" }
    }

    /// A card's properties by name, each name's in the order they came, where they began forgotten.
    static func inOrder(_ properties: [VCardProperty]) -> [VCardProperty] {
        properties.enumerated().sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }.map {
            var p = $0.element
            p.line = 0
            return p
        }
    }

    static func mustHold(_ deletions: Int, of total: Int) -> Bool {
        deletions > deletionFloor && Double(deletions) > Double(total) * deletionShare
    }

    // MARK: Cards

    /// A card's contact, nil when it holds no vCard of a person.
    static func contact(_ data: Data) -> Contact? {
        VCardParser.parse([UInt8](data)).cards.first.flatMap { try? CardContent($0) }?.contact
    }

    /// The card's `REV`, in milliseconds, when it has one.
    static func revisionTime(_ card: VCard) -> Int64? {
        card.first("REV").flatMap { Timestamp.parseRevision($0.text) }
    }
}

/// A sync stopped between batches because the daemon is stopping.
public struct SyncStopped: Error, Sendable {}
