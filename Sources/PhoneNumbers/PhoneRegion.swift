import ContactsSupport
import PhoneNumberShim

/// The region whose numbers are written without a country code: `defaultRegion` of the
/// configuration, else the one the locale names (`LC_TELEPHONE`, `LC_ALL`, `LANG`).
public enum PhoneRegion {
    /// Whether `code` is an ISO 3166 region libphonenumber has numbers for ("DE", "US").
    public static func isKnown(_ code: String) -> Bool {
        code.utf8.count == 2 && code.withCString { pn_is_region($0) } == 1
    }

    /// The region of the locale the C library would use for telephone numbers: `LC_ALL`,
    /// else `LC_TELEPHONE`, else `LANG` (the first that is set wins, as in POSIX):
    /// `de_DE.UTF-8` → `DE`; nil for `C`, `POSIX`, a language alone or an unknown region.
    public static func fromLocale(_ environment: [String: String]) -> String? {
        for name in ["LC_ALL", "LC_TELEPHONE", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return region(ofLocale: value)
        }
        return nil
    }

    /// The region part of a locale name such as `pt_BR.UTF-8` or `sr_RS@latin`.
    public static func region(ofLocale name: String) -> String? {
        let base = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        let noModifier = base.split(separator: "@", maxSplits: 1).first.map(String.init) ?? base
        let parts = noModifier.split(separator: "_")
        guard parts.count == 2 else { return nil }
        let code = parts[1].uppercased()
        return isKnown(code) ? code : nil
    }
}

extension PhoneRegion {
    /// The region this process reads numbers without a country code in (nil: none; such
    /// numbers are then compared by their digits). Set once at start, before the store opens.
    public static var current: String? {
        get { setting.withLock { $0 } }
        set { setting.withLock { $0 = newValue } }
    }

    private static let setting = Locked<String?>(nil)

    /// The region whose numbers have `countryCode` ("DE" for 49; "US" for 1, the main one of
    /// those sharing it); nil for a code no region has.
    public static func main(ofCountryCode countryCode: Int) -> String? {
        var out: (CChar, CChar, CChar) = (0, 0, 0)
        guard
            withUnsafeMutablePointer(
                to: &out,
                { p in
                    p.withMemoryRebound(to: CChar.self, capacity: 3) { pn_region_for_country(Int32(countryCode), $0) }
                }) == 1
        else { return nil }
        return String(decoding: [UInt8(bitPattern: out.0), UInt8(bitPattern: out.1)], as: UTF8.self)
    }
}
