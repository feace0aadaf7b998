import DAVXML
import Foundation
import HTTPServer

/// REPORT `sync-collection` (RFC 6578, sync-level 1): the cards changed in a book since a
/// token, the ones gone from it as 404 members, and the next token; cut at `DAV:limit` with a
/// 507 for the book, so that the client asks again from the token given.
extension DAVService {
    func syncCollection(_ root: XMLElement, _ request: HTTPRequest, book: String) throws -> HTTPResponse {
        let level = root.child("sync-level")?.value.trimmingCharacters(in: .whitespacesAndNewlines) ?? "1"
        // A book holds no collections: "infinite" asks for the same as 1.
        guard level == "1" || level == "infinite" else {
            throw DAVFailure(status: 400, message: "sync-level is 1 or infinite, not '\(level)'")
        }
        let token = root.child("sync-token")?.value.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        var limit: Int?
        if let nresults = root.child("limit")?.child("nresults") {
            guard let n = Int(nresults.value.trimmingCharacters(in: .whitespacesAndNewlines)), n > 0 else {
                throw DAVFailure(status: 400, message: "DAV:nresults is a positive number, not '\(nresults.value)'")
            }
            limit = n
        }
        let answer = try books.changes(in: book, since: token.isEmpty ? nil : token, limit: limit)
        let changes: ServedChanges
        switch answer {
        case .changes(let c): changes = c
        case .noBook: throw DAVFailure(status: 404, message: "there is no address book \(book)")
        case .unsupported:
            var w = XMLWriter()
            w.start("error")
            w.element("supported-report")
            w.end()
            return HTTPResponse(status: 403, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(w.text.utf8))
        case .invalidToken: return Self.invalidToken(token, request)
        }

        let asked = PropertyRequest.of(root)
        let data = Self.addressData(root, asked, accept: request.header("Accept"))
        var plain = asked
        if case .some(let list) = asked { plain = .some(list.filter { !Self.isAddressData($0) }) }
        var w = XMLWriter()
        w.start("multistatus")
        let writable = books is WritableBooks
        for info in changes.changed {
            guard let version = data else {
                Self.response(
                    DAVResource(kind: .card(book: book, info), maxResourceSize: maxResourceSize, writable: writable), plain, into: &w)
                continue
            }
            // Gone since the list was read: reported gone.
            guard let card = try books.card(info.name, in: book, version: version) else {
                Self.gone(DAVPath.card(book: book, name: info.name).href, into: &w)
                continue
            }
            let text = card.text
            Self.response(
                DAVResource(kind: .card(book: book, card.info), maxResourceSize: maxResourceSize, writable: writable), plain,
                extra: { $0.element("address-data", DAVNamespace.cardDAV, text: text) }, into: &w)
        }
        for name in changes.removed { Self.gone(DAVPath.card(book: book, name: name).href, into: &w) }
        if changes.truncated { Self.truncation(book, into: &w) }
        w.element("sync-token", text: changes.token)
        w.end()
        return Self.multistatus(w)
    }

    /// A member gone from the book: its href with a 404 status and no properties.
    static func gone(_ href: String, into w: inout XMLWriter) {
        w.start("response")
        w.element("href", text: href)
        w.element("status", text: "HTTP/1.1 404 Not Found")
        w.end()
    }

    /// A token the change log does not reach back to: RFC 6578's 403 `valid-sync-token`,
    /// which tells a client to start again with no token. Thunderbird treats every answer but
    /// 207 and 400 as a failure and starts again only after a 400, so it is told 400.
    static func invalidToken(_ token: String, _ request: HTTPRequest) -> HTTPResponse {
        let agent = request.header("User-Agent") ?? ""
        let status = agent.contains("Thunderbird") ? 400 : 403
        var w = XMLWriter()
        w.start("error")
        w.element("valid-sync-token")
        w.element("responsedescription", text: "the sync token \(token) is too old or not one of this server's: sync again without one")
        w.end()
        return HTTPResponse(status: status, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(w.text.utf8))
    }

    static func isAddressData(_ p: PropertyRequest.Property) -> Bool {
        p.name == "address-data" && p.namespace == DAVNamespace.cardDAV
    }

    /// The vCard version a REPORT asks its cards in, or nil when it asks for no card data:
    /// `address-data version="4.0"`, else what Accept says.
    static func addressData(_ root: XMLElement, _ asked: PropertyRequest, accept: String?) -> ServedVersion? {
        guard case .some(let list) = asked, list.contains(where: isAddressData) else { return nil }
        if root.child("prop")?.child("address-data", DAVNamespace.cardDAV)?.attributes["version"] == "4.0" { return .v4 }
        return version(accept: accept)
    }
}
