/// How well a stored number answers a number asked for (caller ID, best first): the same
/// E.164 number; the same national number where one of them was written without a country
/// code; or, as a last resort, the same last seven or more digits.
public enum PhoneMatch: String, Sendable, Comparable {
    case exact
    case national
    case short

    /// Digits that make a `short` match at the least.
    public static let shortDigits = 7

    public static func < (a: PhoneMatch, b: PhoneMatch) -> Bool { a.rank < b.rank }

    private var rank: Int {
        switch self {
        case .exact: 0
        case .national: 1
        case .short: 2
        }
    }

    /// How `stored` answers `asked`, both read in `region`; nil when it does not.
    public static func of(_ stored: String, asking asked: String, region: String?) -> PhoneMatch? {
        of(stored, asking: PhoneNumber.parse(asked, region: region, withType: false), asked, region: region)
    }

    /// The same, with `asked` read already (`a`): a lookup reads it once for all candidates.
    public static func of(_ stored: String, asking a: PhoneNumber?, _ asked: String, region: String?) -> PhoneMatch? {
        let s = PhoneNumber.parse(stored, region: region, withType: false)
        if let a, let s, a.e164 == s.e164 { return .exact }
        let aOwn = a?.international ?? false
        let sOwn = s?.international ?? false
        if !(aOwn && sOwn) {
            // The one written without a country code, read in the other one's country.
            if let a, aOwn, let r = PhoneRegion.main(ofCountryCode: a.countryCode),
                PhoneNumber.parse(stored, region: r, withType: false)?.national == a.national
            {
                return .national
            }
            if let s, sOwn, let r = PhoneRegion.main(ofCountryCode: s.countryCode),
                PhoneNumber.parse(asked, region: r, withType: false)?.national == s.national
            {
                return .national
            }
            let ad = PhoneDigits.of(asked)
            if !aOwn && !sOwn && ad.count >= shortDigits && ad == PhoneDigits.of(stored) { return .national }
        }
        let tailA = PhoneDigits.tail(a?.e164 ?? asked), tailS = PhoneDigits.tail(s?.e164 ?? stored)
        if let tailA, tailA == tailS { return .short }
        return nil
    }
}

/// The digits of a written number, in any script's decimal digits, as ASCII.
public enum PhoneDigits {
    public static func of(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)
        }
        var out = ""
        for u in text.unicodeScalars {
            if u.isASCII {
                if u.value >= 0x30 && u.value <= 0x39 { out.unicodeScalars.append(u) }
            } else if u.properties.numericType == .decimal, let v = u.properties.numericValue {
                out.append(String(Int(v)))
            }
        }
        return out
    }

    /// The last `PhoneMatch.shortDigits` digits, by which stored numbers are found for a
    /// `short` match; nil for a number with fewer.
    public static func tail(_ text: String) -> String? {
        let d = of(text)
        return d.count >= PhoneMatch.shortDigits ? String(d.suffix(PhoneMatch.shortDigits)) : nil
    }
}

/// What the store keeps of a phone to find it by number: its E.164 form (nil when it does
/// not parse) and the tail of its digits (nil when it has too few).
public struct PhoneKeys: Sendable, Equatable {
    public var e164: String?
    public var tail: String?
    /// The national significant number, when it parses.
    public var national: String?

    public init(_ text: String, region: String?) {
        let n = PhoneNumber.parse(text, region: region, withType: false)
        e164 = n?.e164
        national = n?.national
        tail = PhoneDigits.tail(n?.e164 ?? text)
    }

    /// The keys of `text` without reading it as a number: its tail only (a large import's
    /// phones, read as numbers after it).
    public init(digitsOf text: String) {
        e164 = nil
        national = nil
        tail = PhoneDigits.tail(text)
    }
}
