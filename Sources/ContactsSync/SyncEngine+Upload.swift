import CardDAV
import ContactsCore
import ContactsStore
import Foundation
import VCard

/// A sync's second half: what changed here goes to the server, each write with its
/// precondition and noted in the journal before it is sent.
extension SyncEngine {
    /// Sends new contacts, edits and deletions made here since the last sync.
    func upload(
        _ account: SyncAccount, _ backend: some SyncBackend, _ held: HeldDeletions, _ report: inout SyncReport, cancelled: () -> Bool
    ) throws {
        var items = try store.pendingItems(account: account.name)
        guard !items.isEmpty else { return }
        let total = try store.syncItemCount(account: account.name)
        var local = try store.contacts(ids: items.compactMap(\.contactID))
        var gone = items.filter { item in item.etag != nil && item.contactID.map { local[$0] == nil } ?? true }
        if held == .reject && Self.mustHold(gone.count, of: total) {
            // The contacts deleted here come back from the trash, and nothing is deleted there.
            _ = try store.undelete(ids: gone.compactMap(\.contactID), origin: "sync:\(account.name)")
            items = try store.pendingItems(account: account.name)
            local = try store.contacts(ids: items.compactMap(\.contactID))
            gone = []
        }
        let hold = held == .hold && Self.mustHold(gone.count, of: total)
        // Every write about to go out is noted first, all in one transaction; what the server
        // took is recorded fifty at a time (a crash between the two leaves the notes, which
        // the next sync checks against the server).
        var intents: [SyncIntent] = []
        for item in items {
            if let id = item.contactID, let c = local[id] {
                if item.etag == nil || c.revision != item.syncedRevision {
                    intents.append(SyncIntent(href: item.href, contactID: id, action: item.etag == nil ? "create" : "update"))
                }
            } else if item.etag != nil && !hold {
                intents.append(SyncIntent(href: item.href, contactID: item.contactID, action: "delete"))
            }
        }
        try store.recordIntents(account: account.name, intents)
        var done: [(item: SyncItem, previousHref: String?)] = []
        defer { try? store.recordUploads(account: account.name, done) }
        for item in items {
            if cancelled() { throw SyncStopped() }
            if done.count >= 50 {
                try store.recordUploads(account: account.name, done)
                done = []
            }
            if let id = item.contactID, let c = local[id] {
                guard item.etag == nil || c.revision != item.syncedRevision else { continue }
                try send(c, item, account, backend, &report, &done)
            } else if item.etag != nil {
                if hold {
                    report.held += 1
                    continue
                }
                try sendDeletion(item, account, backend, &report)
            } else {
                try store.forgetItem(account: account.name, href: item.href)
            }
        }
        try store.recordUploads(account: account.name, done)
        done = []
    }

    /// Sends one contact: new with `If-None-Match: *`, an edit with `If-Match`. When the server
    /// has another version (412), that version is downloaded, merged, and the merge sent.
    func send(
        _ c: Contact, _ item: SyncItem, _ account: SyncAccount, _ backend: some SyncBackend, _ report: inout SyncReport,
        _ done: inout [(item: SyncItem, previousHref: String?)]
    ) throws {
        var item = item
        var contact = c
        for attempt in 0..<2 {
            var text = ""
            VCardWriter.write(VCard(properties: store.cardProperties(for: contact)), version: .v3, into: &text)
            if attempt > 0 {
                try store.recordIntent(
                    account: account.name,
                    SyncIntent(href: item.href, contactID: contact.id, action: item.etag == nil ? "create" : "update"))
            }
            let result: WriteResult
            switch Self.attempt({ () throws(DAVError) in try backend.put(item.href, Data(text.utf8), etag: item.etag) }) {
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
                if etag == nil { etag = try backend.get(href)?.etag }
                done.append(
                    (SyncItem(href: href, contactID: contact.id, etag: etag, card: text, syncedRevision: contact.revision), item.href))
                if item.etag == nil { report.uploaded.created += 1 } else { report.uploaded.updated += 1 }
                return
            case .preconditionFailed:
                try store.clearIntent(account: account.name, href: item.href)
                guard attempt == 0, let there = try backend.get(item.href) else { break }
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
            }
        }
        report.errors.append(
            SyncReport.CardError(href: item.href, status: 412, message: "changed on the server while being sent; the next sync tries again")
        )
    }

    /// Sends a deletion made here with `If-Match`; a card edited on the server meanwhile comes back instead.
    func sendDeletion(_ item: SyncItem, _ account: SyncAccount, _ backend: some SyncBackend, _ report: inout SyncReport) throws {
        switch try backend.delete(item.href, etag: item.etag) {
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
