/// Writes a WebDAV document: elements in the DAV, CardDAV and calendar server namespaces
/// under fixed prefixes (declared once, on the root), text escaped.
public struct XMLWriter {
    public private(set) var text = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
    private var open: [String] = []

    public init() {}

    /// A writer for a part of a document: no declaration, and no prefixes declared (the
    /// document it goes into declares them).
    public init(fragment: Bool) {
        text = ""
        declared = fragment
    }

    private var declared = false

    public static let prefixes = [(DAVNamespace.dav, "d"), (DAVNamespace.cardDAV, "card"), (DAVNamespace.calendarServer, "cs")]

    static func qualified(_ name: String, _ namespace: String) -> String {
        (prefixes.first { $0.0 == namespace }?.1).map { "\($0):\(name)" } ?? name
    }

    /// Opens an element; the first one declares the prefixes.
    public mutating func start(_ name: String, _ namespace: String = DAVNamespace.dav) {
        let q = Self.qualified(name, namespace)
        text += "<" + q
        if open.isEmpty && !declared {
            for (ns, p) in Self.prefixes { text += " xmlns:\(p)=\"\(ns)\"" }
            declared = true
        }
        text += ">"
        open.append(q)
    }

    public mutating func end() {
        guard let q = open.popLast() else { return }
        text += "</\(q)>"
    }

    /// An element with text (escaped), or empty.
    public mutating func element(_ name: String, _ namespace: String = DAVNamespace.dav, text value: String? = nil) {
        let q = Self.qualified(name, namespace)
        if let value {
            text += "<\(q)>" + Self.escape(value, quotes: false) + "</\(q)>"
        } else {
            text += "<\(q)/>"
        }
    }

    /// An element of another namespace, written with its own declaration.
    public mutating func foreign(_ name: String, _ namespace: String) {
        text += "<x:\(name) xmlns:x=\"\(Self.escape(namespace))\"/>"
    }

    public mutating func raw(_ markup: String) { text += markup }

    /// `quotes`: also `"`, as an attribute's value needs (text does not: an ETag stays as
    /// clients compare it).
    public static func escape(_ s: String, quotes: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
