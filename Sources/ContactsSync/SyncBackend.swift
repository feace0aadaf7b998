import CardDAV
import Foundation

/// Where an account's cards live, as the sync engine sees it: a CardDAV address book today;
/// a folder of `.vcf` files is another backend of the same engine.
public protocol SyncBackend: Sendable {
    /// What changed since `token` (nil: everything). Throws, with `isInvalidToken` saying so,
    /// when the token is no longer known. With `cards`, the changed cards the backend can send
    /// along go there as they arrive (false stops); the others are fetched.
    func changes(since token: String?, cards: ((RemoteCard) -> Bool)?) throws(DAVError) -> RemoteChanges
    func isInvalidToken(_ error: DAVError) -> Bool
    /// The collection's own token, ctag and reports (for a book without sync-collection).
    func properties() throws(DAVError) -> AddressBookProperties
    /// Every card's href and entity tag.
    func listing() throws(DAVError) -> [(href: String, etag: String?)]
    /// The cards at `hrefs`, in one request; missing ones are left out.
    func fetch(_ hrefs: [String]) throws(DAVError) -> [RemoteCard]
    func get(_ href: String) throws(DAVError) -> RemoteCard?
    /// Writes a card: new with `etag` nil (refused if one is there), else only over that version.
    func put(_ href: String, _ data: Data, etag: String?) throws(DAVError) -> WriteResult
    func delete(_ href: String, etag: String?) throws(DAVError) -> WriteResult
    func hrefForNewCard(uid: String) -> String
    /// Requests sent so far.
    var requests: Int { get }
    /// How many writes `write` sends in one request (1: each its own).
    var writeBatch: Int { get }
    /// Sends writes together where the server takes them so (Google's batches); the answers
    /// in the order given. By default each is a `put` or `delete` of its own.
    func write(_ batch: [CardWrite]) -> [Result<WriteResult, DAVError>]
}

/// One write of a batch: a card to put (new when `etag` is nil) or, without data, a deletion.
public struct CardWrite: Sendable {
    public var href: String
    public var data: Data?
    public var etag: String?
    /// The card as last synced: a backend that writes only the fields that changed reads
    /// which did from it.
    public var base: String?

    public init(href: String, data: Data?, etag: String?, base: String?) {
        (self.href, self.data, self.etag, self.base) = (href, data, etag, base)
    }
}

extension SyncBackend {
    public var writeBatch: Int { 1 }

    public func write(_ batch: [CardWrite]) -> [Result<WriteResult, DAVError>] {
        batch.map { w in
            SyncEngine.attempt { () throws(DAVError) in
                if let data = w.data { return try put(w.href, data, etag: w.etag) }
                return try delete(w.href, etag: w.etag)
            }
        }
    }
}

extension AddressBookClient: SyncBackend {
    public func isInvalidToken(_ error: DAVError) -> Bool { Self.isInvalidToken(error) }
    public func fetch(_ hrefs: [String]) throws(DAVError) -> [RemoteCard] { try multiget(hrefs) }
    public func put(_ href: String, _ data: Data, etag: String?) throws(DAVError) -> WriteResult {
        try put(href, data, etag: etag, version: "3.0")
    }
    public var requests: Int { http.requests }
}
