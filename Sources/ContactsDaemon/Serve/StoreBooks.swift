import CardDAVServer
import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation
import VCard

/// The store as the CardDAV face sees it: the book `local` (the contacts of this machine
/// alone) and one book per sync account; a card per contact, named by its id (or by the
/// name the client that made it chose), its ETag its revision. A write is an edit like any
/// other, recorded with origin `carddav:CLIENT`; a card made in an account's book goes up
/// with its next sync.
struct StoreBooks: WritableBooks {
    let store: ContactStore
    let sync: SyncService?

    static let local = "local"
    /// The addresses collected from mail, as Thunderbird's Collected Addresses.
    static let collected = "collected"

    func books() throws -> [ServedBook] {
        try ([Self.local, Self.collected] + (try store.accounts().map(\.name))).compactMap { try book(named: $0) }
    }

    /// The book a contact is served in.
    static func book(of c: Contact) -> String { c.account ?? (c.collected ? collected : local) }

    /// A book's ctag and sync token are its last change in the store's commit sequence.
    func book(named name: String) throws -> ServedBook? {
        guard let scope = try scope(name) else { return nil }
        let last = try store.lastChange(in: scope)
        let displayName =
            try store.servedDisplayName(of: name)
            ?? (name == Self.local ? "Contacts" : name == Self.collected ? "Collected addresses" : "Contacts (\(name))")
        return ServedBook(
            name: name, displayName: displayName, ctag: String(last),
            syncToken: Self.token(ChangeCursor(state: last)))
    }

    func scope(_ book: String) throws -> AccountScope? {
        if book == Self.local { return .local }
        if book == Self.collected { return .collected }
        do {
            return .account(try store.account(named: book).name)
        } catch StoreError.notFound {
            return nil
        }
    }

    /// The cards of a book, read as the change log lists them (ids, revisions, times: no
    /// contact is decoded).
    func cards(in book: String) throws -> [ServedCardInfo]? {
        guard let scope = try scope(book), let page = try store.changes(in: scope, after: nil) else { return nil }
        let names = try store.servedNames()
        return page.changed.map { Self.info($0, name: names[$0.id]) } + (try groupChanges(in: book, after: nil).map(Self.info))
    }

    func cardInfo(_ name: String, in book: String) throws -> ServedCardInfo? {
        guard try scope(book) != nil else { return nil }
        if let (contact, served) = try resolve(name, in: book) { return Self.info(contact, name: served) }
        return try servedGroup(name, in: book).map(Self.info)
    }

    /// Sync tokens are URIs (RFC 6578) naming a place in the store's commit sequence.
    static let tokenPrefix = "urn:x-contactsd:sync:"

    static func token(_ cursor: ChangeCursor) -> String { tokenPrefix + cursor.description }

    func changes(in book: String, since token: String?, limit: Int?) throws -> ServedSync {
        guard let scope = try scope(book) else { return .noBook }
        var cursor: ChangeCursor?
        if let token {
            guard token.hasPrefix(Self.tokenPrefix), let c = ChangeCursor(token.dropFirst(Self.tokenPrefix.count)) else {
                return .invalidToken
            }
            cursor = c
        }
        guard let page = try store.changes(in: scope, after: cursor, limit: limit) else { return .invalidToken }
        let names = page.changed.isEmpty ? [:] : try store.servedNames()
        // Group cards changed since: few, told with every page; the token goes past them.
        let groups = try groupChanges(in: book, after: cursor?.state)
        var next = page.next
        if !page.more, let latest = groups.map(\.state).max(), latest > next.state { next = ChangeCursor(state: latest) }
        return .changes(
            ServedChanges(
                changed: page.changed.map { Self.info($0, name: names[$0.id]) } + groups.map(Self.info), removed: page.removed.map(\.name),
                token: Self.token(next), truncated: page.more))
    }

    func candidates(in book: String, containing text: String) throws -> [String]? {
        guard let scope = try scope(book) else { return nil }
        let names = try store.servedNames()
        return try store.query(ContactQuery(text: text, account: scope)).contacts.map { names[$0.id] ?? $0.id + ".vcf" }
    }

    static func info(_ c: Contact, name: String?) -> ServedCardInfo {
        ServedCardInfo(name: name ?? c.id + ".vcf", etag: "\"\(c.revision)\"", lastModified: c.updatedAt / 1000)
    }

    static func info(_ c: ChangedContact, name: String?) -> ServedCardInfo {
        ServedCardInfo(name: name ?? c.id + ".vcf", etag: "\"\(c.revision)\"", lastModified: c.updatedAt / 1000)
    }

