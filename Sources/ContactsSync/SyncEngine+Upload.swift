import CardDAV
import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation
import VCard

/// A sync's second half: what changed here goes to the server, each write with its
/// precondition and noted in the journal before it is sent.
extension SyncEngine {
    /// Sends new contacts, edits and deletions made here since the last sync.
    func upload(
        _ account: SyncAccount, _ backend: some SyncBackend, _ held: HeldDeletions, _ report: inout SyncReport, cancelled: () -> Bool,
        progress: (SyncProgress) -> Void
    ) throws {
        var items = try store.pendingItems(account: account.name)
        guard !items.isEmpty else { return }
        let total = try store.syncItemCount(account: account.name)
        var local = try store.contacts(ids: items.compactMap(\.contactID))
        // Deleted here (a card whose contact was moved away is not a deletion to hold: it was asked for).
        var gone = items.filter { item in !item.moved && item.etag != nil && item.contactID.map { local[$0] == nil } ?? true }
        if held == .reject && Self.mustHold(gone.count, of: total) {
            // The contacts deleted here come back from the trash, and nothing is deleted there.
            _ = try store.undelete(ids: gone.compactMap(\.contactID), origin: "sync:\(account.name)")
            items = try store.pendingItems(account: account.name)
            local = try store.contacts(ids: items.compactMap(\.contactID))
            gone = []
        }
        let hold = held == .hold && Self.mustHold(gone.count, of: total)
        // What each item needs, in order.
        var steps: [UploadStep] = []
        var unchanged: [(item: SyncItem, previousHref: String?)] = []
        for item in items {
            if let id = item.contactID, let c = local[id] {
                guard item.etag == nil || c.revision != item.syncedRevision else { continue }
                let data = card(c, account)
                if item.etag != nil, let base = item.card, Self.sameCard(base, data, account) {
                    // Only what the book does not keep changed (groups on a book without them):
                    // nothing to send, the contact is in step as it is.
                    var synced = item
                    synced.syncedRevision = c.revision
                    unchanged.append((synced, nil))
                    continue
                }
                steps.append(.send(c, item, data))
            } else if item.etag != nil {
                steps.append(hold && !item.moved ? .hold : .delete(item))
            } else {
                steps.append(.forget(item))
            }
        }
        // Every write about to go out is noted first, with the digest of the card it sends, all
        // in one transaction; what the server took is recorded fifty at a time (a crash between
        // the two leaves the notes, which the next sync checks against the server).
        try store.recordIntents(
            account: account.name,
            steps.compactMap { step in
                switch step {
                case .send(let c, let item, let data): Self.intent(item, c, data)
                case .delete(let item): SyncIntent(href: item.href, contactID: item.contactID, action: "delete")
                case .hold, .forget: nil
                }
            })
        try store.recordUploads(account: account.name, unchanged)
        // The next write is sent while the answer to the one before is recorded; one at a
        // time, since servers serialise writes to a collection (two in flight made Radicale
        // 1.7 times slower, measured). Writes in a row go together, as many as the backend
        // takes in one request.
        let writes = steps
        let batches = Self.batches(writes.map { $0.write != nil }, size: backend.writeBatch)
        let pipeline = OrderedPipeline<[Result<WriteResult, DAVError>?]>(
            count: batches.count, window: 1, workers: 1, name: "sync-upload"
        ) { b in
            var answers = backend.write(batches[b].compactMap { writes[$0].write })[...]
            return batches[b].map { writes[$0].write == nil ? nil : answers.popFirst() }
        }
        defer { pipeline.cancel() }
        var done: [(item: SyncItem, previousHref: String?)] = []
        defer { try? store.recordUploads(account: account.name, done) }
        for range in batches {
            let results = pipeline.next() ?? []
            if cancelled() { throw SyncStopped() }
            for n in range {
                let step = writes[n]
                let result = n - range.lowerBound < results.count ? results[n - range.lowerBound] : nil
                if n % 100 == 0 && n > 0 { progress(SyncProgress(phase: .upload, done: n, total: writes.count)) }
                if done.count >= 50 {
                    try store.recordUploads(account: account.name, done)
                    done = []
                }
                switch (step, result) {
                case (.send(let c, let item, let data), let result?):
                    try handle(result, of: c, item, data, account, backend, &report, &done)
                case (.delete(let item), let result?):
                    try handleDeletion(result.get(), item, account, backend, &report)
                case (.hold, _):
                    report.held += 1
                case (.forget(let item), _):
                    try store.forgetItem(account: account.name, href: item.href)
                default: break
                }
            }
        }
        try store.recordUploads(account: account.name, done)
        done = []
        progress(SyncProgress(phase: .upload, done: writes.count, total: writes.count))
    }

