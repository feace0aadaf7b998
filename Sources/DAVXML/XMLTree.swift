import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A parsed XML element: its namespace and local name, its text and its children. WebDAV
/// answers are small trees of this kind; reading them as a tree keeps their interpretation
/// (`Multistatus`) plain.
public struct XMLElement: Sendable, Equatable {
    public var namespace: String
    public var name: String
    public var attributes: [String: String]
    public var text: String
    public var children: [XMLElement]

    public init(namespace: String, name: String, attributes: [String: String] = [:], text: String = "", children: [XMLElement] = []) {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    /// The first child with this name (in the DAV: namespace unless another is given).
    public func child(_ name: String, _ namespace: String = DAVNamespace.dav) -> XMLElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    public func all(_ name: String, _ namespace: String = DAVNamespace.dav) -> [XMLElement] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    /// The text, trimmed of the white space around it (XML's: space, tab, CR and LF).
    public var value: String {
        let bytes = text.utf8
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = bytes.lastIndex(where: { !isSpace($0) }) ?? first
        // The end is past the last byte that is not white space: the end, or an ASCII space.
        let end = bytes.index(after: last)
        if first == bytes.startIndex && end == bytes.endIndex { return text }
        return String(text[first..<end])
    }

    /// Parses a document; nil with the parser's message when it is not well-formed XML.
    public static func parse(_ data: Data) -> Result<XMLElement, XMLParseFailure> {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse(), !builder.tooDeep, let root = builder.root else {
            let line = parser.lineNumber
            if builder.tooDeep {
                return .failure(XMLParseFailure(line: line, message: "elements nested deeper than \(TreeBuilder.maxDepth)"))
            }
            return .failure(XMLParseFailure(line: line, message: parser.parserError.map { "\($0.localizedDescription)" } ?? "no document"))
        }
        return .success(root)
    }
}

/// Why an answer was not XML, and where.
public struct XMLParseFailure: Error, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "malformed XML at line \(line): \(message)" }
}

/// The namespaces of WebDAV, CardDAV and the calendar server's extensions.
public enum DAVNamespace {
    public static let dav = "DAV:"
    public static let cardDAV = "urn:ietf:params:xml:ns:carddav"
    public static let calendarServer = "http://calendarserver.org/ns/"
}

/// Builds the tree of a document. With `eachChild`, every child of the root is handed to it
/// whole as soon as it ends and is not kept (for documents read as a stream); it returns false
/// to stop the parse.
package final class TreeBuilder: NSObject, XMLParserDelegate {
    package var stack: [XMLElement] = []
    package var root: XMLElement?
    package var eachChild: ((XMLElement) -> Bool)?
    package private(set) var stopped = false
    /// A document nested deeper than any WebDAV one is (a hostile one, thousands of levels
    /// deep) is not read further: its tree would take the thread's stack to build and free.
    package static let maxDepth = 64
    package private(set) var tooDeep = false

    package override init() { super.init() }

    package func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        guard stack.count < Self.maxDepth else {
            tooDeep = true
            parser.abortParsing()
            return
        }
        stack.append(XMLElement(namespace: namespaceURI ?? "", name: elementName, attributes: attributeDict))
    }

    package func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    package func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    package func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let done = stack.popLast() else { return }
        if stack.isEmpty {
            root = done
        } else if stack.count == 1, let eachChild {
            if !eachChild(done) {
                stopped = true
                parser.abortParsing()
            }
        } else {
            stack[stack.count - 1].children.append(done)
        }
    }
}
