import PhoneNumberShim

/// A phone number as libphonenumber understands it: the same number however it was written
/// ("0171 5550199" in Germany, "+49 171 5550199", "0049 171 5550199").
public struct PhoneNumber: Sendable, Equatable, Hashable {
    /// E.164: `+`, the country code and the national significant number.
    public var e164: String
    /// The national significant number: no trunk prefix, no country code.
    public var national: String
    public var countryCode: Int
    public var type: PhoneNumberType
    /// Whether the text carried its own country code (else the default region gave it).
    public var international: Bool

    /// `text` read as a number dialled in `region` (ISO 3166; nil: only numbers that carry
    /// their own country code parse). Nil for text that is not a possible number: an
    /// extension alone, "ask reception", too few or too many digits.
    /// `withType` false leaves `type` unknown, for half the cost.
    public static func parse(_ text: String, region: String?, withType: Bool = true) -> PhoneNumber? {
        // Longer text is no phone number; libphonenumber refuses it too, after more work.
        guard text.utf8.count <= 250, !text.utf8.contains(0) else { return nil }
        var out = pn_number()
        let typed: Int32 = withType ? 1 : 0
        let parsed = compact(text).withCString { t in
            region.map { r in r.withCString { pn_parse(t, $0, typed, &out) } } ?? pn_parse(t, nil, typed, &out)
        }
        guard parsed == 1 else { return nil }
        let e164 = withUnsafeBytes(of: out.e164) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let national = withUnsafeBytes(of: out.national) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return PhoneNumber(
            e164: e164, national: national, countryCode: Int(out.country_code), type: PhoneNumberType(code: out.type),
            international: out.international != 0)
    }
}

extension PhoneNumber {
    /// A number written with digits and separators only, as its digits (and its leading `+`):
    /// what libphonenumber makes of it is the same, and it reads the short form in about
    /// two thirds of the time. Anything else (letters, extensions, other scripts' digits) is
    /// left as it is.
    static func compact(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for (i, b) in text.utf8.enumerated() {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): out.append(b)
            case UInt8(ascii: "+") where out.isEmpty && (i == 0 || text.utf8.prefix(i).allSatisfy { $0 == 0x20 }): out.append(b)
            case 0x20, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "/"): continue
            default: return text
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// What kind of line a number is, as libphonenumber's metadata says.
public enum PhoneNumberType: String, Sendable, CaseIterable {
    case fixedLine = "fixed-line"
    case mobile
    case fixedLineOrMobile = "fixed-line-or-mobile"
    case tollFree = "toll-free"
    case premiumRate = "premium-rate"
    case sharedCost = "shared-cost"
    case voip
    case personal
    case pager
    case uan
    case voicemail
    case unknown

    init(code: Int32) {
        let all: [PhoneNumberType] = [
            .fixedLine, .mobile, .fixedLineOrMobile, .tollFree, .premiumRate, .sharedCost, .voip, .personal, .pager, .uan, .voicemail,
        ]
        self = code >= 0 && Int(code) < all.count ? all[Int(code)] : .unknown
    }
}