    /// Indices of steps in the order given, cut into runs of at most `size` writes in a row;
    /// a step that is no write is a run of its own.
    static func batches(_ isWrite: [Bool], size: Int) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var i = 0
        while i < isWrite.count {
            var j = i + 1
            if isWrite[i] { while j < isWrite.count && j - i < max(1, size) && isWrite[j] { j += 1 } }
            out.append(i..<j)
            i = j
        }
        return out
    }

    /// The note of a card about to be sent for `item`: new when it was never sent, else an edit.
    static func intent(_ item: SyncItem, _ c: Contact, _ data: Data) -> SyncIntent {
        SyncIntent(
            href: item.href, contactID: c.id, action: item.etag == nil ? "create" : "update", digest: SHA256.hex(data), revision: c.revision
        )
    }

    /// The card a contact goes up as: vCard 4.0 for a book that offers it and keeps its
    /// cards in it, else 3.0 (what every server takes). With `photo`, that JPEG stands in for
    /// the stored photo (a smaller one, for a server that refused the card's size).
    func card(_ c: Contact, _ account: SyncAccount, photo: [UInt8]? = nil) -> Data {
        var properties = store.cardProperties(for: c)
        if let photo {
            var smaller = c
            smaller.photo = .stored(hash: "smaller", mimeType: "image/jpeg", width: nil, height: nil)
            properties = VCardMapping.attachPhotos(VCardMapping.properties(for: smaller)) { _ in photo }
        }
        var text = ""
        VCardWriter.write(VCard(properties: properties), version: account.vcard4 ? .v4 : .v3, into: &text)
        return Data(text.utf8)
    }

    /// A card the server refused for its size (413, `max-resource-size`) sent again with a
    /// smaller photo, 640 then 320 pixels on its longer side; the photo here stays as it is.
    /// Nil when the contact has no stored photo to make smaller.
    func sendSmaller(
        _ c: Contact, _ item: SyncItem, _ account: SyncAccount, _ backend: some SyncBackend, _ data: inout Data
    ) throws -> Result<WriteResult, DAVError>? {
        guard let shrink = smallerPhoto, case .stored? = c.photo else { return nil }
        var outcome: Result<WriteResult, DAVError>?
        for side in [640, 320] {
            guard let jpeg = shrink(c, side) else { break }
            let smaller = card(c, account, photo: jpeg)
            try store.recordIntent(account: account.name, Self.intent(item, c, smaller))
            outcome = Self.attempt { () throws(DAVError) in try backend.put(item.href, smaller, etag: item.etag) }
            if case .success = outcome {
                data = smaller
                break
            }
            guard case .failure(let e)? = outcome, Self.isTooLarge(e) else { break }
        }
        return outcome
    }

    /// Whether the card a contact would go up as says what the book's card says already: both
    /// read alike, field by field (groups aside for a book without groups).
    static func sameCard(_ base: String, _ outgoing: Data, _ account: SyncAccount) -> Bool {
        guard var before = contact(Data(base.utf8)), var now = contact(outgoing) else { return false }
        if account.groupsLocal {
            before.vcardProperties?.removeAll { $0.name.uppercased() == "CATEGORIES" }
            now.vcardProperties?.removeAll { $0.name.uppercased() == "CATEGORIES" }
            before.groups = now.groups
        }
        return ContactField.changes(before, now).isEmpty
    }

    static func isTooLarge(_ e: DAVError) -> Bool {
        guard case .status(let code, _, let message, _) = e else { return false }
        return code == 413 || message.contains("max-resource-size")
    }

    /// What the server said to a contact sent new (`If-None-Match: *`) or as an edit
    /// (`If-Match`). When it has another version (412), that version is downloaded, merged,
    /// and the merge sent once more.
    func handle(
        _ first: Result<WriteResult, DAVError>, of c: Contact, _ item: SyncItem, _ data: Data, _ account: SyncAccount,
        _ backend: some SyncBackend, _ report: inout SyncReport, _ done: inout [(item: SyncItem, previousHref: String?)]
    ) throws {
        var item = item
        var contact = c
        var data = data
        var outcome = first
        for attempt in 0..<2 {
            if attempt > 0 {
                try store.recordIntent(account: account.name, Self.intent(item, contact, data))
                outcome =
                    backend.write([CardWrite(href: item.href, data: data, etag: item.etag, base: item.card)]).first
                    ?? .failure(.malformed("no answer to a write"))
            }
            if case .failure(let e) = outcome, Self.isTooLarge(e), let smaller = try sendSmaller(contact, item, account, backend, &data) {
                outcome = smaller
            }
            let result: WriteResult
            switch outcome {
            case .success(let r): result = r
            case .failure(let e) where e.isTransient: throw e
            case .failure(let e):
                // The server refuses this card (too large, invalid for it): the rest go on.
                try store.clearIntent(account: account.name, href: item.href)
                report.errors.append(SyncReport.CardError(href: item.href, status: e.status, message: e.description))
                return
            }
            switch result {
            case .written(let href, var etag):
                if href != item.href, let there = try backend.get(href) {
                    // The server chose another name, and perhaps another UID (Google): both
                    // are followed, and the card as it keeps it is the base of later merges.
                    let kept = Self.contact(there.data)
                    if let kept, !contact.groups.isEmpty, kept.groups.isEmpty, !account.groupsLocal {
                        // It dropped the groups: a book without groups keeps them here.
                        var a = try store.account(named: account.name)
                        a.groupsLocal = true
                        try store.updateAccount(a)
                    }
                    try store.adoptServerCard(
                        account: account.name, href: href, previousHref: item.href, etag: there.etag ?? etag,
                        card: String(decoding: there.data, as: UTF8.self), contactID: contact.id, uid: kept?.uid)
                    report.uploaded.created += 1
                    return
                }
                if etag == nil { etag = try backend.get(href)?.etag }
                done.append(
                    (
                        SyncItem(
                            href: href, contactID: contact.id, etag: etag, card: String(decoding: data, as: UTF8.self),
                            syncedRevision: contact.revision), item.href
                    ))
                if item.etag == nil { report.uploaded.created += 1 } else { report.uploaded.updated += 1 }
                return
            case .preconditionFailed:
                try store.clearIntent(account: account.name, href: item.href)
                guard attempt == 0 else { break }
                guard let there = try backend.get(item.href) else {
                    // Deleted there, edited here: it stays, and goes up again as new.
                    guard item.etag != nil else { break }
                    item = SyncItem(href: item.href, contactID: contact.id, etag: nil, card: nil, syncedRevision: nil)
                    continue
                }
                var local = [contact.id: contact]
                try apply(
                    there,
                    item: SyncItem(
                        href: item.href, contactID: contact.id, etag: item.etag ?? "", card: item.card,
                        syncedRevision: item.etag == nil ? 0 : item.syncedRevision), local: &local, account, &report)
                guard let merged = local[contact.id],
                    let fresh = try store.syncItem(account: account.name, href: item.href)
                else { return }
                if fresh.syncedRevision == merged.revision { return }
                contact = merged
                item = fresh
                data = card(merged, account)
            }
        }
        report.errors.append(
            SyncReport.CardError(href: item.href, status: 412, message: "changed on the server while being sent; the next sync tries again")
        )
    }

    /// What the server said to a deletion made here, sent with `If-Match`: a card edited on
    /// the server meanwhile comes back instead.
    func handleDeletion(
        _ result: WriteResult, _ item: SyncItem, _ account: SyncAccount, _ backend: some SyncBackend, _ report: inout SyncReport
    )
        throws
    {
        switch result {
        case .written:
            try store.forgetItem(account: account.name, href: item.href)
            report.uploaded.deleted += 1
        case .preconditionFailed:
            try store.clearIntent(account: account.name, href: item.href)
            if let there = try backend.get(item.href) {
                var none: [String: Contact] = [:]
                try apply(
                    there,
                    item: SyncItem(
                        href: item.href, contactID: item.contactID, etag: item.etag, card: item.card, syncedRevision: item.syncedRevision),
                    local: &none, account, &report)
            }
        }
    }
}

/// What one pending item needs from an upload.
private enum UploadStep: Sendable {
    /// A new contact or an edit, with the card it goes up as.
    case send(Contact, SyncItem, Data)
    case delete(SyncItem)
    /// A deletion the guard holds back.
    case hold
    /// Never sent and gone here: nothing to tell the server.
    case forget(SyncItem)

    /// What goes to the server for it, if anything.
    var write: CardWrite? {
        switch self {
        case .send(_, let item, let data): CardWrite(href: item.href, data: data, etag: item.etag, base: item.card)
        case .delete(let item): CardWrite(href: item.href, data: nil, etag: item.etag, base: item.card)
        case .hold, .forget: nil
        }
    }
}
