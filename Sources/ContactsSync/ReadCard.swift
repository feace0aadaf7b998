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
    /// What the card is: a person or a group; nil when it is no card that reads.
    let content: CardContent?
    /// The person's contact, nil for a group card or one that does not read.
    let contact: Contact?
    let photo: PhotoData?

    init(_ card: RemoteCard) {
        self.card = card
        text = String(decoding: card.data, as: UTF8.self)
        vcard = VCardParser.parse([UInt8](card.data)).cards.first
        content = vcard.flatMap { try? CardContent($0) }
        if case .person(let c, let p)? = content {
            (contact, photo) = (c, p)
        } else {
            (contact, photo) = (nil, nil)
        }
    }
}
