import Foundation

/// A card on the server: where it is, its entity tag, its bytes.
public struct RemoteCard: Sendable, Equatable {
    public var href: String
    public var etag: String?
    public var data: Data

    public init(href: String, etag: String?, data: Data) {
        self.href = href
        self.etag = etag
        self.data = data
    }
}

/// What changed on the server since a sync token (RFC 6578), or the whole listing.
public struct RemoteChanges: Sendable {
    /// Cards new or changed since the token, with their entity tags.
    public var changed: [(href: String, etag: String?)]
    /// Cards gone since the token (a full listing has none: absence says it).
    public var removed: [String]
    /// The token to ask from next time.
    public var token: String?
    /// The server has more to tell (507 on the collection): ask again from `token`.
    public var truncated: Bool

    public init(changed: [(href: String, etag: String?)], removed: [String], token: String?, truncated: Bool) {
        (self.changed, self.removed, self.token, self.truncated) = (changed, removed, token, truncated)
    }
}

/// What an address book collection says of itself.
public struct AddressBookProperties: Sendable {
    public var displayName: String?
    public var syncToken: String?
    public var ctag: String?
    public var supportsSyncCollection: Bool
    /// vCard versions `supported-address-data` lists (empty when it says nothing).
    public var versions: [String]
    public var isAddressBook: Bool

    public init(
        displayName: String?, syncToken: String?, ctag: String?, supportsSyncCollection: Bool, versions: [String], isAddressBook: Bool
    ) {
        self.displayName = displayName
        self.syncToken = syncToken
        self.ctag = ctag
        self.supportsSyncCollection = supportsSyncCollection
        self.versions = versions
        self.isAddressBook = isAddressBook
    }
}

/// The answer to a write with a precondition.
public enum WriteResult: Sendable, Equatable {
    /// Written; the card's href (a `Location` may move it) and new entity tag when the server said.
    case written(href: String, etag: String?)
    /// The precondition failed (412): someone else changed or made the card first.
    case preconditionFailed
}

/// Requests to one CardDAV address book (RFC 6352) over an `HTTPClient`.
public final class AddressBookClient: Sendable {
    public let url: URL
    public let http: HTTPClient

    public init(url: URL, http: HTTPClient) {
        self.url = url.absoluteString.hasSuffix("/") ? url : url.appendingPathComponent("")
        self.http = http
    }

    /// The collection's own properties (one Depth:0 PROPFIND).
    public func properties() throws(DAVError) -> AddressBookProperties {
        let answer = try multistatus(
            "PROPFIND", url, depth: "0",
            DAVBodies.propfind([
                (DAVNamespace.dav, "displayname"), (DAVNamespace.dav, "resourcetype"), (DAVNamespace.dav, "sync-token"),
                (DAVNamespace.calendarServer, "getctag"), (DAVNamespace.dav, "supported-report-set"),
                (DAVNamespace.cardDAV, "supported-address-data"),
            ]))
        let me = answer.responses.first { Self.samePath($0.href, url.path) } ?? answer.responses.first
        guard let me else { throw .malformed("\(URLPolicy.redacted(url)) answered its PROPFIND with no properties") }
        let reports =
            me.property("supported-report-set")?.all("supported-report").compactMap { $0.child("report")?.children.first?.name } ?? []
        let versions =
            me.property("supported-address-data", DAVNamespace.cardDAV)?.all("address-data-type", DAVNamespace.cardDAV).compactMap {
                $0.attributes["version"]
            } ?? []
        return AddressBookProperties(
            displayName: me.property("displayname")?.value.nonEmpty, syncToken: me.property("sync-token")?.value.nonEmpty,
            ctag: me.property("getctag", DAVNamespace.calendarServer)?.value.nonEmpty,
            supportsSyncCollection: reports.contains("sync-collection"),
            versions: versions, isAddressBook: me.property("resourcetype")?.child("addressbook", DAVNamespace.cardDAV) != nil)
    }

