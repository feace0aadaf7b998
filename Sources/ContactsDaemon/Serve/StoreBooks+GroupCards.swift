import CardDAVServer
import ContactsCore
import ContactsStore
import Foundation
import VCard

/// Group cards in the book of this machine: a group a client PUT as a `KIND:group` card (or
/// Apple's `X-ADDRESSBOOKSERVER-KIND:group`) is served back as one, with its UID, name and
/// members; every group is also each member's CATEGORIES. Groups no client made as cards are
/// not served as cards: Evolution and Thunderbird would show one as a person.
extension StoreBooks {
    /// A group card's ETag: the state of its last change.
    static func etag(_ g: ServedGroup) -> String { "\"g\(g.state)\"" }

    static func info(_ g: ServedGroup) -> ServedCardInfo {
        ServedCardInfo(name: g.name, etag: etag(g), lastModified: g.createdAt / 1000)
    }

    /// The served group at `name`, in the book that has group cards.
    func servedGroup(_ name: String, in book: String) throws -> ServedGroup? {
        book == Self.local ? try store.servedGroup(named: name) : nil
    }

    static func text(_ g: ServedGroup, _ version: ServedVersion) -> String {
        GroupCard(uid: g.uid, name: g.groupName, members: g.memberUIDs).text(version == .v4 ? .vcard4 : .apple)
    }

    /// A group card PUT at `name`: only in the book of this machine (an account's groups are
    /// its server's), with the conditions of any PUT.
    func putGroup(_ card: GroupCard, at name: String, in book: String, condition: WriteCondition, client: String) throws
        -> PutOutcome
    {
        guard book == Self.local else {
            throw ServedWriteError.invalid(
                "group cards are kept in the book 'local'; in an account's book, give the contacts CATEGORIES instead")
        }
        if try resolve(name, in: book) != nil {
            throw ServedWriteError.uidConflict("\(name) is a contact's card; a group card needs a name of its own")
        }
        let existing = try store.servedGroup(named: name)
        try Self.check(condition, etag: existing.map(Self.etag), name: name)
        // The condition again, in the write's own transaction.
        var ifState: Int64?
        if case .ifMatch(let tag) = condition, tag != "*" { ifState = existing?.state }
        if let existing, existing.uid != card.uid {
            throw ServedWriteError.uidConflict("the card at \(name) has UID \(existing.uid); a PUT may not change it to \(card.uid)")
        }
        do {
            let (group, created) = try store.putServedGroup(
                name: name, uid: card.uid, groupName: card.name, memberUIDs: card.members, ifState: ifState, origin: "carddav:" + client)
            if created { return .created(Self.info(group)) }
            return group.state == existing?.state ? .unchanged(Self.info(group)) : .updated(Self.info(group))
        } catch StoreError.conflict(let message, _, _) {
            throw ServedWriteError.preconditionFailed(message)
        } catch StoreError.invalid(let e) {
            throw ServedWriteError.invalid(e.description)
        }
    }

    /// The served groups changed after `state` (all of them with none), for a sync-collection.
    func groupChanges(in book: String, after state: Int64?) throws -> [ServedGroup] {
        guard book == Self.local else { return [] }
        return try store.servedGroups().filter { state == nil || $0.state > state ?? 0 }
    }
}
