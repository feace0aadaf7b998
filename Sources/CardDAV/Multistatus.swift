import Foundation

/// A WebDAV 207 answer (RFC 4918 §13): one entry per resource, each with the properties the
/// server found (status 200) and, for a sync-collection report (RFC 6578), the new token.
public struct Multistatus: Sendable {
    public struct Response: Sendable {
        /// The resource's path as the server wrote it, percent-decoded.
        public var href: String
        /// The status of the whole response, when it has one (a tombstone's 404).
        public var status: Int?
        /// The properties found, by their local name and namespace.
        public var properties: [PropertyName: XMLElement]
        /// The properties the server listed with a status other than 200, and that status.
        public var missing: [PropertyName: Int]

        public func property(_ name: String, _ namespace: String = DAVNamespace.dav) -> XMLElement? {
            properties[PropertyName(namespace, name)]
        }

        /// The entity tag, with its quotes, as `If-Match` wants it back.
        public var etag: String? { property("getetag")?.value.nonEmpty }
    }

    public var responses: [Response]
    public var syncToken: String?

    /// Reads a multistatus document.
    public static func parse(_ data: Data) throws(DAVError) -> Multistatus {
        let root: XMLElement
        switch XMLElement.parse(data) {
        case .success(let r): root = r
        case .failure(let f): throw .malformed("the server's answer is not XML (\(f))")
        }
        guard root.name == "multistatus", root.namespace == DAVNamespace.dav else {
            throw .malformed("the server answered <\(root.name)>, not a DAV multistatus")
        }
        return Multistatus(responses: root.all("response").compactMap(response), syncToken: root.child("sync-token")?.value.nonEmpty)
    }

    /// Reads one `<response>` element; nil when it names no resource.
    static func response(_ r: XMLElement) -> Response? {
        guard var href = r.child("href")?.value.nonEmpty else { return nil }
        // A whole URL (some servers write them) counts by its path.
        if href.hasPrefix("http://") || href.hasPrefix("https://"), let u = URL(string: href) { href = u.path }
        var response = Response(
            href: href.utf8.contains(UInt8(ascii: "%")) ? href.removingPercentEncoding ?? href : href,
            status: r.child("status").flatMap { statusCode($0.value) }, properties: [:],
            missing: [:])
        for propstat in r.all("propstat") {
            let status = propstat.child("status").flatMap { statusCode($0.value) } ?? 200
            for p in propstat.child("prop")?.children ?? [] {
                let name = PropertyName(p.namespace, p.name)
                if status == 200 { response.properties[name] = p } else { response.missing[name] = status }
            }
        }
        return response
    }

    /// The code of a status line such as `HTTP/1.1 404 Not Found`.
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        return Int(parts[1])
    }
}

/// A WebDAV property's name: its namespace and local name.
public struct PropertyName: Hashable, Sendable, CustomStringConvertible {
    public var namespace: String
    public var name: String

    public init(_ namespace: String, _ name: String) {
        self.namespace = namespace
        self.name = name
    }

    public var description: String { "{\(namespace)}\(name)" }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
