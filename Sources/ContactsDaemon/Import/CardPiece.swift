import ContactsCore
import ContactsStore
import ContactsSupport
import Thumbnails
import VCard

/// Parsed cards made ready to store: each person's contact with its photo (its size read from
/// its header), each group card as a group, and each card that cannot be stored with its line
/// and why. The one path from vCard text to the store, for a file's pieces (the importer, the
/// drop folder) and a card a CardDAV client PUTs alike.
struct CardPiece: Sendable {
    var batch: ImportBatch
    /// How many cards the piece held (contacts, groups and failures).
    var cards: Int
    var errors: [ImportReport.Failure]
    var issues: [VCardIssue]

    init(_ parsed: VCardParser.Result, keyPhonesLater: Bool = false) {
        var items: [ImportItem] = []
        items.reserveCapacity(parsed.cards.count)
        var errors: [ImportReport.Failure] = []
        var groups: [ImportGroup] = []
        for (i, card) in parsed.cards.enumerated() {
            do {
                switch try CardContent(card) {
                case .group(let group):
                    guard !group.name.isEmpty else {
                        errors.append(.init(index: i, line: card.line, message: "a group card without a name (FN)"))
                        continue
                    }
                    do {
                        groups.append(try ImportGroup(name: group.name, memberUIDs: group.members))
                    } catch {
                        errors.append(.init(index: i, line: card.line, message: "group '\(group.name)': \(error)"))
                    }
                case .person(var contact, let detached):
                    let photo = Self.sized(detached, of: &contact)
                    items.append(
                        ImportItem(
                            contact: contact, carriesGroups: card.has("CATEGORIES"), carriesFavorite: card.has("X-CONTACTSD-FAVORITE"),
                            photo: photo))
                }
            } catch {
                errors.append(.init(index: i, line: error.line, message: error.message))
            }
        }
        batch = ImportBatch(items: items, groups: groups, keyPhonesLater: keyPhonesLater)
        cards = parsed.cards.count
        self.errors = errors
        issues = parsed.issues
    }

    /// A photo with its type and size read from its header (or from the decoder, for a format
    /// whose header does not say), and the contact's reference to it made to say so. Kept
    /// whatever it is: nothing imported is lost.
    static func sized(_ detached: PhotoData?, of contact: inout Contact) -> PhotoData? {
        guard var photo = detached else { return nil }
        if let info = ImageHeader.read(photo.bytes)
            ?? (try? PhotoDecoder.shared.inspect(photo.bytes, limits: ImageLimits(maxBytes: .max, maxPixels: .max)))
        {
            photo.mimeType = info.format.mimeType
            photo.width = info.displayWidth
            photo.height = info.displayHeight
        }
        contact.photo = photo.reference
        return photo
    }
}