    /// The changes since `token` (nil: everything there is). Throws `.status(403|412)` with
    /// `isInvalidToken` when the server no longer knows the token.
    ///
    /// With `cards`, the cards themselves are asked for too (RFC 6578 allows any property):
    /// each one the server sends with its data goes to `cards` as the answer is read, from a
    /// file rather than memory, so a whole first download is one request whatever its size.
    /// Every change is still in `changed`; those that came without data (a server that does
    /// not send `address-data` here) are for a multiget. `cards` returns false to stop.
    public func changes(since token: String?, cards: ((RemoteCard) -> Bool)? = nil) throws(DAVError) -> RemoteChanges {
        let body = DAVBodies.syncCollection(token: token, withCards: cards != nil)
        var out = RemoteChanges(changed: [], removed: [], token: nil, truncated: false)
        func take(_ r: Multistatus.Response) -> Bool {
            if Self.samePath(r.href, url.path) {
                // The collection itself: 507 says there is more; some servers (iCloud) list it as changed.
                if r.status == 507 { out.truncated = true }
            } else if r.status == 404 {
                out.removed.append(r.href)
            } else if !r.href.hasSuffix("/") {
                out.changed.append((r.href, r.etag))
                if let cards, let data = r.property("address-data", DAVNamespace.cardDAV)?.text, !data.isEmpty {
                    return cards(RemoteCard(href: r.href, etag: r.etag, data: Data(data.utf8)))
                }
            }
            return true
        }
        guard cards != nil else {
            let answer = try multistatus("REPORT", url, depth: "1", body)
            for r in answer.responses { _ = take(r) }
            out.token = answer.syncToken
            return out
        }
        let answer = try http.send(
            HTTPRequest("REPORT", url, headers: ["Depth": "1", "Content-Type": "application/xml; charset=utf-8"], body: body),
            bodyToFile: true)
        guard answer.status == 207, let stream = answer.bodyFile?.stream() else {
            try Self.check(answer, url)
            throw .malformed("\(URLPolicy.redacted(url)) answered REPORT with \(answer.status), not 207 Multi-Status")
        }
        let token = try MultistatusStream.read(stream, each: take)
        out.token = token
        return out
    }

    /// Every card's href and entity tag (a Depth:1 PROPFIND), for servers without sync-collection.
    public func listing() throws(DAVError) -> [(href: String, etag: String?)] {
        let answer = try multistatus(
            "PROPFIND", url, depth: "1", DAVBodies.propfind([(DAVNamespace.dav, "getetag"), (DAVNamespace.dav, "resourcetype")]))
        return answer.responses.compactMap { r in
            guard !Self.samePath(r.href, url.path), r.property("resourcetype")?.children.isEmpty ?? true, !r.href.hasSuffix("/") else {
                return nil
            }
            return (r.href, r.etag)
        }
    }

    /// The cards at `hrefs` in one addressbook-multiget; hrefs the server does not have are left out.
    public func multiget(_ hrefs: [String]) throws(DAVError) -> [RemoteCard] {
        guard !hrefs.isEmpty else { return [] }
        let answer = try multistatus("REPORT", url, depth: "1", DAVBodies.multiget(hrefs.map(Self.encodedPath)))
        return answer.responses.compactMap { r in
            guard let data = r.property("address-data", DAVNamespace.cardDAV)?.text, !data.isEmpty else { return nil }
            return RemoteCard(href: r.href, etag: r.etag, data: Data(data.utf8))
        }
    }

    /// One card by GET; nil when it is not there (404, 410).
    public func get(_ href: String) throws(DAVError) -> RemoteCard? {
        let target = resolve(href)
        let answer = try http.send(HTTPRequest("GET", target, headers: ["Accept": "text/vcard"]))
        if answer.status == 404 || answer.status == 410 { return nil }
        try Self.check(answer, target)
        return RemoteCard(href: href, etag: answer.header("etag"), data: answer.body)
    }

