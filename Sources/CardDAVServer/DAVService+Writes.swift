import DAVXML
import Foundation
import HTTPServer

/// PUT and DELETE: the client's conditions, and how a refused write is answered.
extension DAVService {
    /// A write to books the client may only read: 403 with the privilege it lacks (RFC 3744
    /// §7.1.1), which DAVx⁵ and iOS take to show the book read-only.
    func readOnly(_ request: HTTPRequest) -> HTTPResponse {
        var w = XMLWriter()
        w.start("error")
        w.start("need-privileges")
        w.start("resource")
        w.element("href", text: DAVPath(request.path)?.href ?? "/")
        w.start("privilege")
        w.element(request.method == "PROPPATCH" ? "write-properties" : request.method == "PUT" ? "write-content" : "unbind")
        w.end()
        w.end()
        w.end()
        w.end()
        return HTTPResponse(
            status: 403, headers: [("Content-Type", "application/xml; charset=utf-8")], body: Array(w.text.utf8))
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
}
