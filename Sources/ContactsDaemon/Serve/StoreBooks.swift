import CardDAVServer
import ContactsCore
import ContactsStore
import Foundation
import VCard

/// The store as the CardDAV face sees it: the book `local` (the contacts of this machine
/// alone) and one book per sync account; a card per contact, named by its id, its ETag its
/// revision.
struct StoreBooks: ServedBooks {
    let store: ContactStore

    static let local = "local"

    func books() throws -> [ServedBook] {
        let names = [Self.local] + (try store.accounts().map(\.name))
        return try names.map { name in
            let cards = try self.cards(in: name) ?? []
            return ServedBook(
                name: name, displayName: name == Self.local ? "Contacts" : "Contacts (\(name))", ctag: Self.ctag(of: cards))
        }
    }

    /// What changes when any card is added, changed or removed: their count, the latest
    /// change and the sum of the revisions.
    static func ctag(of cards: [ServedCardInfo]) -> String {
        let latest = cards.map(\.lastModified).max() ?? 0
        let revisions = cards.reduce(0) { $0 + (Int($1.etag.trimmingCharacters(in: ["\""])) ?? 0) }
        return "\(cards.count)-\(latest)-\(revisions)"
    }

    func scope(_ book: String) throws -> AccountScope? {
        if book == Self.local { return .local }
        return try store.account(named: book) == nil ? nil : .account(book)
    }

    func cards(in book: String) throws -> [ServedCardInfo]? {
        guard let scope = try scope(book) else { return nil }
        return try store.query(ContactQuery(account: scope)).contacts.map(Self.info)
    }

    static func info(_ c: Contact) -> ServedCardInfo {
        ServedCardInfo(name: c.id + ".vcf", etag: "\"\(c.revision)\"", lastModified: c.updatedAt / 1000)
    }

    func card(_ name: String, in book: String, version: ServedVersion) throws -> ServedCard? {
        guard name.hasSuffix(".vcf"), try scope(book) != nil else { return nil }
        let id = String(name.dropLast(4))
        let contact: Contact
        do {
            contact = try store.contact(id: id)
        } catch StoreError.notFound {
            return nil
        }
        guard (contact.account ?? Self.local) == book else { return nil }
        var text = ""
        VCardWriter.write(VCard(properties: store.cardProperties(for: contact)), version: version == .v4 ? .v4 : .v3, into: &text)
        return ServedCard(info: Self.info(contact), text: text)
    }
}
