import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads a multistatus document from a stream one `<response>` at a time, so that an answer
/// as large as a whole address book never stands in memory: each response is built as a
/// small tree, handed on, and dropped.
enum MultistatusStream {
    /// Hands each response to `each` (which returns false to stop); the document's sync token.
    static func read(_ stream: InputStream, each: (Multistatus.Response) -> Bool) throws(DAVError) -> String? {
        let outcome = withoutActuallyEscaping(each) { each -> Result<String?, DAVError> in
            let builder = TreeBuilder()
            var token: String?
            builder.eachChild = { child in
                guard child.namespace == DAVNamespace.dav else { return true }
                if child.name == "sync-token" { token = child.value.nonEmpty }
                if child.name == "response", let r = Multistatus.response(child) { return each(r) }
                return true
            }
            let parser = XMLParser(stream: stream)
            parser.shouldProcessNamespaces = true
            parser.shouldResolveExternalEntities = false
            parser.delegate = builder
            let ok = parser.parse()
            if builder.tooDeep {
                return .failure(.malformed("the server's answer nests elements deeper than \(TreeBuilder.maxDepth)"))
            }
            if builder.stopped { return .success(token) }
            guard ok, let root = builder.root else {
                let message = parser.parserError.map { "\($0.localizedDescription)" } ?? "no document"
                return .failure(.malformed("the server's answer is not XML (malformed XML at line \(parser.lineNumber): \(message))"))
            }
            guard root.name == "multistatus", root.namespace == DAVNamespace.dav else {
                return .failure(.malformed("the server answered <\(root.name)>, not a DAV multistatus"))
            }
            return .success(token)
        }
        return try outcome.get()
    }
}