    /// Writes a card: a new one with `If-None-Match: *` (`etag` nil), a known one with `If-Match`.
    public func put(_ href: String, _ data: Data, etag: String?, version: String = "3.0") throws(DAVError) -> WriteResult {
        let target = resolve(href)
        var headers = ["Content-Type": "text/vcard; charset=utf-8"]
        if let etag { headers["If-Match"] = etag } else { headers["If-None-Match"] = "*" }
        let answer = try http.send(HTTPRequest("PUT", target, headers: headers, body: data))
        if answer.status == 412 { return .preconditionFailed }
        try Self.check(answer, target)
        var written = href
        if let location = answer.header("location"), let moved = URL(string: location, relativeTo: url) {
            written = moved.path.removingPercentEncoding ?? moved.path
        }
        return .written(href: written, etag: answer.header("etag"))
    }

    /// Deletes a card with `If-Match` (when its tag is known); a card already gone is not an error.
    public func delete(_ href: String, etag: String?) throws(DAVError) -> WriteResult {
        let target = resolve(href)
        var headers: [String: String] = [:]
        if let etag { headers["If-Match"] = etag }
        let answer = try http.send(HTTPRequest("DELETE", target, headers: headers))
        if answer.status == 412 { return .preconditionFailed }
        if answer.status == 404 || answer.status == 410 { return .written(href: href, etag: nil) }
        try Self.check(answer, target)
        return .written(href: href, etag: nil)
    }

    /// The href a new card of this UID gets: the UID itself when it is safe in a path, else a fresh name.
    public func hrefForNewCard(uid: String) -> String { Self.hrefForNewCard(uid: uid, in: url) }

    /// The href a new card of this UID gets in the book at `book`.
    public static func hrefForNewCard(uid: String, in book: URL) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        var name = uid.lowercased().hasPrefix("urn:uuid:") ? String(uid.dropFirst(9)) : uid
        if name.isEmpty || name.count > 128 || name.unicodeScalars.contains(where: { !allowed.contains($0) }) || name.hasPrefix(".") {
            name = UUID().uuidString.lowercased()
        }
        return (book.path.hasSuffix("/") ? book.path : book.path + "/") + name + ".vcf"
    }

    /// Whether `error` says the sync token is no longer valid (Radicale 403, Xandikos 412,
    /// others 400 or 409 with `valid-sync-token`).
    public static func isInvalidToken(_ error: DAVError) -> Bool {
        guard case .status(let code, _, let message, _) = error else { return false }
        return message.contains("valid-sync-token") || code == 403 || code == 412 || code == 409
    }

    func resolve(_ href: String) -> URL {
        URL(string: Self.encodedPath(href), relativeTo: url)?.absoluteURL ?? url
    }

    private func multistatus(_ method: String, _ target: URL, depth: String, _ body: Data) throws(DAVError) -> Multistatus {
        let answer = try http.send(
            HTTPRequest(method, target, headers: ["Depth": depth, "Content-Type": "application/xml; charset=utf-8"], body: body))
        guard answer.status == 207 else {
            try Self.check(answer, target)
            throw .malformed("\(URLPolicy.redacted(target)) answered \(method) with \(answer.status), not 207 Multi-Status")
        }
        return try Multistatus.parse(answer.body)
    }

    /// Throws for an error status, with what the server said of it (a precondition's name).
    static func check(_ answer: HTTPResponse, _ target: URL) throws(DAVError) {
        guard answer.status >= 300 else { return }
        var message = ""
        if let text = String(data: answer.body.prefix(2048), encoding: .utf8) {
            for condition in ["valid-sync-token", "no-uid-conflict", "max-resource-size", "supported-address-data", "valid-address-data"]
            where text.contains(condition) {
                message = condition
            }
        }
        throw .status(answer.status, url: URLPolicy.redacted(target), message: message, retryAfter: answer.retryAfter)
    }

    static func encodedPath(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    static func samePath(_ a: String, _ b: String) -> Bool {
        func norm(_ s: String) -> String {
            // Most hrefs are plain paths: those need neither URL parsing nor decoding.
            let plain = s.utf8.first == UInt8(ascii: "/") && !s.utf8.contains(UInt8(ascii: "%"))
            let p = plain ? s : (URL(string: s)?.path ?? s).removingPercentEncoding ?? s
            return p.hasSuffix("/") ? String(p.dropLast()) : p
        }
        return norm(a) == norm(b)
    }
}
