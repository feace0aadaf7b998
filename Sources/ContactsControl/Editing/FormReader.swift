import ContactsSupport

extension ContactForm {
    /// The lines of an edited form, read a field, an item or a block at a time. Blank lines
    /// and comments (`#` first on the line) are passed over, except inside a `|` block, which
    /// holds every line indented further than its field.
    struct Reader {
        struct Line {
            var number: Int
            var indent: Int
            var text: String
        }

        /// A list's `- ` line: what follows the dash.
        struct Item {
            var line: Int
            var indent: Int
            var text: String

            /// `label: value`, `: value` (a value with no label), or `value`.
            var labelAndValue: (label: String, value: String) {
                if text.hasPrefix(":") { return ("", text.dropFirst().trimmingWhitespace()) }
                if let r = text.range(of: ": ") {
                    return (text[..<r.lowerBound].trimmingWhitespace(), text[r.upperBound...].trimmingWhitespace())
                }
                if text.hasSuffix(":") { return (text.dropLast().trimmingWhitespace(), "") }
                return ("", text.trimmingWhitespace())
            }
        }

        private let lines: [Line]
        private var at = 0

        init(_ text: String) {
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { k, raw in
                var s = String(raw)
                if s.hasSuffix("\r") { s.removeLast() }
                let indent = s.prefix { $0 == " " || $0 == "\t" }.count
                return Line(number: k + 1, indent: indent, text: String(s.dropFirst(indent)))
            }
        }

        static func insignificant(_ l: Line) -> Bool { l.text.isEmpty || l.text.hasPrefix("#") }

        var hasContent: Bool { lines.contains { !Self.insignificant($0) } }

        /// The next line that says something.
        mutating func next() -> Line? {
            while at < lines.count {
                defer { at += 1 }
                if !Self.insignificant(lines[at]) { return lines[at] }
            }
            return nil
        }

        /// The next line that says something, without taking it.
        private func peek() -> (index: Int, line: Line)? {
            var k = at
            while k < lines.count {
                if !Self.insignificant(lines[k]) { return (k, lines[k]) }
                k += 1
            }
            return nil
        }

        /// The next `- ` line of the list being read, when the list goes on.
        mutating func nextItem() -> Item? {
            guard let (k, l) = peek(), l.indent > 0, l.text == "-" || l.text.hasPrefix("- ") else { return nil }
            at = k + 1
            return Item(line: l.number, indent: l.indent, text: l.text.dropFirst().trimmingWhitespace())
        }

        /// The next line under an item: indented further than it, and not an item itself.
        mutating func nextPart(below indent: Int) -> Line? {
            guard let (k, l) = peek(), l.indent > indent, !(l.text == "-" || l.text.hasPrefix("- ")) else { return nil }
            at = k + 1
            return l
        }

        /// The lines of a `|` block: those indented further than `indent` (and blank lines
        /// between them), less their common indentation.
        mutating func block(below indent: Int) -> String {
            var taken: [Line] = []
            while at < lines.count, lines[at].text.isEmpty || lines[at].indent > indent {
                taken.append(lines[at])
                at += 1
            }
            while let last = taken.last, last.text.isEmpty { taken.removeLast() }
            let common = taken.filter { !$0.text.isEmpty }.map(\.indent).min() ?? 0
            return taken.map { $0.text.isEmpty ? "" : String(repeating: " ", count: $0.indent - common) + $0.text }.joined(separator: "\n")
        }

        /// Where a field's line is.
        func lineOf(_ key: String) -> Int? {
            lines.first { $0.indent == 0 && $0.text.lowercased().hasPrefix(key + ":") }?.number
        }
    }
}
