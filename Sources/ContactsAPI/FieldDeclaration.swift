/// Every field of a contact, declared once where the daemon and its clients both read it: the
/// key in the API's shape, what kind of value it holds, how a person reads it (the editor's
/// form, `contactsctl show`) and how the command line spells it. The client's form, `show`,
/// `add` and `edit` options, `--clear`, the completions and the man page's options are made
/// from this list; the daemon's schemas describe each field with its `help`. A class: the
/// daemon's `DeclaredField` holds one, and copies it with every contact it reads or writes.
public final class FieldDeclaration: Sendable {
    /// What a field holds.
    public enum Kind: Sendable, Equatable {
        /// The full name: one line, never empty.
        case name
        /// The name's parts (family, given, additional, prefix, suffix).
        case nameParts
        /// How the name is read (given, middle, family).
        case reading
        /// One line of text.
        case text
        /// Text of several lines.
        case longText
        /// `YYYY-MM-DD`, or `--MM-DD` without a year.
        case date
        /// Labelled values of one kind.
        case list(ListKind)
        /// Labelled postal addresses, each of parts.
        case addresses
        /// Yes or no.
        case flag
        /// Group names.
        case groups
    }

    /// What the values of a labelled list are.
    public enum ListKind: String, Sendable {
        case phone, email, url, impp, date, related
    }

    /// How `contactsctl show` shows the field.
    public enum Shown: Sendable, Equatable {
        /// One row under `label` (a list: a row for each value, under `item`).
        case row
        /// A part of the one "work" row (title, department, organization).
        case work
        /// Not as a row of its own (the name heads the view; the favorite is its star).
        case apart
    }

    /// The key in the API's shape (`phones`), as JSON writers take it.
    public let jsonKey: StaticString
    /// The key in the API's shape (`phones`).
    public let key: String
    public let kind: Kind
    /// The field as a person reads it: the editor's form and `show` (`phones`, `reading`).
    public let label: String
    /// One value of a list as `show` and messages name it (`phone`); the label otherwise.
    public let item: String
    /// The command-line option that sets it, or adds to it (`phone` for `--phone`); nil for
    /// a field no option sets.
    public let option: String?
    public let short: Character?
    /// The placeholder of the option's value in help (`PHONE`).
    public let placeholder: String
    /// What the field is: the schema's description.
    public let help: String
    /// What the option takes, for its help, where it says more than `help`.
    public let optionHelp: String?
    /// `edit`'s option that takes a value away from the list, and its help.
    public let removal: (option: String, help: String)?
    /// The comment above the field in the editor's form.
    public let formNote: String?
    public let shown: Shown

    init(
        _ key: StaticString, _ kind: Kind, label: String? = nil, item: String? = nil, option: String? = nil, short: Character? = nil,
        placeholder: String = "", help: String, optionHelp: String? = nil, removal: (option: String, help: String)? = nil,
        formNote: String? = nil, shown: Shown = .row
    ) {
        self.jsonKey = key
        self.key = key.description
        self.kind = kind
        self.label = label ?? key.description
        self.item = item ?? label ?? key.description
        self.option = option
        self.short = short
        self.placeholder = placeholder
        self.help = help
        self.optionHelp = optionHelp
        self.removal = removal
        self.formNote = formNote
        self.shown = shown
    }

    /// Whether the field holds several values, each added or taken away on its own.
    public var isList: Bool {
        switch kind {
        case .list, .addresses, .groups: true
        default: false
        }
    }

    /// Whether `edit --clear` empties it (the name cannot be empty, its parts follow it, and
    /// the favorite flag is set by `favorite` and `unfavorite`).
    public var isClearable: Bool {
        switch kind {
        case .name, .nameParts, .flag: false
        default: true
        }
    }

    /// Every member of a contact in the API's shape a client may ask for (`fields`): the
    /// declared fields and those contactsd sets.
    public static let shapeKeys = ["id", "uid", "revision"] + all.map(\.key) + ["photo", "createdAt", "updatedAt", "account", "collected"]

    /// The declaration of `key`.
    public static func named(_ key: String) -> FieldDeclaration? { byKey[key] }
    private static let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    /// Every field, in the order the form and `show` give them.
    public static let all: [FieldDeclaration] = [
        name, structuredName, phoneticName, nickname, pronouns, title, department, organization, phones, emails, urls, impp,
        addresses, birthday, dates, related, gender, favorite, groups, note,
    ]

