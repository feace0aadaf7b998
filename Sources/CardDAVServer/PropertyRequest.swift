import DAVXML
import Foundation

/// Which properties a PROPFIND (or a REPORT's `prop`) asks for: all of them, their names
/// only, or a list.
enum PropertyRequest: Equatable {
    case all
    case names
    case some([Property])

    struct Property: Hashable {
        var namespace: String
        var name: String
    }

    /// An empty body is `allprop` (RFC 4918 §9.1).
    static func parse(_ body: [UInt8]) -> Result<PropertyRequest, DAVFailure> {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return .success(.all) }
        switch XMLElement.parse(Data(body)) {
        case .failure(let f): return .failure(DAVFailure(status: 400, message: "the PROPFIND body is not XML: \(f)"))
        case .success(let root):
            guard root.name == "propfind", root.namespace == DAVNamespace.dav else {
                return .failure(DAVFailure(status: 400, message: "a PROPFIND body is a DAV:propfind element, not \(root.name)"))
            }
            return .success(of(root))
        }
    }

    /// The request inside a `propfind` or a REPORT: its `prop`, `allprop` or `propname`.
    static func of(_ element: XMLElement) -> PropertyRequest {
        if element.child("propname") != nil { return .names }
        if let prop = element.child("prop") { return .some(prop.children.map { Property(namespace: $0.namespace, name: $0.name) }) }
        return .all
    }
}

/// A request the server refuses, with the status and a message for the body.
struct DAVFailure: Error {
    var status: Int
    var message: String
}
