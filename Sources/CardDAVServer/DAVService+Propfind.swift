import DAVXML
import Foundation
import HTTPServer

/// PROPFIND: the resources at a path and one level below, each with the properties asked.
extension DAVService {
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
            guard let book = try books.book(named: name) else {
                throw DAVFailure(status: 404, message: "there is no address book \(name)")
            }
            guard children else { return [r(.book(book))] }
            guard let cards = try books.cards(in: name) else { throw DAVFailure(status: 404, message: "there is no address book \(name)") }
            return [r(.book(book))] + cards.map { r(.card(book: name, $0)) }
        case .card(let book, let name):
            guard let card = try books.cardInfo(name, in: book) else {
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
}
