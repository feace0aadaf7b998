import ContactsCore
import ContactsSync
import Foundation
import VCard

/// A write's two cards read once: the contact it sends (nil for a deletion, or a card that is no
/// contact), the contact as last synced, and their photos' bytes. What the labels, the update's
/// mask and the photo of a write need is then read from here, not parsed again each time.
struct ReadWrite {
    let write: CardWrite
    let contact: Contact?
    let base: Contact?
    let photo: [UInt8]?
    let basePhoto: [UInt8]?

    init(_ w: CardWrite) {
        write = w
        let card = w.data.flatMap { VCardParser.parse([UInt8]($0)).cards.first }
        let baseCard = w.base.flatMap { VCardParser.parse(Array($0.utf8)).cards.first }
        contact = card.flatMap { try? VCardMapping.contact(from: $0) }
        base = baseCard.flatMap { try? VCardMapping.contact(from: $0) }
        photo = card.flatMap(PeopleBackend.photoBytes)
        basePhoto = baseCard.flatMap(PeopleBackend.photoBytes)
    }

    /// The groups the card names now, and when last synced.
    var groups: Set<String> { Set(contact?.groups ?? []) }
    var baseGroups: Set<String> { Set(base?.groups ?? []) }
}
