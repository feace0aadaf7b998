import ContactsSupport
import VCard

/// A group as a vCard holds it: vCard 4.0's `KIND:group` with a `MEMBER` for each member, or
/// Apple's `X-ADDRESSBOOKSERVER-KIND:group` with `X-ADDRESSBOOKSERVER-MEMBER` (iCloud, Fastmail,
/// macOS Contacts). The one reading and writing of group cards: the importer, the served book
/// and the sync engine all go through it.
public struct GroupCard: Sendable, Equatable {
    /// How a book writes its group cards.
    public enum Style: Sendable {
        case vcard4, apple
    }

    public var uid: String
    /// The group's name (FN), trimmed; empty when the card has none.
    public var name: String
    /// The members' UIDs as the card gives them (`urn:uuid:…` or bare), trimmed.
    public var members: [String]

    public init(uid: String, name: String, members: [String]) {
        self.uid = uid
        self.name = name
        self.members = members
    }

    /// The group `card` is, or nil for a card of a person.
    public init?(_ card: VCard) {
        guard Self.isGroup(card) else { return nil }
        uid = card.first("UID")?.text.trimmingWhitespace() ?? ""
        name = card.first("FN")?.text.trimmingWhitespace() ?? ""
        members = (card.all("MEMBER") + card.all("X-ADDRESSBOOKSERVER-MEMBER")).map { $0.text.trimmingWhitespace() }
    }

    /// Whether `card` is a group card, in either spelling and any case.
    public static func isGroup(_ card: VCard) -> Bool {
        (card.first("KIND") ?? card.first("X-ADDRESSBOOKSERVER-KIND"))?.text.lowercased() == "group"
    }

    /// The style a card is written in: Apple's where it says X-ADDRESSBOOKSERVER.
    public static func style(of card: VCard) -> Style {
        card.has("X-ADDRESSBOOKSERVER-MEMBER") || card.has("X-ADDRESSBOOKSERVER-KIND") ? .apple : .vcard4
    }

    /// Whether the bytes hold `KIND:group` in any case (`X-ADDRESSBOOKSERVER-KIND:group` too),
    /// read without making a string of a card that may carry a photo: most cards are people,
    /// and this spares them a parse.
    public static func mentionsGroupKind(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let needle = Array("kind:group".utf8)
        guard bytes.count >= needle.count else { return false }
        var i = 0
        while i <= bytes.count - needle.count {
            var j = 0
            // Letters compare in lower case; ':' is the same either way.
            while j < needle.count && bytes[i + j] | 0x20 == needle[j] { j += 1 }
            if j == needle.count { return true }
            i += 1
        }
        return false
    }

    /// A UID as members compare: lower case, without `urn:uuid:`.
    public static func bareUID(_ uid: String) -> String {
        let u = uid.trimmingWhitespace().lowercased()
        return u.hasPrefix("urn:uuid:") ? String(u.dropFirst(9)) : u
    }

    /// A member's UID as a card writes it: a URI (`urn:uuid:` before a bare UID).
    public static func memberURI(_ uid: String) -> String {
        uid.lowercased().hasPrefix("urn:uuid:") ? uid : "urn:uuid:" + uid
    }

    /// The group as a card of its own, in `style` (vCard 4.0, or 3.0 with Apple's properties).
    public func text(_ style: Style) -> String {
        var props = [VCardProperty(name: "UID", value: .raw(uid)), VCardProperty(name: "FN", value: .raw(name))]
        switch style {
        case .vcard4:
            props.append(VCardProperty(name: "KIND", value: .raw("group")))
            props += members.map { VCardProperty(name: "MEMBER", value: .raw(Self.memberURI($0))) }
        case .apple:
            props.append(VCardProperty(name: "N", value: .raw(name)))
            props.append(VCardProperty(name: "X-ADDRESSBOOKSERVER-KIND", value: .raw("group")))
            props += members.map { VCardProperty(name: "X-ADDRESSBOOKSERVER-MEMBER", value: .raw(Self.memberURI($0))) }
        }
        var text = ""
        VCardWriter.write(VCard(properties: props), version: style == .vcard4 ? .v4 : .v3, into: &text)
        return text
    }

    /// `card` with this group's name and members, every other property kept; nil when the
    /// card says so already.
    public func updating(_ card: VCard) -> String? {
        let had = Set((card.all("MEMBER") + card.all("X-ADDRESSBOOKSERVER-MEMBER")).map { Self.bareUID($0.text) })
        if card.first("FN")?.text == name && had == Set(members.map(Self.bareUID)) { return nil }
        let memberName = Self.style(of: card) == .apple ? "X-ADDRESSBOOKSERVER-MEMBER" : "MEMBER"
        var props = card.properties.filter { !["FN", "MEMBER", "X-ADDRESSBOOKSERVER-MEMBER", "VERSION"].contains($0.name.uppercased()) }
        props.insert(VCardProperty(name: "FN", value: .raw(name)), at: 0)
        props += members.map { VCardProperty(name: memberName, value: .raw(Self.memberURI($0))) }
        let version: VCardWriter.Version = card.first("VERSION")?.text.hasPrefix("4") == true ? .v4 : .v3
        var text = ""
        VCardWriter.write(VCard(properties: props), version: version, into: &text)
        return text
    }
}

/// What one vCard holds: a person (the contact, with its photo's bytes taken out to be stored
/// by content), or a group. The one reading of a card, for the importer, the served books and
/// the sync engine.
public enum CardContent: Sendable {
    case person(Contact, photo: PhotoData?)
    case group(GroupCard)

    /// What `card` is. A group card is a group whatever else it says; a person's card that
    /// cannot be a contact is why not, with its line.
    public init(_ card: VCard) throws(VCardMapping.CardError) {
        if let group = GroupCard(card) {
            self = .group(group)
            return
        }
        let (contact, photo) = try VCardMapping.contactWithPhoto(from: card)
        self = .person(contact, photo: photo)
    }

    /// The contact, when the card is a person's.
    public var contact: Contact? {
        if case .person(let c, _) = self { return c }
        return nil
    }
}
