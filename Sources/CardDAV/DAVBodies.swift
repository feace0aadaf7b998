import Foundation

/// The XML bodies of the requests this client sends.
enum DAVBodies {
    static let header = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"

    /// A PROPFIND asking for `properties`, each `(namespace, name)`.
    static func propfind(_ properties: [(String, String)]) -> Data {
        var prefixes: [String: String] = [DAVNamespace.dav: "d"]
        var text = ""
        for (ns, name) in properties {
            let prefix = prefixes[ns] ?? "n\(prefixes.count)"
            prefixes[ns] = prefix
            text += "<\(prefix):\(name)/>"
        }
        let declarations = prefixes.sorted { $0.value < $1.value }.map { " xmlns:\($0.value)=\"\(escape($0.key))\"" }.joined()
        return Data((header + "<d:propfind\(declarations)><d:prop>\(text)</d:prop></d:propfind>").utf8)
    }

    /// An RFC 6578 sync-collection report from `token` (nil or empty: everything), asking for
    /// ETags, and the cards too `withCards`.
    static func syncCollection(token: String?, withCards: Bool = false) -> Data {
        Data(
            (header
                + "<d:sync-collection xmlns:d=\"DAV:\" xmlns:c=\"\(DAVNamespace.cardDAV)\"><d:sync-token>\(escape(token ?? ""))</d:sync-token>"
                + "<d:sync-level>1</d:sync-level><d:prop><d:getetag/>\(withCards ? "<c:address-data/>" : "")</d:prop></d:sync-collection>")
                .utf8)
    }

    /// An addressbook-multiget (RFC 6352 §8.7) of `hrefs`, asking for ETags and cards.
    static func multiget(_ hrefs: [String]) -> Data {
        var text = header + "<c:addressbook-multiget xmlns:d=\"DAV:\" xmlns:c=\"\(DAVNamespace.cardDAV)\">"
        text += "<d:prop><d:getetag/><c:address-data/></d:prop>"
        for h in hrefs { text += "<d:href>\(escape(h))</d:href>" }
        text += "</c:addressbook-multiget>"
        return Data(text.utf8)
    }

    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }
}
