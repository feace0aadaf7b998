import DAVXML
import Foundation
import HTTPServer
import VCard

/// REPORT: `addressbook-multiget`, `addressbook-query` and `sync-collection`.
extension DAVService {
    func report(_ request: HTTPRequest, book: String) throws -> HTTPResponse {
        let root: XMLElement
        switch XMLElement.parse(Data(request.body)) {
        case .success(let r): root = r
        case .failure(let f): throw DAVFailure(status: 400, message: "the REPORT body is not XML: \(f)")
        }
        if root.namespace == DAVNamespace.dav && root.name == "sync-collection" {
            return try syncCollection(root, request, book: book)
        }
        if root.namespace == DAVNamespace.cardDAV && root.name == "addressbook-query" {
            switch AddressBookQuery.parse(root) {
            case .success(let q): return try query(q, book: book)
            case .failure(let f): throw f
            }
        }
        guard root.namespace == DAVNamespace.cardDAV, root.name == "addressbook-multiget" else {
            var w = XMLWriter()
            w.start("error")
            w.element("supported-report")
            w.end()
            return HTTPResponse(status: 403, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(w.text.utf8))
        }
        let asked = PropertyRequest.of(root)
        // The version asked for in address-data, else what Accept says.
        var version = Self.version(accept: request.header("Accept"))
        if case .some(let list) = asked, list.contains(where: { $0.name == "address-data" }),
            let data = root.child("prop")?.child("address-data", DAVNamespace.cardDAV), data.attributes["version"] == "4.0"
        {
            version = .v4
        }
        let hrefs = root.all("href").map(\.value)
        let names = hrefs.compactMap { href -> String? in
            guard case .card(let b, let name)? = DAVPath(href), b == book else { return nil }
            return name
        }
        let found = try books.cards(names, in: book, version: version)
        var plain = asked
        var wantsData = false
        if case .some(let list) = asked {
            wantsData = list.contains { $0.name == "address-data" && $0.namespace == DAVNamespace.cardDAV }
            plain = .some(list.filter { !($0.name == "address-data" && $0.namespace == DAVNamespace.cardDAV) })
        }
        // The responses written on every core, each part in order: a first sync asks for a
        // whole book in one multiget, and escaping its cards is most of the work.
        let maxResourceSize = maxResourceSize
        let parts = books.inParts(hrefs.count, minimum: 256) { [plain, wantsData] range in
            var w = XMLWriter(fragment: true)
            for href in hrefs[range] {
                guard case .card(let b, let name)? = DAVPath(href), b == book, let card = found[name] else {
                    w.start("response")
                    w.element("href", text: href)
                    w.element("status", text: "HTTP/1.1 404 Not Found")
                    w.end()
                    continue
                }
                let resource = DAVResource(kind: .card(book: book, card.info), maxResourceSize: maxResourceSize)
                Self.response(
                    resource, plain, extra: wantsData ? { $0.element("address-data", DAVNamespace.cardDAV, text: card.text) } : nil,
                    into: &w)
            }
            return w.text
        }
        var w = XMLWriter()
        w.start("multistatus")
        for part in parts { w.raw(part) }
        w.end()
        return Self.multistatus(w)
    }

    /// The cards of a book that pass the query's filter, narrowed first by the book's search
    /// when the filter allows; beyond `nresults`, the answer says 507 for the book.
    func query(_ q: AddressBookQuery, book: String) throws -> HTTPResponse {
        guard let all = try books.cards(in: book) else { throw DAVFailure(status: 404, message: "there is no address book \(book)") }
        var names = all.map(\.name)
        if let text = q.narrowingText, let found = try books.candidates(in: book, containing: text) {
            let keep = Set(found)
            names = names.filter { keep.contains($0) }
        }
        var w = XMLWriter()
        w.start("multistatus")
        var count = 0
        var truncated = false
        for name in names {
            guard let card = try books.card(name, in: book, version: q.version),
                let parsed = VCardParser.parse(Array(card.text.utf8)).cards.first, q.matches(parsed)
            else { continue }
            if let limit = q.limit, count >= limit {
                truncated = true
                break
            }
            count += 1
            let resource = DAVResource(
                kind: .card(book: book, card.info), maxResourceSize: maxResourceSize, writable: books is WritableBooks)
            let text = card.text
            Self.response(
                resource, q.properties, extra: q.wantsData ? { $0.element("address-data", DAVNamespace.cardDAV, text: text) } : nil,
                into: &w)
        }
        if truncated { Self.truncation(book, into: &w) }
        w.end()
        return Self.multistatus(w)
    }

    /// The book's own response in a multistatus cut at a limit: 507, `number-of-matches-within-limits`.
    static func truncation(_ book: String, into w: inout XMLWriter) {
        w.start("response")
        w.element("href", text: DAVPath.book(book).href)
        w.element("status", text: "HTTP/1.1 507 Insufficient Storage")
        w.start("error")
        w.element("number-of-matches-within-limits")
        w.end()
        w.end()
    }
}
