import VCard

/// A person (or organisation) in the address book, in the shape of the API contract.
public struct Contact: Sendable, Equatable {
    /// The store's id (an uppercase UUID); empty until the contact is stored.
    public var id: String = ""
    /// The vCard UID, stable across export and import.
    public var uid: String = ""
    /// Increases on every change.
    public var revision: Int = 0
    /// The formatted name (vCard FN); never blank.
    public var name: String
    public var structuredName: StructuredName?
    public var nickname: String?
    public var phones: [LabeledValue] = []
    public var emails: [LabeledValue] = []
    public var addresses: [PostalAddress] = []
    public var organization: String?
    public var title: String?
    /// `YYYY-MM-DD`, or `--MM-DD` when the year is not known.
    public var birthday: String?
    public var note: String?
    public var urls: [LabeledValue] = []
    /// How the name is read, where its script does not say (kana, pinyin).
    public var phoneticName: PhoneticName?
    /// The unit within the organization (vCard ORG's second part).
    public var department: String?
    /// Anniversaries and other dates, each `YYYY-MM-DD` or `--MM-DD`, labelled.
    public var dates: [LabeledValue] = []
    /// Related people, by name or URI, labelled with the relation.
    public var related: [LabeledValue] = []
    /// Instant messaging, SIP and social profiles, as URIs.
    public var impp: [LabeledValue] = []
    public var pronouns: String?
    public var gender: String?
    public var favorite = false
    /// Collected from mail (an address someone wrote to or heard from), not made by a person:
    /// kept out of lists, searches, views, exports and sync unless asked for; any edit a
    /// person makes makes it an ordinary contact.
    public var collected = false
    /// Group names, sorted.
    public var groups: [String] = []
    public var photo: PhotoReference?
    /// Every vCard property the contact arrived with, in order, so that export gives back
    /// what import took in (nil for contacts made through the API). Typed fields win: export
    /// regenerates the properties of any field that was edited since.
    public var vcardProperties: [VCardProperty]?
    /// Milliseconds since 1970, UTC.
    public var createdAt: Int64 = 0
    public var updatedAt: Int64 = 0
    /// The sync account the contact belongs to; nil: this machine alone. Read with the contact,
    /// never stored in it: moving is `contacts.move`.
    public var account: String?

    public init(name: String) { self.name = name }
}

/// A value with a free-text label ("mobile", "work", "Grandma's landline").
public struct LabeledValue: Sendable, Equatable {
    public var value: String
    public var label: String?

    public init(value: String, label: String? = nil) {
        self.value = value
        self.label = label
    }
}

/// The parts of a name as vCard N has them.
public struct StructuredName: Sendable, Equatable {
    public var family = ""
    public var given = ""
    public var additional = ""
    public var prefix = ""
    public var suffix = ""

    public init(family: String = "", given: String = "", additional: String = "", prefix: String = "", suffix: String = "") {
        self.family = family
        self.given = given
        self.additional = additional
        self.prefix = prefix
        self.suffix = suffix
    }

    public var isEmpty: Bool { family.isEmpty && given.isEmpty && additional.isEmpty && prefix.isEmpty && suffix.isEmpty }
}

/// A postal address as vCard ADR has it.
public struct PostalAddress: Sendable, Equatable {
    public var poBox = ""
    public var extended = ""
    public var street = ""
    public var locality = ""
    public var region = ""
    public var postalCode = ""
    public var country = ""
    public var label: String?

    public init(
        street: String = "", locality: String = "", region: String = "", postalCode: String = "", country: String = "", label: String? = nil
    ) {
        self.street = street
        self.locality = locality
        self.region = region
        self.postalCode = postalCode
        self.country = country
        self.label = label
    }

    public var isEmpty: Bool {
        poBox.isEmpty && extended.isEmpty && street.isEmpty && locality.isEmpty && region.isEmpty && postalCode.isEmpty && country.isEmpty
    }
}

/// A contact's photo: stored bytes identified by content, or a link a vCard carried.
public enum PhotoReference: Sendable, Equatable {
    case stored(hash: String, mimeType: String, width: Int?, height: Int?)
    case url(String)

    /// The content address of stored bytes.
    public var hash: String? {
        if case .stored(let hash, _, _, _) = self { return hash }
        return nil
    }
}
