import DAVXML
import Foundation

/// One resource of the CardDAV face and its properties, as a PROPFIND answer writes them.
struct DAVResource {
    enum Kind {
        case root, principal, home
        case book(ServedBook)
        case card(book: String, ServedCardInfo)
    }

    var kind: Kind
    var maxResourceSize: Int
    var writable = false

    var path: DAVPath {
        switch kind {
        case .root: return .root
        case .principal: return .principal
        case .home: return .home
        case .book(let b): return .book(b.name)
        case .card(let book, let c): return .card(book: book, name: c.name)
        }
    }

    typealias Property = PropertyRequest.Property

    static let dav = DAVNamespace.dav
    static let card = DAVNamespace.cardDAV
    static let cs = DAVNamespace.calendarServer

    /// The properties `allprop` and `propname` give, by kind.
    var known: [Property] {
        var p = [("resourcetype", Self.dav), ("displayname", Self.dav), ("current-user-principal", Self.dav)]
        switch kind {
        case .root, .home:
            p += [("principal-URL", Self.dav), ("addressbook-home-set", Self.card)]
        case .principal:
            p += [("principal-URL", Self.dav), ("addressbook-home-set", Self.card)]
        case .book:
            p += [
                ("getctag", Self.cs), ("supported-address-data", Self.card), ("supported-report-set", Self.dav),
                ("current-user-privilege-set", Self.dav), ("max-resource-size", Self.card), ("addressbook-description", Self.card),
            ]
            if case .book(let b) = kind, b.syncToken != nil { p.append(("sync-token", Self.dav)) }
        case .card:
            p = [("resourcetype", Self.dav), ("getetag", Self.dav), ("getcontenttype", Self.dav), ("getlastmodified", Self.dav)]
        }
        return p.map { Property(namespace: $0.1, name: $0.0) }
    }

    /// Writes one property's value into `w`; false when this resource has no such property.
    func write(_ p: Property, into w: inout XMLWriter) -> Bool {
        switch (p.namespace, p.name) {
        case (Self.dav, "resourcetype"):
            w.start("resourcetype")
            switch kind {
            case .root, .home: w.element("collection")
            case .principal: w.element("principal")
            case .book:
                w.element("collection")
                w.element("addressbook", Self.card)
            case .card: break
            }
            w.end()
        case (Self.dav, "displayname"):
            switch kind {
            case .root: w.element("displayname", text: "contactsd")
            case .principal: w.element("displayname", text: NSUserName())
            case .home: w.element("displayname", text: "Address books")
            case .book(let b): w.element("displayname", text: b.displayName)
            case .card: return false
            }
        case (Self.dav, "current-user-principal"), (Self.dav, "principal-URL"):
            guard !isCard else { return false }
            w.start(p.name)
            w.element("href", text: DAVPath.principalPath)
            w.end()
        case (Self.card, "addressbook-home-set"):
            guard !isCard, !isBook else { return false }
            w.start("addressbook-home-set", Self.card)
            w.element("href", text: DAVPath.homePath)
            w.end()
        case (Self.cs, "getctag"):
            guard case .book(let b) = kind else { return false }
            w.element("getctag", Self.cs, text: b.ctag)
        case (Self.card, "supported-address-data"):
            guard isBook else { return false }
            w.start("supported-address-data", Self.card)
            w.raw(#"<card:address-data-type content-type="text/vcard" version="3.0"/>"#)
            w.raw(#"<card:address-data-type content-type="text/vcard" version="4.0"/>"#)
            w.end()
        case (Self.dav, "supported-report-set"):
            guard isBook else { return false }
            w.start("supported-report-set")
            w.start("supported-report")
            w.start("report")
            w.element("addressbook-multiget", Self.card)
            w.end()
            w.end()
            w.start("supported-report")
            w.start("report")
            w.element("addressbook-query", Self.card)
            w.end()
            w.end()
            if case .book(let b) = kind, b.syncToken != nil {
                w.start("supported-report")
                w.start("report")
                w.element("sync-collection")
                w.end()
                w.end()
            }
            w.end()
        case (Self.dav, "sync-token"):
            guard case .book(let b) = kind, let token = b.syncToken else { return false }
            w.element("sync-token", text: token)
        case (Self.dav, "current-user-privilege-set"):
            guard isBook else { return false }
            w.start("current-user-privilege-set")
            for p in writable ? ["read", "write", "write-content", "bind", "unbind"] : ["read"] {
                w.start("privilege")
                w.element(p)
                w.end()
            }
            w.end()
        case (Self.card, "max-resource-size"):
            guard isBook else { return false }
            w.element("max-resource-size", Self.card, text: String(maxResourceSize))
        case (Self.card, "addressbook-description"):
            guard case .book(let b) = kind else { return false }
            w.element(
                "addressbook-description", Self.card,
                text: b.name == "local" ? "Contacts on this machine alone" : "Contacts of the account \(b.name)")
        case (Self.dav, "getetag"):
            guard case .card(_, let c) = kind else { return false }
            w.element("getetag", text: c.etag)
        case (Self.dav, "getcontenttype"):
            guard isCard else { return false }
            w.element("getcontenttype", text: "text/vcard; charset=utf-8")
        case (Self.dav, "getlastmodified"):
            guard case .card(_, let c) = kind else { return false }
            w.element("getlastmodified", text: HTTPDate.format(c.lastModified))
        default:
            return false
        }
        return true
    }

    var isBook: Bool { if case .book = kind { true } else { false } }
    var isCard: Bool { if case .card = kind { true } else { false } }
}

/// RFC 9110's IMF-fixdate.
enum HTTPDate {
    static func format(_ seconds: Int64) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(Int(parts.tm_year) + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