    public static let name = FieldDeclaration("name", .name, placeholder: "NAME", help: "the full name, as it is shown", shown: .apart)
    public static let structuredName = FieldDeclaration(
        "structuredName", .nameParts, label: "name parts", help: "the name's parts, for sorting and for other programs",
        formNote: "The name's parts, for sorting and for other programs (any may stay empty).", shown: .apart)
    public static let phoneticName = FieldDeclaration(
        "phoneticName", .reading, label: "reading", option: "reading", placeholder: "READING",
        help: "how the name is read (kana, pinyin, romaji): a name with a reading sorts by it",
        optionHelp: "how the name is read, as 'GIVEN FAMILY' or 'FAMILY GIVEN' as the name is written",
        formNote: "How the name is read (kana, pinyin): the list sorts by it.")
    public static let nickname = FieldDeclaration("nickname", .text, option: "nickname", placeholder: "NICK", help: "a nickname")
    public static let pronouns = FieldDeclaration(
        "pronouns", .text, option: "pronouns", placeholder: "PRONOUNS", help: "the pronouns to use (RFC 9554)",
        optionHelp: "the pronouns to use (she/her)")
    public static let title = FieldDeclaration(
        "title", .text, option: "title", placeholder: "TITLE", help: "the job title", shown: .work)
    public static let department = FieldDeclaration(
        "department", .text, option: "department", placeholder: "DEPT", help: "the department in the organization", shown: .work)
    public static let organization = FieldDeclaration(
        "organization", .text, option: "organization", short: "o", placeholder: "ORG", help: "the organization", shown: .work)
    public static let phones = FieldDeclaration(
        "phones", .list(.phone), item: "phone", option: "phone", short: "p", placeholder: "PHONE", help: "phone numbers, labelled",
        optionHelp: "a phone number, as LABEL:NUMBER (work-cell:+1 555 0100) or NUMBER; a label is letters, digits, - and _",
        removal: ("remove-phone", "take away the phone with this number (any formatting) or label"),
        formNote: "Labels such as mobile, home, work, home fax, or words of your own.")
    public static let emails = FieldDeclaration(
        "emails", .list(.email), item: "email", option: "email", short: "e", placeholder: "EMAIL", help: "email addresses, labelled",
        optionHelp: "an email address, as LABEL:ADDRESS or ADDRESS",
        removal: ("remove-email", "take away the email address with this address or label"))
    public static let urls = FieldDeclaration(
        "urls", .list(.url), item: "url", option: "url", placeholder: "URL", help: "web addresses", optionHelp: "a web address",
        removal: ("remove-url", "take away this web address"))
    public static let impp = FieldDeclaration(
        "impp", .list(.impp), label: "im", option: "im", placeholder: "URI",
        help: "instant messaging, SIP and social profiles as URIs: xmpp:, sip:, matrix:, skype:, https:",
        optionHelp: "a messaging address or profile, as LABEL:URI or URI (any scheme: xmpp:, sip:, matrix:, https:)",
        removal: ("remove-im", "take away this messaging address"),
        formNote: "Messaging and social profiles as URIs: xmpp:, sip:, matrix:, skype:, https:.")
    public static let addresses = FieldDeclaration(
        "addresses", .addresses, item: "address", option: "address", short: "a", placeholder: "ADDRESS", help: "postal addresses",
        optionHelp:
            "a postal address, as [LABEL:]STREET; CITY; REGION; POSTCODE; COUNTRY (home:Hauptstr. 5; Berlin; ; 10115; Germany)",
        removal: ("remove-address", "take away the address with this street or label"),
        formNote: "Each address under its label (or \"-\" alone), one part a line.")
    public static let birthday = FieldDeclaration(
        "birthday", .date, option: "birthday", placeholder: "DATE", help: "YYYY-MM-DD, or --MM-DD without a year",
        formNote: "YYYY-MM-DD, or --MM-DD without a year.")
    public static let dates = FieldDeclaration(
        "dates", .list(.date), item: "date", option: "date", placeholder: "DATE",
        help: "anniversaries and other dates, YYYY-MM-DD or --MM-DD without a year (the birthday is its own field)",
        optionHelp: "a date to remember, as LABEL:DATE (anniversary:2010-06-12) or DATE",
        removal: ("remove-date", "take away the date with this value or label"),
        formNote: "Anniversaries and other dates (YYYY-MM-DD or --MM-DD), each under its label.")
    public static let related = FieldDeclaration(
        "related", .list(.related), option: "related", placeholder: "NAME",
        help: "related people by name or URI, labelled spouse, child, assistant, manager or words of your own",
        optionHelp: "a related person, as LABEL:NAME (spouse:Tom Bell) or NAME",
        removal: ("remove-related", "take away the related person with this name or label"),
        formNote: "Related people (spouse, child, assistant, manager, ...), by name.")
    public static let gender = FieldDeclaration(
        "gender", .text, option: "gender", placeholder: "GENDER", help: "gender, in the person's words")
    public static let favorite = FieldDeclaration(
        "favorite", .flag, help: "whether the contact is a favorite", formNote: "yes or no.", shown: .apart)
    public static let groups = FieldDeclaration(
        "groups", .groups, item: "group", option: "group", short: "g", placeholder: "GROUP", help: "the groups the contact is in",
        optionHelp: "a group to be in (created if new)", removal: ("leave-group", "leave this group (the others stay)"),
        formNote: "Group names, separated by commas.")
    public static let note = FieldDeclaration("note", .longText, option: "note", placeholder: "TEXT", help: "a note")
}
