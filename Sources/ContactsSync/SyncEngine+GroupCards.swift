import CardDAV
import ContactsCore
import ContactsStore
import Foundation
import VCard

/// The book's group cards (`KIND:group` + `MEMBER`; Apple's `X-ADDRESSBOOKSERVER-KIND` +
/// `-MEMBER`, as iCloud and Fastmail keep groups): groups here, and what changes here goes
/// back as the same kind of card, every other property of it kept.
extension SyncEngine {
    /// A downloaded card that is a group card, read as one; nil for any other card.
    static func groupCard(_ card: RemoteCard) -> GroupCardDownload? {
        guard card.data.withUnsafeBytes(GroupCard.mentionsGroupKind),
            let parsed = VCardParser.parse([UInt8](card.data)).cards.first, let group = GroupCard(parsed)
        else { return nil }
        return GroupCardDownload(
            href: card.href, etag: card.etag, card: String(decoding: card.data, as: UTF8.self),
            name: group.name.isEmpty ? "Unnamed group" : group.name, memberUIDs: group.members)
    }

    /// Sends what changed here in the groups the book keeps as cards: a renamed group or one
    /// whose members (among the account's contacts) changed goes up with `If-Match`, a group
    /// deleted here is deleted there, and a new group with members in the account becomes a
    /// new card, in the style of the book's other group cards. A book without group cards
    /// keeps groups as `CATEGORIES` on each card, and nothing is done here.
    func uploadGroupCards(_ account: SyncAccount, _ backend: some SyncBackend, _ report: inout SyncReport) throws {
        let states = try store.groupCardStates(account: account.name)
        guard let example = states.compactMap({ $0.item?.card }).first else { return }
        let style: GroupCard.Style = example.uppercased().contains("X-ADDRESSBOOKSERVER-KIND") ? .apple : .vcard4
        for state in states {
            guard let name = state.name else {
                // Deleted here.
                guard let item = state.item else { continue }
                if case .written = try backend.delete(item.href, etag: item.etag) {
                    try store.forgetItem(account: account.name, href: item.href)
                    report.uploaded.deleted += 1
                }
                continue
            }
            let item = state.item
            guard let text = Self.groupCardText(item?.card, name: name, members: state.memberUIDs, style: style) else { continue }
            let href = item?.href ?? backend.hrefForNewCard(uid: UUID().uuidString.lowercased())
            switch Self.attempt({ () throws(DAVError) in try backend.put(href, Data(text.utf8), etag: item?.etag) }) {
            case .success(.written(let at, var etag)):
                if etag == nil { etag = try backend.get(at)?.etag }
                try store.recordUpload(
                    account: account.name,
                    SyncItem(href: at, contactID: nil, etag: etag, card: text, syncedRevision: nil, groupID: state.groupID),
                    previousHref: href)
                if item == nil { report.uploaded.created += 1 } else { report.uploaded.updated += 1 }
            case .success(.preconditionFailed):
                // Changed there meanwhile: the next sync brings it, and this goes again after.
                report.errors.append(
                    SyncReport.CardError(
                        href: href, status: 412, message: "group '\(name)' changed on the server; the next sync tries again"))
            case .failure(let e) where e.isTransient: throw e
            case .failure(let e):
                report.errors.append(SyncReport.CardError(href: href, status: e.status, message: "group '\(name)': \(e.description)"))
            }
        }
    }

    /// The card a group goes up as: the book's card with its name and members made these
    /// (every other property kept), or a new card; nil when the book's card says so already.
    static func groupCardText(_ card: String?, name: String, members: [String], style: GroupCard.Style) -> String? {
        guard let card, let parsed = VCardParser.parse(Array(card.utf8)).cards.first else {
            // A new card, in the book's style.
            return GroupCard(uid: UUID().uuidString.lowercased(), name: name, members: members).text(style)
        }
        return GroupCard(uid: "", name: name, members: members).updating(parsed)
    }
}
