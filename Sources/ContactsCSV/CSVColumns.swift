import ContactsCore
import Foundation

/// Which program's CSV a file is, told by its header.
public enum CSVDialect: String, Sendable {
    /// Google Contacts: "Given Name"/"First Name" and numbered groups such as
    /// "E-mail 1 - Type", "E-mail 1 - Value", several values in a cell joined by " ::: ".
    case google
    /// Outlook (desktop and outlook.com), in English or a localized header: one column per
    /// kind of value, "E-mail Address", "Mobile Phone", "Business Street", ...
    case outlook
}

/// A part of a postal address, as CSV columns name them.
enum AddressPart: Sendable, Hashable {
    case formatted, street, extended, city, poBox, region, postalCode, country
}

/// What one column of a contacts CSV holds.
enum CSVField: Sendable, Hashable {
    case fullName, given, additional, family, prefix, suffix
    case birthday, notes, groups
    case phoneticGiven, phoneticMiddle, phoneticFamily, gender
    /// A field of one line of text, as it is (nickname, organization, title, pronouns...).
    case text(WritableKeyPath<Contact, String?> & Sendable)
    /// Outlook's fixed columns: one value each, with the label the column's name gives.
    case email(label: String?)
    case phone(label: String)
    case address(label: String, part: AddressPart)
    case web(label: String?)
    /// Outlook's anniversary and its related people's names.
    case date(label: String)
    case related(label: String)
    /// Google's numbered groups: `E-mail 2 - Value` is (email, 2, value).
    case numbered(kind: NumberedKind, index: Int, part: NumberedPart)
    /// What the program derives from other columns (Outlook's e-mail display name and type).
    case ignored
}

enum NumberedKind: String, Sendable, Hashable {
    case email = "e-mail", phone, address, website, organization, event, relation
    case im, instantMessenger = "instant messenger"
}

enum NumberedPart: Sendable, Hashable {
    case label, value, name, title, department, service
    case address(AddressPart)
}

/// The meaning of each column of a header row.
struct CSVColumns {
    var dialect: CSVDialect
    /// Per column, what it holds; nil for a column kept as it is (`X-CSV-FIELD`).
    var fields: [CSVField?]
    var names: [String]

    /// Nil when the header names no column of a contacts export.
    init?(header: [String]) {
        names = header.map { $0.trimmingCharacters(in: .whitespaces) }
        let keys = names.map { Self.key($0) }
        let numbered = keys.map(Self.numbered)
        dialect = numbered.contains { $0 != nil } || keys.contains("given name") ? .google : .outlook
        switch dialect {
        case .google: fields = zip(keys, numbered).map { key, n in n ?? Self.google[key] }
        case .outlook: fields = keys.map { Self.outlook[$0] }
        }
        guard fields.contains(where: { $0 != nil }) else { return nil }
    }

