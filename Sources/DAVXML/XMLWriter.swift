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
        guard let value else {
            text += "<\(q)/>"
            return
        }
        text += "<"
        text += q
        text += ">"
        Self.appendEscaped(value, quotes: false, to: &text)
        text += "</"
        text += q
        text += ">"
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
        appendEscaped(s, quotes: quotes, to: &out)
        return out
    }

    /// `s` escaped onto the end of `out`: as it is when nothing in it needs escaping (an href,
    /// an ETag), else byte by byte (a card's CRLFs; every byte escaped is ASCII, so a
    /// multi-byte character is never split).
    static func appendEscaped(_ s: String, quotes: Bool, to out: inout String) {
        func needs(_ b: UInt8) -> Bool {
            b == UInt8(ascii: "&") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "\r")
                || (quotes && b == UInt8(ascii: "\""))
        }
        guard s.utf8.contains(where: needs) else {
            out += s
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count + 32)
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "&"): bytes += "&amp;".utf8
            case UInt8(ascii: "<"): bytes += "&lt;".utf8
            case UInt8(ascii: ">"): bytes += "&gt;".utf8
            case UInt8(ascii: "\"") where quotes: bytes += "&quot;".utf8
            case UInt8(ascii: "\r"): bytes += "&#13;".utf8
            default: bytes.append(b)
            }
        }
        out += String(decoding: bytes, as: UTF8.self)
    }
}
