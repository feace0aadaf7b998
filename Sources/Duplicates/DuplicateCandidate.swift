import ContactsCore
import ContactsSupport
import PhoneNumbers

/// What duplicates are looked for by, of one contact: its name's keys and its emails and
/// phone numbers as they compare.
public struct DuplicateCandidate: Sendable {
    public var id: String
    public var name: String
    /// The name's words, folded and sorted ("núñez josé" and "José Núñez" alike).
    var fullName: String
    /// Keys under which two names are the same: the whole name, and given and family name
    /// alone (a middle name one card has and the other lacks).
    var nameKeys: [String]
    /// Lower case.
    var emails: [String]
    /// Messaging addresses (`xmpp:ana@example.org`), lower case.
    var messaging: [String] = []
    /// E.164 where the number parses, else its digits (`DuplicateCandidate.phoneKey`).
    var phones: [String]

    /// `phones`: each phone's key (`phoneKey(e164:text:)`).
    public init(id: String, name: String, structuredName: StructuredName?, emails: [String], phones: [String], messaging: [String] = []) {
        self.id = id
        self.name = name
        let words = NameKey.words(name)
        fullName = words.sorted().joined(separator: " ")
        var keys = fullName.isEmpty ? [] : [fullName]
        var short: [String] = []
        if let n = structuredName, !n.given.isEmpty, !n.family.isEmpty {
            short = NameKey.words(n.given + " " + n.family)
        } else if words.count >= 3, let first = words.first, let last = words.last {
            short = [first, last]
        }
        let shortKey = short.sorted().joined(separator: " ")
        if !shortKey.isEmpty && shortKey != fullName && short.count >= 2 { keys.append(shortKey) }
        nameKeys = keys
        self.emails = Array(Set(emails.map { $0.trimmingWhitespace().lowercased() }.filter { !$0.isEmpty }))
        self.phones = Array(Set(phones.filter { !$0.isEmpty }))
        self.messaging = Array(Set(messaging.map { $0.trimmingWhitespace().lowercased() }.filter { !$0.isEmpty }))
    }

    /// A contact as a candidate, its phones read in `region`.
    public init(_ c: Contact, region: String?) {
        self.init(
            id: c.id, name: c.name, structuredName: c.structuredName, emails: c.emails.map(\.value),
            phones: c.phones.compactMap { p in
                Self.phoneKey(e164: PhoneNumber.parse(p.value, region: region, withType: false)?.e164, text: p.value)
            }, messaging: c.impp.map(\.value))
    }

    /// A phone as duplicates compare it: its E.164 form, so that "0171 5550199" and
    /// "+49 171 5550199" are one number; else its digits, when there are seven or more.
    public static func phoneKey(e164: String?, text: String) -> String? {
        if let e164 { return e164 }
        let digits = PhoneDigits.of(text)
        return digits.count >= PhoneMatch.shortDigits ? digits : nil
    }

    /// Whether two phone keys are one number: the same key, or a number written without a
    /// country code (its digits: no region to read it in) that is the other's when read in
    /// the other's country ("(555) 564-8583" and "+1 555-564-8583").
    public static func samePhone(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard a.hasPrefix("+") != b.hasPrefix("+"), PhoneDigits.tail(a) == PhoneDigits.tail(b) else { return false }
        let (international, digits) = a.hasPrefix("+") ? (a, b) : (b, a)
        guard let number = PhoneNumber.parse(international, region: nil, withType: false),
            let region = PhoneRegion.main(ofCountryCode: number.countryCode)
        else { return false }
        return PhoneNumber.parse(digits, region: region, withType: false)?.e164 == international
    }
}
