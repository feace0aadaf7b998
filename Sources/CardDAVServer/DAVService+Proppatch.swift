import DAVXML
import Foundation
import HTTPServer

/// PROPPATCH of a book: its `displayname` may be set or removed (given back the book's own
/// name); every other property is protected or not kept, and refused. All or nothing (RFC
/// 4918 §9.2): one refused property fails the others with 424, and nothing changes.
extension DAVService {
    func proppatch(_ request: HTTPRequest, _ writable: WritableBooks, book: String) throws -> HTTPResponse {
        guard try books.book(named: book) != nil else { throw DAVFailure(status: 404, message: "there is no address book \(book)") }
        let root: XMLElement
        switch XMLElement.parse(Data(request.body)) {
        case .success(let r): root = r
        case .failure(let f): throw DAVFailure(status: 400, message: "the PROPPATCH body is not XML: \(f)")
        }
        guard root.namespace == DAVNamespace.dav, root.name == "propertyupdate" else {
            throw DAVFailure(status: 400, message: "a PROPPATCH body is a DAV:propertyupdate element, not \(root.name)")
        }
        // In document order, as RFC 4918 has them applied.
        var name: String??
        var accepted: [PropertyRequest.Property] = []
        var refused: [PropertyRequest.Property] = []
        for instruction in root.children where instruction.namespace == DAVNamespace.dav {
            guard instruction.name == "set" || instruction.name == "remove" else { continue }
            for p in instruction.child("prop")?.children ?? [] {
                let property = PropertyRequest.Property(namespace: p.namespace, name: p.name)
                guard p.namespace == DAVNamespace.dav, p.name == "displayname" else {
                    refused.append(property)
                    continue
                }
                let text = p.value.trimmingCharacters(in: .whitespacesAndNewlines)
                guard instruction.name == "set" else {
                    name = .some(nil)
                    accepted.append(property)
                    continue
                }
                guard text.count <= 256, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    refused.append(property)
                    continue
                }
                name = .some(text.isEmpty ? nil : text)
                accepted.append(property)
            }
        }
        if refused.isEmpty, let name { try writable.setDisplayName(name, of: book) }
        var w = XMLWriter()
        w.start("multistatus")
        w.start("response")
        w.element("href", text: DAVPath.book(book).href)
        func propstat(_ list: [PropertyRequest.Property], _ status: String) {
            guard !list.isEmpty else { return }
            w.start("propstat")
            w.start("prop")
            for p in list { XMLWriter.Fragment.emptyElement(p, into: &w) }
            w.end()
            w.element("status", text: status)
            w.end()
        }
        propstat(refused, "HTTP/1.1 403 Forbidden")
        propstat(accepted, refused.isEmpty ? "HTTP/1.1 200 OK" : "HTTP/1.1 424 Failed Dependency")
        if !refused.isEmpty {
            w.element("responsedescription", text: "only the book's displayname can be set here; nothing was changed")
        }
        w.end()
        w.end()
        return Self.multistatus(w)
    }
}
