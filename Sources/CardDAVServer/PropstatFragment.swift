import DAVXML

extension XMLWriter {
    /// Properties written into a buffer of their own, to be placed in a propstat.
    struct Fragment {
        var writer = XMLWriter(fragment: true)
        var markup: String { writer.text }

        /// Runs `body` on the buffer; keeps what it wrote only when it returns true.
        mutating func write(_ body: (inout XMLWriter) -> Bool) -> Bool {
            var attempt = writer
            guard body(&attempt) else { return false }
            writer = attempt
            return true
        }

        mutating func empty(_ p: PropertyRequest.Property) { Self.emptyElement(p, into: &writer) }

        static func emptyElement(_ p: PropertyRequest.Property, into w: inout XMLWriter) {
            if XMLWriter.prefixes.contains(where: { $0.0 == p.namespace }) {
                w.element(p.name, p.namespace)
            } else {
                w.foreign(p.name, p.namespace)
            }
        }
    }
}
