import ContactsCore
import ContactsStore
import VCard

/// What a sync needs of the store, and nothing more: the account and its items, the contacts
/// they stand for, what a download, an upload and a deletion change, and the intent journal.
/// The engine sees the store through this alone (as the CardDAV face sees it through
/// `ServedBooks`), so that what a sync may do to the contacts is listed here.
public protocol SyncStore: Sendable {
    // MARK: The account
    func account(named name: String) throws -> SyncAccount
    func updateAccount(_ a: SyncAccount) throws
    func recordSync(account: String, token: String?, error: String?) throws
    func recordToken(account: String, token: String?) throws

    // MARK: Its items
    func syncItems(account: String) throws -> [SyncItem]
    func syncItem(account: String, href: String) throws -> SyncItem?
    func syncItemCount(account: String) throws -> Int
    /// The items whose contacts changed since they were last in sync, and the contacts of the
    /// account no item stands for yet.
    func pendingItems(account: String) throws -> [SyncItem]
    func forgetItem(account: String, href: String) throws
    func moveItem(account: String, from href: String, to newHref: String) throws

    // MARK: The contacts
    /// The contacts with these ids that are in the store now, with their cards.
    func contacts(ids: [String]) throws -> [String: Contact]
    /// A contact as it was at a revision.
    func contact(id: String, revision: Int) throws -> Contact
    /// The properties a contact's card is written with, its photo's bytes in place.
    func cardProperties(for c: Contact) -> [VCardProperty]
    func undelete(ids: [String], origin: String) throws -> (restored: [String], notFound: [String])

    // MARK: What a sync changes
    func applyDownload(
        account: String, href: String, etag: String?, card: String, contact incoming: Contact, photo: PhotoData?, pending: Bool
    ) throws -> Contact
    func applyDownloads(account: String, _ downloads: [ContactStore.Download]) throws -> [Result<Contact, StoreError>]
    func applyRemoteDeletion(account: String, href: String) throws -> Bool
    func applyGroupCards(account: String, _ cards: [GroupCardDownload]) throws -> [(href: String, reason: String)]
    func applyRemoteGroupDeletion(account: String, href: String) throws
    func groupCardStates(account: String) throws -> [GroupCardState]
    func recordUpload(account: String, _ item: SyncItem, previousHref: String?) throws
    func recordUploads(account: String, _ uploads: [(item: SyncItem, previousHref: String?)]) throws
    func adoptServerCard(
        account: String, href: String, previousHref: String, etag: String?, card: String, contactID: String, uid: String?) throws

    // MARK: The intent journal
    func intents(account: String) throws -> [SyncIntent]
    func recordIntent(account: String, _ intent: SyncIntent) throws
    func recordIntents(account: String, _ intents: [SyncIntent]) throws
    func clearIntent(account: String, href: String) throws
}

extension ContactStore: SyncStore {}

extension SyncStore {
    /// An item that took the place of none.
    func recordUpload(account: String, _ item: SyncItem) throws { try recordUpload(account: account, item, previousHref: nil) }

    /// A download with no local edits to send back.
    func applyDownload(account: String, href: String, etag: String?, card: String, contact: Contact, photo: PhotoData?) throws
        -> Contact
    {
        try applyDownload(account: account, href: href, etag: etag, card: card, contact: contact, photo: photo, pending: false)
    }
}
