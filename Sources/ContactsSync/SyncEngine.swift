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

    public init(store: ContactStore, batch: Int = 100, storeBatch: Int = 500, smallerPhoto: PhotoShrinker? = nil) {
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
            let token = try download(account, backend, held, &report, cancelled: cancelled, progress: progress)
            // What the download learnt of the book (its vCard version, its groups) counts for the upload.
            if !account.readOnly {
                let current = try store.account(named: account.name)
                try upload(current, backend, held, &report, cancelled: cancelled, progress: progress)
                try uploadGroupCards(current, backend, &report)
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
