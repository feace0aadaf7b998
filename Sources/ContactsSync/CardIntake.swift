import CardDAV
import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation

/// Downloaded cards on their way into the store: gathered as they arrive (from a streamed
/// answer or a multiget) and stored `batch` at a time, each batch in one transaction, so an
/// interrupted download keeps what it stored.
final class CardIntake {
    private let engine: SyncEngine
    private let account: SyncAccount
    private let cancelled: () -> Bool
    private let progress: (SyncProgress) -> Void
    /// How many cards the download brings, once that is known.
    var expected: Int?
    private var pending: [RemoteCard] = []
    private var items: [String: SyncItem]?
    /// The hrefs of the cards taken so far (stored, or reported when they could not be).
    private(set) var seen: Set<String> = []
    /// How many of the cards taken were vCard 4.0, and how many another version.
    private(set) var version4 = 0
    private(set) var otherVersions = 0
    /// The group cards among them, stored once the people are (`flushGroups`).
    private(set) var groupCards: [GroupCardDownload] = []
    /// Cards refused for a UID another card of the book has (`from`): moved there, when the
    /// same changes delete that card (`relink`).
    private(set) var moves: [(card: RemoteCard, from: String, refusal: StoreError)] = []
    /// What storing them did.
    private(set) var report: SyncReport
    private var failure: Error?

    init(engine: SyncEngine, account: SyncAccount, cancelled: @escaping () -> Bool, progress: @escaping (SyncProgress) -> Void) {
        self.engine = engine
        self.account = account
        self.cancelled = cancelled
        self.progress = progress
        report = SyncReport(account: account.name)
    }

    /// What the store knew of the account's cards before this sync.
    func known() throws -> [String: SyncItem] {
        if let items { return items }
        let read = Dictionary(try engine.store.syncItems(account: account.name).map { ($0.href, $0) }) { a, _ in a }
        items = read
        return read
    }

    /// Takes one card; false once taking must stop (the sync is stopping, or storing failed:
    /// `check` says why).
    func take(_ card: RemoteCard) -> Bool {
        guard failure == nil else { return false }
        do {
            if cancelled() { throw SyncStopped() }
            if seen.contains(card.href) {
                // Named twice in one sync (a paged answer): the first is stored before the second is merged.
                try flush()
                items?[card.href] = try engine.store.syncItem(account: account.name, href: card.href)
            }
            seen.insert(card.href)
            if Self.isVersion4(card.data) { version4 += 1 } else { otherVersions += 1 }
            // A card as it was stored (this client's own write, named back) is not stored again.
            if let etag = card.etag, try known()[card.href]?.etag == etag { return true }
            pending.append(card)
            if pending.count >= engine.storeBatch { try flush() }
            return true
        } catch {
            failure = error
            return false
        }
    }

    /// Whether a card says `VERSION:4.0` on a line of its own near its start, where every
    /// producer puts it.
    static func isVersion4(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(256))
        let wanted = Array("VERSION:4.0".utf8)
        guard head.count >= wanted.count else { return false }
        // ASCII case folding is enough: every byte of the name and value is ASCII.
        return (0...(head.count - wanted.count)).contains { start in
            (start == 0 || head[start - 1] == 0x0A)
                && wanted.indices.allSatisfy { i in
                    let b = head[start + i]
                    return (b >= 0x61 && b <= 0x7A ? b - 0x20 : b) == wanted[i]
                }
        }
    }

    /// Stores the group cards taken, after every person is stored (so that their members are).
    func flushGroups() throws {
        try flush()
        for (href, reason) in try engine.store.applyGroupCards(account: account.name, groupCards) {
            report.errors.append(SyncReport.CardError(href: href, status: nil, message: reason))
        }
        groupCards = []
    }

    /// Follows the cards that moved: a card refused for its UID whose other card the same
    /// changes delete (`removed`), or which is gone from the server (`gone`: a card made after
    /// the token and deleted since is in no changes), takes that card's item, and so its
    /// contact, its history and its base for merging local edits; the deletion is then no
    /// deletion. Returns how many stay refused (two cards of one UID on the server), reported.
    func relink(removed: inout [String], gone: (String) throws -> Bool) throws -> Int {
        let found = moves
        moves = []
        var refused = 0
        for (card, from, refusal) in found {
            if let at = removed.firstIndex(of: from) {
                removed.remove(at: at)
            } else if try !gone(from) {
                refused += 1
                report.errors.append(SyncReport.CardError(href: card.href, status: nil, message: "not stored: \(refusal)"))
                continue
            }
            try engine.store.moveItem(account: account.name, from: from, to: card.href)
            _ = try known()
            items?[from] = nil
            items?[card.href] = try engine.store.syncItem(account: account.name, href: card.href)
            pending.append(card)
        }
        try flush()
        return refused
    }

    /// Throws what stopped `take`.
    func check() throws {
        if let failure { throw failure }
    }

    /// Stores the cards taken and not stored yet.
    func flush() throws {
        guard !pending.isEmpty else { return }
        let cards = pending
        pending = []
        defer { progress(SyncProgress(phase: .download, done: seen.count, total: expected)) }
        let items = try known()
        var local = try engine.store.contacts(ids: cards.compactMap { items[$0.href]?.contactID })
        var plain: [ContactStore.Download] = []
        var sources: [RemoteCard] = []
        // Parsing is the larger part of a card's cost and needs nothing of the others: every
        // core reads its share of the batch; merging and storing then go in order.
        let read = Parallel.chunks(cards.count, minimum: 64) { range in cards[range].map(ReadCard.init) }.joined()
        for card in read {
            if let g = SyncEngine.groupCard(card.card) {
                groupCards.append(g)
            } else if let d = try engine.prepare(card, item: items[card.card.href], local: &local, account, &report) {
                plain.append(d)
                sources.append(card.card)
            }
        }
        for ((d, source), result) in zip(zip(plain, sources), try engine.store.applyDownloads(account: account.name, plain)) {
            switch result {
            case .success:
                if items[d.href]?.contactID == nil { report.downloaded.created += 1 } else { report.downloaded.updated += 1 }
            case .failure(let e) where e.sameUIDHref != nil:
                moves.append((source, e.sameUIDHref ?? "", e))
            case .failure(let e):
                report.errors.append(SyncReport.CardError(href: d.href, status: nil, message: "not stored: \(e)"))
            }
        }
    }
}
