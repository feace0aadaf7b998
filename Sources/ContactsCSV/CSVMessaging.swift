import ContactsSupport
import Foundation

/// Messaging addresses as CSV holds them (a service's name and a handle) and as contactsd
/// keeps them (URIs).
enum CSVMessaging {
    /// The URI schemes of the services contacts CSV names, by the names programs give them.
    static let schemes: [String: String] = [
        "jabber": "xmpp", "xmpp": "xmpp", "google talk": "xmpp", "hangouts": "xmpp", "skype": "skype", "aim": "aim", "icq": "icq",
        "yahoo": "ymsgr", "qq": "mqq", "msn": "msnim", "windows live": "msnim", "sip": "sip", "matrix": "matrix", "irc": "irc",
        "gadu-gadu": "gg", "netmeeting": "callto",
    ]

    /// The names a CSV gives the services, by scheme.
    static let services: [String: String] = [
        "xmpp": "Jabber", "skype": "Skype", "aim": "AIM", "icq": "ICQ", "ymsgr": "Yahoo", "mqq": "QQ", "msnim": "MSN", "sip": "SIP",
        "matrix": "Matrix", "irc": "IRC", "gg": "Gadu-Gadu",
    ]

    /// The scheme of a service a CSV names ("* Jabber", "SKYPE"); an unknown one as `x-name`.
    static func scheme(service raw: String) -> String? {
        var s = raw.trimmingWhitespace().lowercased()
        if s.hasPrefix("* ") { s = String(s.dropFirst(2)) }
        guard !s.isEmpty else { return nil }
        if let known = schemes[s] { return known }
        let letters = s.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return letters.isEmpty ? nil : "x-" + letters
    }

    /// A handle as a URI: one that has a scheme already stays as it is.
    static func uri(_ handle: String, scheme: String?) -> String {
        let head = handle.prefix { $0 != ":" }
        if head.count < handle.count, head.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
            return handle
        }
        return (scheme ?? "x-im") + ":" + handle
    }

    /// A URI as a CSV's service and handle; a web profile is its URL with no service.
    static func serviceAndHandle(_ uri: String) -> (service: String, handle: String) {
        let scheme = uri.prefix { $0 != ":" }.lowercased()
        guard scheme.count < uri.count, scheme != "http", scheme != "https" else { return ("", uri) }
        let handle = String(uri.dropFirst(scheme.count + 1))
        if let name = services[scheme] { return (name, handle) }
        if scheme.hasPrefix("x-") { return (String(scheme.dropFirst(2)).capitalized, handle) }
        return ("", uri)
    }
}