    /// The contact a book serves under this name: by the name its client gave it, else as
    /// `ID.vcf` when it has no such name. `withCard`: read with the card's other properties
    /// (which a contact read for its fields leaves out), for serving it whole.
    func resolve(_ name: String, in book: String, withCard: Bool = false) throws -> (contact: Contact, name: String?)? {
        func inBook(_ id: String) throws -> Contact? {
            let found: Contact?
            if withCard {
                found = try store.contacts(ids: [id])[id]
            } else {
                do {
                    found = try store.contact(id: id)
                } catch StoreError.notFound {
                    found = nil
                }
            }
            return found.flatMap { Self.book(of: $0) == book ? $0 : nil }
        }
        for id in try store.contacts(servedAs: name) {
            if let c = try inBook(id) { return (c, name) }
        }
        guard name.hasSuffix(".vcf"), let c = try inBook(String(name.dropLast(4))) else { return nil }
        return try store.servedName(of: c.id) == nil ? (c, nil) : nil
    }

    /// On every core: the daemon's worker threads.
    func inParts<T: Sendable>(_ count: Int, minimum: Int, _ body: @escaping @Sendable (Range<Int>) -> T) -> [T] {
        Parallel.chunks(count, minimum: minimum, body)
    }

    /// A multiget: the book's served names read once, the contacts in one read.
    func cards(_ names: [String], in book: String, version: ServedVersion) throws -> [String: ServedCard] {
        guard try scope(book) != nil, !names.isEmpty else { return [:] }
        let served = try store.servedNames()
        var byName: [String: [String]] = [:]
        for (id, name) in served { byName[name, default: []].append(id) }
        // The contacts each name may be: those a client gave it, else `ID.vcf`'s own.
        var candidates: [String: [String]] = [:]
        for name in names {
            var ids = byName[name] ?? []
            if name.hasSuffix(".vcf") {
                let id = String(name.dropLast(4))
                if served[id] == nil { ids.append(id) }
            }
            candidates[name] = ids
        }
        let contacts = try store.contacts(ids: Array(Set(candidates.values.joined())))
        var out: [String: ServedCard] = [:]
        var found: [(name: String, contact: Contact)] = []
        for name in names {
            guard let contact = candidates[name]?.lazy.compactMap({ contacts[$0] }).first(where: { Self.book(of: $0) == book })
            else {
                if let g = try servedGroup(name, in: book) { out[name] = ServedCard(info: Self.info(g), text: Self.text(g, version)) }
                continue
            }
            found.append((name, contact))
        }
        // The cards written on every core: a first sync asks for a whole book in one multiget.
        let texts = Parallel.chunks(found.count, minimum: 256) { [self, found] range in found[range].map { text($0.contact, version) } }
        for (item, text) in zip(found, texts.joined()) {
            out[item.name] = ServedCard(info: Self.info(item.contact, name: served[item.contact.id]), text: text)
        }
        return out
    }

    func text(_ contact: Contact, _ version: ServedVersion) -> String {
        var text = ""
        VCardWriter.write(VCard(properties: store.cardProperties(for: contact)), version: version == .v4 ? .v4 : .v3, into: &text)
        return text
    }

    func card(_ name: String, in book: String, version: ServedVersion) throws -> ServedCard? {
        guard try scope(book) != nil else { return nil }
        guard let (contact, served) = try resolve(name, in: book, withCard: true) else {
            return try servedGroup(name, in: book).map { ServedCard(info: Self.info($0), text: Self.text($0, version)) }
        }
        return ServedCard(info: Self.info(contact, name: served), text: text(contact, version))
    }

    /// Whether the stored card meets the client's condition.
    static func check(_ condition: WriteCondition, _ existing: Contact?, name: String) throws {
        try check(condition, etag: existing.map { "\"\($0.revision)\"" }, name: name)
    }

    /// Whether the card at `name`, at ETag `etag` (nil: there is none), meets the condition.
    static func check(_ condition: WriteCondition, etag current: String?, name: String) throws {
        switch condition {
        case .none: return
        case .absent:
            if let current { throw ServedWriteError.preconditionFailed("a card is at \(name) already (ETag \(current))") }
        case .ifMatch(let tag):
            guard let current else { throw ServedWriteError.preconditionFailed("there is no card at \(name) any more") }
            if tag != current && tag != "*" {
                throw ServedWriteError.preconditionFailed("the card at \(name) is at ETag \(current) now, not \(tag): fetch it again")
            }
        }
    }