    /// A column name as looked up: lower case, spaces folded.
    static func key(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// `E-mail 1 - Value`, `Phone 2 - Type`, `Address 1 - Postal Code`, `Organization 1 - Name`.
    static func numbered(_ key: String) -> CSVField? {
        let halves = key.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        // "e-mail 1 - value" splits at the hyphen of "e-mail" first.
        let (head, tail): (Substring, Substring)
        if key.hasPrefix("e-mail ") {
            guard let dash = key.range(of: " - ") else { return nil }
            (head, tail) = (key[..<dash.lowerBound], key[dash.upperBound...])
        } else {
            guard halves.count == 2 else { return nil }
            (head, tail) = (halves[0], halves[1])
        }
        let words = head.split(separator: " ")
        guard let last = words.last, let index = Int(last) else { return nil }
        guard let kind = NumberedKind(rawValue: words.dropLast().joined(separator: " ")) else { return nil }
        let part: NumberedPart
        switch tail.trimmingCharacters(in: .whitespaces) {
        case "type", "label": part = .label
        case "value": part = .value
        case "name": part = .name
        case "title": part = .title
        case "department": part = .department
        case "service", "protocol": part = .service
        case "formatted": part = .address(.formatted)
        case "street": part = .address(.street)
        case "extended address": part = .address(.extended)
        case "city": part = .address(.city)
        case "po box": part = .address(.poBox)
        case "region": part = .address(.region)
        case "postal code": part = .address(.postalCode)
        case "country": part = .address(.country)
        default: return nil
        }
        return .numbered(kind: kind, index: index, part: part)
    }

    /// Google's columns of one value each, as its export names them and in its order: the
    /// export writes these, the import reads them (and the other names in `google`). A field
    /// of one value is one line here.
    static let googleSingles: [(header: String, field: CSVField)] = [
        ("Name", .fullName), ("Given Name", .given), ("Additional Name", .additional), ("Family Name", .family),
        ("Name Prefix", .prefix), ("Name Suffix", .suffix), ("Nickname", .text(\.nickname)), ("Birthday", .birthday),
        ("Notes", .notes), ("Group Membership", .groups), ("Organization Name", .text(\.organization)),
        ("Organization Title", .text(\.title)), ("Organization Department", .text(\.department)),
        ("Phonetic First Name", .phoneticGiven), ("Phonetic Middle Name", .phoneticMiddle), ("Phonetic Last Name", .phoneticFamily),
        ("Gender", .gender), ("Pronouns", .text(\.pronouns)),
    ]

    static let google: [String: CSVField] = Dictionary(
        googleSingles.map { (key($0.header), $0.field) }
            + [
                ("first name", .given), ("middle name", .additional), ("last name", .family), ("labels", .groups),
                ("given name yomi", .phoneticGiven), ("additional name yomi", .phoneticMiddle), ("family name yomi", .phoneticFamily),
            ], uniquingKeysWith: { first, _ in first })

    /// Outlook's columns in English, German and French exports.
    static let outlook: [String: CSVField] = {
        var m: [String: CSVField] = [:]
        func add(_ field: CSVField, _ names: String...) { for n in names { m[n] = field } }
        add(.prefix, "title", "anrede", "titre")
        add(.given, "first name", "vorname", "prénom")
        add(.additional, "middle name", "weitere vornamen", "deuxième prénom", "second prénom")
        add(.family, "last name", "nachname", "nom")
        add(.suffix, "suffix", "suffixe")
        add(.text(\.nickname), "nickname", "spitzname", "surnom")
        add(.text(\.organization), "company", "firma", "société")
        add(.text(\.title), "job title", "position", "fonction")
        add(.text(\.department), "department", "abteilung", "service")
        add(.gender, "gender", "geschlecht", "sexe")
        add(.date(label: "anniversary"), "anniversary", "jahrestag", "anniversaire de mariage")
        add(.related(label: "spouse"), "spouse", "partner", "ehepartner", "conjoint")
        add(.related(label: "manager"), "manager's name", "name des vorgesetzten", "vorgesetzte(r)", "nom du responsable")
        add(.related(label: "assistant"), "assistant's name", "name assistent", "nom de l'assistant")
        add(.birthday, "birthday", "geburtstag", "anniversaire")
        add(.notes, "notes", "notizen")
        add(.groups, "categories", "kategorien", "catégories")
        add(.web(label: nil), "web page", "webseite", "page web")
        add(.web(label: "home"), "personal web page", "persönliche webseite", "page web personnelle")
        add(.email(label: nil), "e-mail address", "e-mail-adresse", "e-mail: adresse", "adresse de messagerie")
        add(.email(label: nil), "e-mail 2 address", "e-mail 2: adresse", "adresse de messagerie 2")
        add(.email(label: nil), "e-mail 3 address", "e-mail 3: adresse", "adresse de messagerie 3")
        for n in ["", " 2", " 3"] {
            add(.ignored, "e-mail\(n) type", "e-mail\(n) display name", "e-mail\(n == "" ? "" : n + ":") typ")
            add(.ignored, "e-mail\(n == "" ? "" : n): angezeigter name", "e-mail-typ", "e-mail: angezeigter name")
        }
        add(.phone(label: "work"), "business phone", "business phone 2", "telefon geschäftlich", "telefon geschäftlich 2")
        add(.phone(label: "work"), "téléphone bureau", "téléphone bureau 2")
        add(.phone(label: "home"), "home phone", "home phone 2", "telefon privat", "telefon privat 2", "téléphone domicile")
        add(.phone(label: "home"), "téléphone domicile 2")
        add(.phone(label: "mobile"), "mobile phone", "mobiltelefon", "tél. mobile", "téléphone mobile")
        add(.phone(label: "work fax"), "business fax", "fax geschäftlich", "télécopie bureau")
        add(.phone(label: "home fax"), "home fax", "fax privat", "télécopie domicile")
        add(.phone(label: "other fax"), "other fax", "weiteres fax", "télécopie autre")
        add(.phone(label: "other"), "other phone", "weiteres telefon", "autre téléphone")
        add(.phone(label: "main"), "primary phone", "company main phone", "haupttelefon", "telefon firma", "téléphone principal")
        add(.phone(label: "pager"), "pager", "récepteur de radiomessagerie")
        add(.phone(label: "car"), "car phone", "autotelefon", "téléphone voiture")
        add(.phone(label: "assistant"), "assistant's phone", "telefon assistent", "téléphone de l'assistant")
        add(.phone(label: "callback"), "callback", "rückmeldung", "rappel")
        add(.phone(label: "isdn"), "isdn")
        add(.phone(label: "radio"), "radio phone", "funkruf")
        add(.phone(label: "telex"), "telex")
        add(.phone(label: "tty"), "tty/tdd phone", "telefon für hörbehinderte")
        let places: [(label: String, en: String, de: String)] = [("work", "business", "geschäftlich"), ("home", "home", "privat")]
        for p in places {
            add(.address(label: p.label, part: .street), "\(p.en) street", "\(p.en) street 2", "\(p.en) street 3", "straße \(p.de)")
            add(.address(label: p.label, part: .street), "straße \(p.de) 2", "straße \(p.de) 3")
            add(.address(label: p.label, part: .city), "\(p.en) city", "ort \(p.de)")
            add(.address(label: p.label, part: .region), "\(p.en) state", "region \(p.de)", "bundesland/kanton \(p.de)")
            add(.address(label: p.label, part: .postalCode), "\(p.en) postal code", "postleitzahl \(p.de)")
            add(.address(label: p.label, part: .country), "\(p.en) country/region", "\(p.en) country", "land/region \(p.de)")
            add(.address(label: p.label, part: .poBox), "\(p.en) address po box", "postfach \(p.de)")
        }
        add(.address(label: "other", part: .street), "other street", "other street 2", "other street 3", "weitere straße")
        add(.address(label: "other", part: .street), "weitere straße 2", "weitere straße 3")
        add(.address(label: "other", part: .city), "other city", "weiterer ort")
        add(.address(label: "other", part: .region), "other state", "weiteres/r bundesland/kanton", "weitere region")
        add(.address(label: "other", part: .postalCode), "other postal code", "weitere postleitzahl")
        add(.address(label: "other", part: .country), "other country/region", "weiteres/r land/region")
        add(.address(label: "other", part: .poBox), "other address po box", "weiteres postfach")
        return m
    }()
}
