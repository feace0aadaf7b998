import DAVXML
import Foundation
import HTTPServer

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
    var allowed: String { books is WritableBooks ? Self.readOnly + ", PUT, DELETE, PROPPATCH" : Self.readOnly }

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
        case ("PROPPATCH", .book(let book)):
            guard let writable = books as? WritableBooks else { return readOnly(request) }
            return try proppatch(request, writable, book: book)
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

    static func version(accept: String?) -> ServedVersion {
        guard let accept = accept?.lowercased().replacingOccurrences(of: " ", with: "") else { return .v3 }
        return accept.contains("version=4.0") || accept.contains("version=\"4.0\"") ? .v4 : .v3
    }
}