    func put(_ name: String, in book: String, body: [UInt8], condition: WriteCondition, client: String) throws -> PutOutcome {
        guard try scope(book) != nil else { throw ServedWriteError.notFound("there is no address book \(book)") }
        if let group = try Self.groupCard(body) {
            return try putGroup(group, at: name, in: book, condition: condition, client: client)
        }
        let existing = try resolve(name, in: book)
        try Self.check(condition, existing?.contact, name: name)
        var item = try Self.item(body)
        // What a client writes in the collected book (Thunderbird's collected addresses) stays collected.
        if book == Self.collected { item.contact.collected = true }
        let origin = "carddav:" + client
        if let (contact, served) = existing {
            guard item.contact.uid == contact.uid else {
                throw ServedWriteError.uidConflict(
                    "the card at \(name) has UID \(contact.uid); a PUT may not change it to \(item.contact.uid)")
            }
            // The condition again, in the write's own transaction: a change that came between
            // the look above and this write is not overwritten.
            if case .ifMatch = condition { item.ifRevision = contact.revision }
            let outcome: ImportOutcome?
            do {
                outcome = try store.importContacts([item], origin: origin).first
            } catch StoreError.conflict(let message, _, _) {
                throw ServedWriteError.preconditionFailed("the card at \(name) changed meanwhile (\(message)): fetch it again")
            }
            let info = Self.info(try store.contact(id: contact.id), name: served)
            return outcome == .unchanged(id: contact.id) ? .unchanged(info) : .updated(info)
        }
        if let other = try store.contactID(uid: item.contact.uid) {
            throw ServedWriteError.uidConflict("UID \(item.contact.uid) is the card of another contact (\(other)); one UID, one card")
        }
        item.ifRevision = 0
        let created: ImportOutcome?
        do {
            created = try store.importContacts([item], origin: origin).first
        } catch StoreError.conflict {
            throw ServedWriteError.uidConflict("UID \(item.contact.uid) was taken meanwhile")
        }
        guard case .created(let id)? = created else { throw ServedWriteError.uidConflict("UID \(item.contact.uid) was taken meanwhile") }
        if book != Self.local && book != Self.collected { _ = try sync?.move(ids: [id], to: book) }
        let served = name == id + ".vcf" ? nil : name
        if let served { try store.setServedName(served, for: id) }
        return .created(Self.info(try store.contact(id: id), name: served))
    }

    /// The group card a PUT's body is, if it is one (with a UID and a name, or why not).
    static func groupCard(_ body: [UInt8]) throws -> GroupCard? {
        let parsed = VCardParser.parse(body)
        guard parsed.cards.count == 1, let group = GroupCard(parsed.cards[0]) else { return nil }
        guard !group.uid.isEmpty else { throw ServedWriteError.invalid("the group card has no UID; CardDAV cards need one") }
        guard !group.name.isEmpty else { throw ServedWriteError.invalid("the group card has no FN: a group needs a name") }
        return group
    }

    /// The one contact a PUT's body holds, or why it cannot be stored (with the line).
    static func item(_ body: [UInt8]) throws -> ImportItem {
        guard !body.isEmpty else { throw ServedWriteError.invalid("the body is empty; a card is one vCard") }
        let parsed = VCardParser.parse(body)
        guard parsed.cards.count == 1 else {
            let found = parsed.cards.isEmpty ? "no vCard" : "\(parsed.cards.count) vCards"
            let why = parsed.issues.first.map { " (line \($0.line): \($0.message))" } ?? ""
            throw ServedWriteError.invalid("a card is one vCard; this body holds \(found)\(why)")
        }
        let piece = CardPiece(parsed)
        if let e = piece.errors.first { throw ServedWriteError.invalid((e.line.map { "line \($0): " } ?? "") + e.message) }
        guard let item = piece.batch.items.first else {
            throw ServedWriteError.invalid("the card holds no contact")
        }
        guard !item.contact.uid.isEmpty else { throw ServedWriteError.invalid("the card has no UID; CardDAV cards need one") }
        return item
    }

    func setDisplayName(_ name: String?, of book: String) throws { try store.setServedDisplayName(name, of: book) }

    func delete(_ name: String, in book: String, condition: WriteCondition, client: String) throws {
        guard let (contact, _) = try resolve(name, in: book) else {
            guard let g = try servedGroup(name, in: book) else { throw ServedWriteError.notFound("the book \(book) has no card \(name)") }
            try Self.check(condition, etag: Self.etag(g), name: name)
            // The group goes; its members stay, without it.
            try store.deleteGroup(g.groupID, origin: "carddav:" + client)
            return
        }
        try Self.check(condition, contact, name: name)
        _ = try store.delete(ids: [contact.id], origin: "carddav:" + client)
    }
}
