import Foundation

/// An address book found on a server.
public struct FoundAddressBook: Sendable, Equatable {
    public var url: URL
    public var displayName: String?
}

/// Finds the address books behind what a person typed (RFC 6352 §7, RFC 6764): the book's own
/// URL, a server's root or any URL on it, a host name, or an email address's domain. From the
/// URL, or else `/.well-known/carddav`, it asks for `current-user-principal`, then the
/// principal's `addressbook-home-set`, then the books in that home.
public enum Discovery {
    /// The URL to start from: for `kate@example.com` and `example.com`, where the domain's
    /// `_carddavs._tcp` SRV record points, else `https://example.com/`; a URL is taken as it is.
    public static func startURL(_ typed: String, locator: ServiceLocator = .system) throws(DAVError) -> URL {
        let t = typed.trimmingCharacters(in: .whitespaces)
        if t.contains("://") {
            guard let u = URL(string: t) else { throw .refusedURL("'\(t)' is not a URL") }
            try URLPolicy.check(u)
            return u
        }
        let host = t.split(separator: "@").last.map(String.init) ?? t
        guard !host.isEmpty, let u = URL(string: "https://\(host)/") else {
            throw .refusedURL("'\(t)' is not a URL, host or email address")
        }
        return locator.carddavURL(for: host) ?? u
    }

    /// The address books at or behind `url`.
    public static func addressBooks(from url: URL, http: HTTPClient) throws(DAVError) -> [FoundAddressBook] {
        // The URL itself may be the book (or a home holding books).
        if let books = try? books(at: url, http: http), !books.isEmpty { return books }
        var principal = try? property(url, "current-user-principal", http: http)
        if principal == nil {
            let wellKnown = url.resolvingPath("/.well-known/carddav")
            principal = try property(wellKnown, "current-user-principal", http: http)
        }
        guard let principal, let principalURL = URL(string: principal, relativeTo: url)?.absoluteURL else {
            throw .malformed("\(URLPolicy.redacted(url)) names no principal (current-user-principal): is it a CardDAV server?")
        }
        guard let home = try property(principalURL, "addressbook-home-set", DAVNamespace.cardDAV, http: http),
            let homeURL = URL(string: home, relativeTo: url)?.absoluteURL
        else { throw .malformed("the principal \(URLPolicy.redacted(principalURL)) has no address-book home (addressbook-home-set)") }
        let found = try books(at: homeURL, http: http)
        guard !found.isEmpty else { throw .malformed("\(URLPolicy.redacted(homeURL)) holds no address book") }
        return found
    }

    /// The address books among `url` and its members (a Depth:1 PROPFIND).
    static func books(at url: URL, http: HTTPClient) throws(DAVError) -> [FoundAddressBook] {
        let answer = try http.send(
            HTTPRequest(
                "PROPFIND", url, headers: ["Depth": "1", "Content-Type": "application/xml; charset=utf-8"],
                body: DAVBodies.propfind([(DAVNamespace.dav, "resourcetype"), (DAVNamespace.dav, "displayname")])))
        guard answer.status == 207 else {
            try AddressBookClient.check(answer, url)
            return []
        }
        let status = try Multistatus.parse(answer.body)
        // The URL itself, when it is a book, is the one meant.
        if let me = status.responses.first(where: { AddressBookClient.samePath($0.href, url.path) }),
            me.property("resourcetype")?.child("addressbook", DAVNamespace.cardDAV) != nil
        {
            return [FoundAddressBook(url: url, displayName: me.property("displayname")?.value.nonEmpty)]
        }
        return status.responses.compactMap { r in
            guard r.property("resourcetype")?.child("addressbook", DAVNamespace.cardDAV) != nil,
                let u = URL(string: AddressBookClient.encodedPath(r.href), relativeTo: url)?.absoluteURL
            else { return nil }
            return FoundAddressBook(url: u, displayName: r.property("displayname")?.value.nonEmpty)
        }
    }

    /// The href inside property `name` of `url` (a Depth:0 PROPFIND).
    static func property(_ url: URL, _ name: String, _ namespace: String = DAVNamespace.dav, http: HTTPClient) throws(DAVError) -> String? {
        let answer = try http.send(
            HTTPRequest(
                "PROPFIND", url, headers: ["Depth": "0", "Content-Type": "application/xml; charset=utf-8"],
                body: DAVBodies.propfind([(namespace, name)])))
        guard answer.status == 207 else {
            try AddressBookClient.check(answer, url)
            return nil
        }
        let status = try Multistatus.parse(answer.body)
        return status.responses.lazy.compactMap { $0.property(name, namespace)?.child("href")?.value.nonEmpty }.first
    }

    /// Picks the book `wanted` names (display name or href), else the only one, else the one
    /// whose path ends in `contacts/` or `addressbook/`, else the first.
    public static func pick(_ books: [FoundAddressBook], wanted: String?) -> FoundAddressBook? {
        if let wanted {
            return books.first {
                $0.displayName == wanted || $0.url.path == wanted || $0.url.absoluteString == wanted || $0.url.lastPathComponent == wanted
            }
        }
        if books.count == 1 { return books[0] }
        return books.first { ["contacts", "addressbook", "default"].contains($0.url.lastPathComponent.lowercased()) } ?? books.first
    }
}

extension URL {
    /// An absolute path on this URL's server.
    func resolvingPath(_ path: String) -> URL {
        URL(string: path, relativeTo: self)?.absoluteURL ?? self
    }
}
