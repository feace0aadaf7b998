import CardDAV
import ContactsCore
import Foundation
import VCard

/// A downloaded card read once: its text, its vCard and the contact and photo it holds (nil
/// when it is not a vCard this store can read).
struct ReadCard: Sendable {
    let card: RemoteCard
    let text: String
    let vcard: VCard?
    let contact: Contact?
    let photo: PhotoData?

    init(_ card: RemoteCard) {
        self.card = card
        text = String(decoding: card.data, as: UTF8.self)
        vcard = VCardParser.parse([UInt8](card.data)).cards.first
        let mapped = vcard.flatMap { try? VCardMapping.contactWithPhoto(from: $0) }
        contact = mapped?.0
        photo = mapped?.1
    }
}
