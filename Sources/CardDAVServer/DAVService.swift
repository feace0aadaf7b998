import DAVXML
import Foundation
import HTTPServer
import VCard

/// The CardDAV face: HTTP requests answered from `ServedBooks`. Discovery (well-known,
/// principal, home), PROPFIND at depth 0 and 1, GET and HEAD of cards in vCard 3.0 or 4.0,
/// `addressbook-multiget`, and, when the books are `WritableBooks`, PUT and DELETE with
/// If-Match and If-None-Match.
public struct DAVService: Sendable {
    let books: ServedBooks
    let maxResourceSize: Int

    public init(books: ServedBooks, maxResourceSize: Int) {
        self.books = books
        self.maxResourceSize = maxResourceSize
    }

    static let readOnly = "OPTIONS, GET, HEAD, PROPFIND, REPORT"
    var allowed: String { books is WritableBooks ? Self.readOnly + ", PUT, DELETE" : Self.readOnly }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return try answer(request)
        } catch let f as DAVFailure {
            return HTTPResponse(status: f.status, text: f.message + "\n")
        } catch {
            return HTTPResponse(status: 500, text: "the store could not answer: \(error)\n")
        }
    }

    func answer(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let path = DAVPath(request.path) else {
            throw DAVFailure(status: 404, message: "nothing is served at \(request.path)")
        }
        switch (request.method, path) {
        case ("OPTIONS", _):
            return HTTPResponse(status: 200, headers: [("DAV", "1, 3, addressbook"), ("Allow", allowed), ("Content-Length", "0")])
        case (_, .wellKnown):
            return HTTPResponse(status: 301, headers: [("Location", "/")])
        case ("PROPFIND", _):
            return try propfind(request, path)
        case ("GET", .card(let book, let name)), ("HEAD", .card(let book, let name)):
            let version = Self.version(accept: request.header("Accept"))
            guard let card = try books.card(name, in: book, version: version) else {
                throw DAVFailure(status: 404, message: "the book \(book) has no card \(name)")
            }
            if let match = request.header("If-None-Match"), match == card.info.etag || match == "*" {
                return HTTPResponse(status: 304, headers: [("ETag", card.info.etag)])
            }
            let headers = [
                ("Content-Type", "text/vcard; charset=utf-8"), ("ETag", card.info.etag),
                ("Last-Modified", HTTPDate.format(card.info.lastModified)),
            ]
            return HTTPResponse(status: 200, headers: headers, body: request.method == "HEAD" ? [] : Array(card.text.utf8))
        case ("GET", _), ("HEAD", _):
            return HTTPResponse(status: 200, text: "contactsd: a CardDAV address book; give this address to your contacts program\n")
        case ("REPORT", .book(let book)):
            return try report(request, book: book)
        case ("PUT", .card(let book, let name)):
            guard let writable = books as? WritableBooks else { return readOnly(request) }
            return try put(request, writable, book: book, name: name)
        case ("DELETE", .card(let book, let name)):
            guard let writable = books as? WritableBooks else { return readOnly(request) }
            do {
                try writable.delete(name, in: book, condition: try Self.condition(request), client: Self.client(request))
            } catch let e as ServedWriteError {
                return Self.refusal(e)
            }
            return HTTPResponse(status: 204)
        default:
            return HTTPResponse(status: 405, headers: [("Allow", allowed)], body: Array("\(request.method) is not served here\n".utf8))
        }
    }

    func readOnly(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(
            status: 405, headers: [("Allow", allowed), ("Content-Type", "text/plain; charset=utf-8")],
            body: Array("\(request.method) is not served here: these cards are read only\n".utf8))
    }

    func put(_ request: HTTPRequest, _ writable: WritableBooks, book: String, name: String) throws -> HTTPResponse {
        guard name.lowercased().hasSuffix(".vcf") || !name.contains(".") else {
            return HTTPResponse(status: 403, text: "a card's name ends in .vcf, not \(name)\n")
        }
        let type = request.header("Content-Type")?.lowercased() ?? "text/vcard"
        guard type.hasPrefix("text/vcard") || type.hasPrefix("text/x-vcard") || type.hasPrefix("text/directory") else {
            return HTTPResponse(status: 415, text: "a card is text/vcard, not \(type)\n")
        }
        let outcome: PutOutcome
        do {
            outcome = try writable.put(
                name, in: book, body: request.body, condition: try Self.condition(request), client: Self.client(request))
        } catch let e as ServedWriteError {
            return Self.refusal(e)
        }
        let location = DAVPath.card(book: book, name: name).href
        switch outcome {
        case .created(let info):
            return HTTPResponse(status: 201, headers: [("ETag", info.etag), ("Location", location)])
        case .updated(let info), .unchanged(let info):
            return HTTPResponse(status: 204, headers: [("ETag", info.etag), ("Location", location)])
        }
    }

    /// If-Match (one strong ETag) or If-None-Match: * from the request.
    static func condition(_ request: HTTPRequest) throws -> WriteCondition {
        if let match = request.header("If-Match")?.trimmingCharacters(in: .whitespaces) {
            guard !match.contains(",") else { throw DAVFailure(status: 400, message: "If-Match takes one ETag here, not a list") }
            return .ifMatch(match)
        }
        if let none = request.header("If-None-Match")?.trimmingCharacters(in: .whitespaces) {
            guard none == "*" else { throw DAVFailure(status: 400, message: "If-None-Match is understood only as '*'") }
            return .absent
        }
        return .none
    }

    /// Who wrote, for the history: the client's User-Agent, as short as it is useful.
    static func client(_ request: HTTPRequest) -> String {
        let agent = request.header("User-Agent")?.trimmingCharacters(in: .whitespaces) ?? ""
        return agent.isEmpty ? "unknown" : String(agent.prefix(80))
    }

    static func refusal(_ e: ServedWriteError) -> HTTPResponse {
        switch e {
        case .preconditionFailed(let m): return HTTPResponse(status: 412, text: m + "\n")
        case .invalid(let m): return HTTPResponse(status: 400, text: m + "\n")
        case .unsupported(let m): return HTTPResponse(status: 415, text: m + "\n")
        case .notFound(let m): return HTTPResponse(status: 404, text: m + "\n")
        case .uidConflict(let m):
            var w = XMLWriter()
            w.start("error")
            w.element("no-uid-conflict", DAVNamespace.cardDAV)
            w.element("responsedescription", text: m)
            w.end()
            return HTTPResponse(status: 409, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(w.text.utf8))
        }
    }

    /// vCard 4.0 when the client asks for it (`Accept: text/vcard; version=4.0`), else 3.0.
    static func version(accept: String?) -> ServedVersion {
        guard let accept = accept?.lowercased().replacingOccurrences(of: " ", with: "") else { return .v3 }
        return accept.contains("version=4.0") || accept.contains("version=\"4.0\"") ? .v4 : .v3
    }

    // MARK: PROPFIND

    func propfind(_ request: HTTPRequest, _ path: DAVPath) throws -> HTTPResponse {
        let depth = request.header("Depth")?.trimmingCharacters(in: .whitespaces).lowercased() ?? "infinity"
        guard depth == "0" || depth == "1" else {
            var w = XMLWriter()
            w.start("error")
            w.element("propfind-finite-depth")
            w.end()
            return HTTPResponse(status: 403, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(w.text.utf8))
        }
        let asked: PropertyRequest
        switch PropertyRequest.parse(request.body) {
        case .success(let r): asked = r
        case .failure(let f): throw f
        }
        let resources = try self.resources(path, depth: depth == "1")
        var w = XMLWriter()
        w.start("multistatus")
        for r in resources { Self.response(r, asked, into: &w) }
        w.end()
        return Self.multistatus(w)
    }

    /// The resource at `path`, and with `children` those one level below it.
    func resources(_ path: DAVPath, depth children: Bool) throws -> [DAVResource] {
        let writable = books is WritableBooks
        func r(_ k: DAVResource.Kind) -> DAVResource { DAVResource(kind: k, maxResourceSize: maxResourceSize, writable: writable) }
        switch path {
        case .root: return [r(.root)] + (children ? [r(.principal), r(.home)] : [])
        case .principal: return [r(.principal)]
        case .home: return [r(.home)] + (children ? try books.books().map { r(.book($0)) } : [])
        case .book(let name):
            guard let book = try books.books().first(where: { $0.name == name }) else {
                throw DAVFailure(status: 404, message: "there is no address book \(name)")
            }
            guard children else { return [r(.book(book))] }
            guard let cards = try books.cards(in: name) else { throw DAVFailure(status: 404, message: "there is no address book \(name)") }
            return [r(.book(book))] + cards.map { r(.card(book: name, $0)) }
        case .card(let book, let name):
            guard let card = try books.cards(in: book)?.first(where: { $0.name == name }) else {
                throw DAVFailure(status: 404, message: "the book \(book) has no card \(name)")
            }
            return [r(.card(book: book, card))]
        case .wellKnown: return []
        }
    }

    /// One `response`: the properties found in a 200 propstat, the others in a 404 one.
    static func response(_ r: DAVResource, _ asked: PropertyRequest, extra: ((inout XMLWriter) -> Void)? = nil, into w: inout XMLWriter) {
        w.start("response")
        w.element("href", text: r.path.href)
        var found = XMLWriter.Fragment()
        var missing: [PropertyRequest.Property] = []
        switch asked {
        case .names:
            for p in r.known { found.empty(p) }
        case .all:
            for p in r.known { _ = found.write { r.write(p, into: &$0) } }
        case .some(let list):
            for p in list where !found.write({ r.write(p, into: &$0) }) { missing.append(p) }
        }
        extra?(&found.writer)
        w.start("propstat")
        w.start("prop")
        w.raw(found.markup)
        w.end()
        w.element("status", text: "HTTP/1.1 200 OK")
        w.end()
        if !missing.isEmpty {
            w.start("propstat")
            w.start("prop")
            for p in missing { XMLWriter.Fragment.emptyElement(p, into: &w) }
            w.end()
            w.element("status", text: "HTTP/1.1 404 Not Found")
            w.end()
        }
        w.end()
    }

    static func multistatus(_ w: XMLWriter) -> HTTPResponse {
        HTTPResponse(status: 207, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(w.text.utf8))
    }

    // MARK: REPORT

    func report(_ request: HTTPRequest, book: String) throws -> HTTPResponse {
        let root: XMLElement
        switch XMLElement.parse(Data(request.body)) {
        case .success(let r): root = r
        case .failure(let f): throw DAVFailure(status: 400, message: "the REPORT body is not XML: \(f)")
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
        var w = XMLWriter()
        w.start("multistatus")
        for href in root.all("href").map(\.value) {
            guard case .card(let b, let name)? = DAVPath(href), b == book, let card = try books.card(name, in: book, version: version)
            else {
                w.start("response")
                w.element("href", text: href)
                w.element("status", text: "HTTP/1.1 404 Not Found")
                w.end()
                continue
            }
            let resource = DAVResource(kind: .card(book: book, card.info), maxResourceSize: maxResourceSize)
            var plain = asked
            var wantsData = false
            if case .some(let list) = asked {
                wantsData = list.contains { $0.name == "address-data" && $0.namespace == DAVNamespace.cardDAV }
                plain = .some(list.filter { !($0.name == "address-data" && $0.namespace == DAVNamespace.cardDAV) })
            }
            Self.response(
                resource, plain, extra: wantsData ? { $0.element("address-data", DAVNamespace.cardDAV, text: card.text) } : nil, into: &w)
        }
        w.end()
        return Self.multistatus(w)
    }
}

extension DAVService {
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
        if truncated {
            w.start("response")
            w.element("href", text: DAVPath.book(book).href)
            w.element("status", text: "HTTP/1.1 507 Insufficient Storage")
            w.start("error")
            w.element("number-of-matches-within-limits")
            w.end()
            w.end()
        }
        w.end()
        return Self.multistatus(w)
    }
}

extension XMLWriter {
    /// Properties written into a buffer of their own, to be placed in a propstat.
    struct Fragment {
        var writer = XMLWriter(fragment: true)
        var markup: String { writer.text }

        /// Runs `body` on the buffer; keeps what it wrote only when it returns true.
        mutating func write(_ body: (inout XMLWriter) -> Bool) -> Bool {
            var attempt = writer
            guard body(&attempt) else { return false }
            writer = attempt
            return true
        }

        mutating func empty(_ p: PropertyRequest.Property) { Self.emptyElement(p, into: &writer) }

        static func emptyElement(_ p: PropertyRequest.Property, into w: inout XMLWriter) {
            if XMLWriter.prefixes.contains(where: { $0.0 == p.namespace }) {
                w.element(p.name, p.namespace)
            } else {
                w.foreign(p.name, p.namespace)
            }
        }
    }
}
