import Dispatch
import Foundation

/// A tolerant reader of vCard 2.1, 3.0 and 4.0 as real producers write them.
///
/// It accepts any line ends, a BOM, UTF-16, folding, quoted-printable with soft breaks
/// (also when a break falls inside a UTF-8 sequence), per-property charsets, bare 2.1
/// parameters, groups, RFC 6868 escapes, base64 blocks that end at a blank line, nested
/// 2.1 AGENT cards, cards without END, comment and junk lines. One broken card never stops
/// the others: what cannot be read is reported with its line.
public enum VCardParser {
    public struct Result: Sendable {
        public var cards: [VCard]
        /// Lines that were skipped, and cards that could not be read at all.
        public var issues: [VCardIssue]
    }

    public static func parse(_ text: String) -> Result { parse(Array(text.utf8)) }

    public static func parse(_ data: [UInt8]) -> Result {
        parse(data, parts: ProcessInfo.processInfo.activeProcessorCount, minimumBytes: 1 << 20)
    }

    /// A large file is cut between cards into `parts` pieces parsed on all cores; their cards,
    /// issues and line numbers are joined as if the file had been read in one go.
    static func parse(_ data: [UInt8], parts: Int, minimumBytes: Int) -> Result {
        let file = Pieces(data, parts: data.count < minimumBytes ? 1 : min(parts, 8))
        if file.count == 1 { return file.parse(0) }
        // Each piece writes only its own slot of a fixed buffer (not of a Swift array, which
        // several threads may not modify at once even at different indices).
        nonisolated(unsafe) let pieces = UnsafeMutableBufferPointer<Result?>.allocate(capacity: file.count)
        pieces.initialize(repeating: nil)
        defer {
            pieces.deinitialize()
            pieces.deallocate()
        }
        DispatchQueue.concurrentPerform(iterations: file.count) { i in pieces[i] = file.parse(i) }
        var joined = Result(cards: [], issues: [])
        for i in pieces.indices {
            guard var piece = pieces[i] else { continue }
            pieces[i] = nil  // so that the piece's issues are changed in place, not copied
            let cardOffset = joined.cards.count
            for k in piece.issues.indices { piece.issues[k].card = piece.issues[k].card.map { $0 + cardOffset } }
            joined.cards.append(contentsOf: piece.cards)
            joined.issues.append(contentsOf: piece.issues)
        }
        return joined
    }

    /// A file cut between cards (after an END:VCARD line at the top level, before a
    /// BEGIN:VCARD line), to be parsed piece by piece, in any order or at once. A piece's
    /// line numbers count from the start of the file; the card numbers of its issues count
    /// from the piece's first card.
    public struct Pieces: Sendable {
        /// The file's text, as UTF-8 with a BOM or UTF-16 undone.
        let bytes: [UInt8]
        let bounds: [Int]
        let lineOffsets: [Int]
        /// How many BEGIN:VCARD lines the file has: about how many cards it holds.
        public let estimatedCards: Int

        /// Cuts `data` into pieces of about `pieceBytes` each.
        public init(_ data: [UInt8], pieceBytes: Int) {
            self.init(data, parts: max(1, data.count / max(1, pieceBytes)))
        }

        init(_ data: [UInt8], parts: Int) {
            bytes = TextDecoding.normalizeFileEncoding(data)
            let (cuts, begins) = VCardParser.cardBoundaries(bytes, parts: max(1, parts))
            let bounds = [0] + cuts + [bytes.count]
            self.bounds = bounds
            // Every cut follows a line end, so a piece's lines all end inside it: each piece's
            // line ends are counted on their own, on every core (a large file is ready to parse
            // sooner), and summed.
            let pieces = bounds.count - 1
            let ends = UnsafeMutableBufferPointer<Int>.allocate(capacity: pieces)
            defer { ends.deallocate() }
            let text = bytes
            let into = PieceCounts(ends)
            let threads = pieces < 16 ? 1 : ProcessInfo.processInfo.activeProcessorCount
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for i in stride(from: thread, to: pieces, by: threads) {
                    into.counts[i] = LogicalLines.lineEnds(text, bounds[i]..<bounds[i + 1])
                }
            }
            var offsets = [0]
            offsets.reserveCapacity(pieces)
            for i in 0..<(pieces - 1) { offsets.append(offsets[i] + ends[i]) }
            lineOffsets = offsets
            estimatedCards = begins
        }

        public var count: Int { bounds.count - 1 }

        /// Piece `i`, parsed.
        public func parse(_ i: Int) -> Result {
            var piece = VCardParser.parseNormalized(i == 0 && count == 1 ? bytes : Array(bytes[bounds[i]..<bounds[i + 1]]))
            let lineOffset = lineOffsets[i]
            if lineOffset > 0 {
                for k in piece.cards.indices {
                    piece.cards[k].line += lineOffset
                    for j in piece.cards[k].properties.indices { piece.cards[k].properties[j].line += lineOffset }
                }
                for k in piece.issues.indices { piece.issues[k].line += lineOffset }
            }
            return piece
        }
    }

    /// Line ends counted per piece, each written by one thread only.
    private struct PieceCounts: @unchecked Sendable {
        let counts: UnsafeMutableBufferPointer<Int>
        init(_ counts: UnsafeMutableBufferPointer<Int>) { self.counts = counts }
    }

    /// Offsets where a BEGIN:VCARD line starts right after an END:VCARD line that closed a
    /// card, one near each of `parts - 1` evenly spaced targets. A file where a card begins
    /// inside another (nested AGENT cards, cards without END) gets no cuts: there, where a card
    /// ends is the parser's judgement alone.
    static func cardBoundaries(_ bytes: [UInt8], parts: Int) -> (cuts: [Int], begins: Int) {
        let begin = Array("BEGIN:VCARD".utf8), endMarker = Array("END:VCARD".utf8)
        var cuts: [Int] = []
        var nested = false
        var begins = 0
        var inCard = false
        var previousClosedACard = false
        var target = bytes.count / parts
        bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress else { return }
            var start = 0
            while start < b.count {
                // Lines found with memchr: this pass over the whole file runs before any piece
                // can be parsed.
                let end =
                    memchr(base + start, 0x0A, b.count - start).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base }
                    ?? b.count
                let first = b[start] | 0x20
                if first == UInt8(ascii: "b"), isMarker(b, start, end, begin) {
                    begins += 1
                    if inCard { nested = true }
                    if !nested && previousClosedACard && start >= target && cuts.count < parts - 1 {
                        cuts.append(start)
                        target = b.count / parts * (cuts.count + 1)
                    }
                    inCard = true
                    previousClosedACard = false
                } else if first == UInt8(ascii: "e"), isMarker(b, start, end, endMarker) {
                    previousClosedACard = inCard
                    inCard = false
                } else {
                    previousClosedACard = false
                }
                start = end + 1
            }
        }
        return (nested ? [] : cuts, begins)
    }

    static func parseNormalized(_ bytes: [UInt8]) -> Result {
        var issues: [VCardIssue] = []
        let logical = LogicalLines.split(bytes)
        var cards: [VCard] = []
        var current: [RawProperty]?
        var cardLine = 0
        var agentDepth = 0
        var agentLines: [String] = []

        func finish() {
            guard let props = current else { return }
            cards.append(interpret(props, line: cardLine, index: cards.count, issues: &issues))
            current = nil
        }

        var index = 0
        while index < logical.count {
            let l = logical[index]
            index += 1
            if agentDepth > 0 {
                // Inside a nested 2.1 AGENT card: keep its text as the AGENT value.
                let upper = String(decoding: l.bytes, as: UTF8.self).uppercased()
                if upper.hasPrefix("BEGIN:VCARD") { agentDepth += 1 }
                if upper.hasPrefix("END:VCARD") { agentDepth -= 1 }
                agentLines.append(String(decoding: l.bytes, as: UTF8.self))
                if agentDepth == 0, var props = current, let i = props.lastIndex(where: { $0.name == "AGENT" }) {
                    props[i].value = Array(agentLines.joined(separator: "\n").utf8)
                    props[i].isNestedCard = true
                    current = props
                }
                continue
            }
            if l.bytes.isEmpty { continue }
            if l.bytes.first == UInt8(ascii: "#") { continue }  // comment lines some producers write
            guard let prop = RawProperty.parse(l) else {
                if var props = current, let last = props.last, l.bytes.first.map(isLetter) != true,
                    last.name == "NOTE" || last.name == "ADR" || last.name == "LABEL" || last.name.hasPrefix("X-")
                {
                    // A raw newline inside a value (Android notes): keep the text with it.
                    props[props.count - 1].value.append(contentsOf: [0x0A] + l.bytes)
                    current = props
                } else {
                    issues.append(
                        VCardIssue(
                            card: current == nil ? nil : cards.count, line: l.line,
                            message: "skipped a line that is not a property: \(preview(l.bytes))"))
                }
                continue
            }
            if prop.name == "BEGIN" && prop.valueUpper == "VCARD" {
                if current != nil {
                    if current?.last?.name == "AGENT" && (current?.last?.value.isEmpty ?? false) {
                        agentDepth = 1
                        agentLines = [String(decoding: l.bytes, as: UTF8.self)]
                        continue
                    }
                    if let end = nestedBlocksEnd(logical, from: index - 1) {
                        // 2.1 cards nested in a card (as AOSP writes them): kept whole, as AGENT values.
                        var nested: [String] = []
                        for k in (index - 1)..<end { nested.append(String(decoding: logical[k].bytes, as: UTF8.self)) }
                        current?.append(
                            RawProperty(
                                group: nil, name: "AGENT", parameters: [], value: Array(nested.joined(separator: "\n").utf8), line: l.line,
                                isNestedCard: true))
                        index = end
                        continue
                    }
                    issues.append(
                        VCardIssue(
                            card: cards.count, line: l.line, message: "a card without END:VCARD ends where the next begins",
                            kind: .cardEndedByNextCard))
                    finish()
                }
                current = []
                cardLine = l.line
                continue
            }
            if prop.name == "END" && prop.valueUpper == "VCARD" {
                if current == nil {
                    issues.append(VCardIssue(card: nil, line: l.line, message: "END:VCARD without BEGIN:VCARD", kind: .strayEnd))
                }
                finish()
                continue
            }
            if current == nil {
                issues.append(VCardIssue(card: nil, line: l.line, message: "skipped a property outside any card: \(preview(l.bytes))"))
                continue
            }
            current?.append(prop)
        }
        if current != nil {
            issues.append(
                VCardIssue(card: cards.count, line: cardLine, message: "the last card has no END:VCARD", kind: .lastCardUnterminated))
            finish()
        }
        return Result(cards: cards, issues: issues)
    }

    /// When the BEGIN:VCARD at `start` opens cards nested inside the card being read (the
    /// outer card goes on after them), the index just past the nested blocks; nil when it is
    /// the next card of a file whose previous card lacked END:VCARD.
    static func nestedBlocksEnd(_ lines: [LogicalLines.Line], from start: Int) -> Int? {
        var i = start
        while i < lines.count {
            guard isMarker(lines[i].bytes, "BEGIN:VCARD") else { break }
            var depth = 0
            var j = i
            while j < lines.count {
                if isMarker(lines[j].bytes, "BEGIN:VCARD") { depth += 1 }
                if isMarker(lines[j].bytes, "END:VCARD") {
                    depth -= 1
                    if depth == 0 { break }
                }
                j += 1
            }
            guard j < lines.count else { return nil }
            i = j + 1
            while i < lines.count && lines[i].bytes.isEmpty { i += 1 }
        }
        // The outer card goes on only if a property or its END follows.
        guard i < lines.count else { return nil }
        return i
    }

    /// Whether `b[start..<end]` is the marker line (any case), trailing blanks and CRs aside.
    static func isMarker(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ marker: [UInt8]) -> Bool {
        guard end - start >= marker.count else { return false }
        // The marker is upper case; only letters are folded.
        for k in 0..<marker.count where LogicalLines.upper(b[start + k]) != marker[k] { return false }
        var i = start + marker.count
        while i < end {
            guard b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0D else { return false }
            i += 1
        }
        return true
    }

    static func isMarker(_ b: [UInt8], _ marker: String) -> Bool {
        let m = Array(marker.utf8)
        guard b.count >= m.count else { return false }
        for k in 0..<m.count where (b[k] | (b[k] >= 0x41 && b[k] <= 0x5A ? 0x20 : 0)) != (m[k] | (m[k] >= 0x41 && m[k] <= 0x5A ? 0x20 : 0))
        {
            return false
        }
        return b[m.count...].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    static func preview(_ bytes: [UInt8]) -> String {
        let s = String(decoding: bytes.prefix(40), as: UTF8.self)
        return "'\(s)\(bytes.count > 40 ? "…" : "")'"
    }

    /// Decodes the values of a card's properties now that its VERSION is known.
    static func interpret(_ raw: [RawProperty], line: Int, index: Int, issues: inout [VCardIssue]) -> VCard {
        let version = raw.first { $0.name == "VERSION" }.map { String(decoding: $0.value, as: UTF8.self).trimming(" \t") }
        let v21 = version == "2.1" || version == "1.0"
        var props: [VCardProperty] = []
        props.reserveCapacity(raw.count)
        for r in raw {
            props.append(r.decode(v21: v21, v4: version == "4.0"))
        }
        return VCard(properties: props, line: line, version: version)
    }
}

/// A content line split into its parts, with its value still as bytes.
struct RawProperty {
    var group: String?
    var name: String
    /// The name as written, when it was not upper case.
    var spelling: String?
    var parameters: [VCardParameter]
    var value: [UInt8]
    var line: Int
    var isNestedCard = false

    var valueUpper: String { String(decoding: value, as: UTF8.self).trimming(" \t").uppercased() }

    static func parse(_ l: LogicalLines.Line) -> RawProperty? {
        l.bytes.withUnsafeBufferPointer { parse($0, line: l.line) }
    }

    @inline(__always) static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    /// `b[range]` without the blanks at either end.
    static func trimmed(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var s = range.lowerBound, e = range.upperBound
        while s < e, isBlank(b[s]) { s += 1 }
        while e > s, isBlank(b[e - 1]) { e -= 1 }
        return s..<e
    }

    static func parse(_ b: UnsafeBufferPointer<UInt8>, line: Int) -> RawProperty? {
        // The name (with an optional group) runs to the first ';' or ':'.
        var i = 0
        while i < b.count, b[i] != UInt8(ascii: ";"), b[i] != UInt8(ascii: ":") { i += 1 }
        guard i < b.count, i > 0 else { return nil }
        let full = trimmed(b, 0..<i)
        var nameStart = full.lowerBound
        var group: String?
        var k = full.upperBound
        while k > full.lowerBound {
            k -= 1
            if b[k] == UInt8(ascii: ".") {
                group = String(decoding: UnsafeBufferPointer(rebasing: b[full.lowerBound..<k]), as: UTF8.self)
                nameStart = k + 1
                break
            }
        }
        guard nameStart < full.upperBound else { return nil }
        for k in nameStart..<full.upperBound {
            let c = b[k]
            guard VCardParser.isLetter(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") else {
                return nil
            }
        }
        let name = asciiUppercased(b, nameStart..<full.upperBound)
        let spelling = spelling(b, nameStart..<full.upperBound)
        var params: [VCardParameter] = []
        while i < b.count, b[i] == UInt8(ascii: ";") {
            i += 1
            var j = i
            var quoted = false
            while j < b.count {
                let c = b[j]
                if c == UInt8(ascii: "\"") { quoted.toggle() }
                if !quoted && (c == UInt8(ascii: ";") || c == UInt8(ascii: ":")) { break }
                j += 1
            }
            if j >= b.count { return nil }  // no ':' at all
            if !trimmed(b, i..<j).isEmpty { params.append(parameter(b, i..<j)) }
            i = j
        }
        guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
        return RawProperty(group: group, name: name, spelling: spelling, parameters: params, value: Array(b[(i + 1)...]), line: line)
    }

    /// The bytes as a string when they are not all upper case, nil when they are (as nearly
    /// every name is, so nothing is made for those).
    static func spelling(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        for k in range where b[k] >= 0x61 {
            if b[k] <= 0x7A || b[k] >= 0x80 { return String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self) }
        }
        return nil
    }

    /// The bytes as a string with ASCII letters upper-cased (anything else as `uppercased()` does).
    static func asciiUppercased(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var hasLower = false
        for k in range {
            let c = b[k]
            if c >= 0x80 { return String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self).uppercased() }
            if c >= 0x61 && c <= 0x7A { hasLower = true }
        }
        let slice = UnsafeBufferPointer(rebasing: b[range])
        guard hasLower else { return String(decoding: slice, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: slice.count) { out in
            for k in 0..<slice.count { out[k] = LogicalLines.upper(slice[k]) }
            return slice.count
        }
    }

    /// One parameter from the bytes between its ';' and the next: `NAME=v1,"v,2"`, or a bare value.
    static func parameter(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> VCardParameter {
        var eq = range.lowerBound
        while eq < range.upperBound, b[eq] != UInt8(ascii: "=") { eq += 1 }
        guard eq < range.upperBound else {
            return VCardParameter(
                uppercasedName: nil, [String(decoding: UnsafeBufferPointer(rebasing: b[trimmed(b, range)]), as: UTF8.self)])
        }
        let nameRange = trimmed(b, range.lowerBound..<eq)
        let name = asciiUppercased(b, nameRange)
        let spelling = spelling(b, nameRange)
        var values: [String] = []
        var current: [UInt8] = []
        var quoted = false
        var k = eq + 1
        while k < range.upperBound {
            let c = b[k]
            k += 1
            if c == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if c == UInt8(ascii: ",") && !quoted {
                values.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else if c == UInt8(ascii: "^") && k < range.upperBound {
                // RFC 6868: ^n newline, ^^ caret, ^' double quote.
                switch b[k] {
                case UInt8(ascii: "n"), UInt8(ascii: "N"): current.append(0x0A); k += 1
                case UInt8(ascii: "^"): current.append(UInt8(ascii: "^")); k += 1
                case UInt8(ascii: "'"): current.append(UInt8(ascii: "\"")); k += 1
                default: current.append(c)
                }
            } else {
                current.append(c)
            }
        }
        values.append(String(decoding: current, as: UTF8.self))
        return VCardParameter(uppercasedName: name, spelling: spelling, values)
    }

    /// Whether `s` is `upper` in any ASCII case.
    static func equalsIgnoringCase(_ s: String, _ upper: StaticString) -> Bool {
        let u = UnsafeBufferPointer(start: upper.utf8Start, count: upper.utf8CodeUnitCount)
        guard s.utf8.count == u.count else { return false }
        var k = 0
        for c in s.utf8 {
            guard LogicalLines.upper(c) == u[k] else { return false }
            k += 1
        }
        return true
    }

    var isQuotedPrintable: Bool {
        parameters.contains { p in
            (p.name == "ENCODING" || p.name == nil) && p.values.contains { Self.equalsIgnoringCase($0, "QUOTED-PRINTABLE") }
        }
    }

    var isBase64: Bool {
        parameters.contains { p in
            (p.name == "ENCODING" && p.values.contains { Self.equalsIgnoringCase($0, "B") || Self.equalsIgnoringCase($0, "BASE64") })
                || (p.name == nil && p.values.contains { Self.equalsIgnoringCase($0, "BASE64") })
        }
    }

    /// Properties whose value is not text: binary data or a URI, kept as written.
    static func isRawName(_ name: String) -> Bool {
        switch name {
        case "PHOTO", "LOGO", "SOUND", "KEY", "URL", "SOURCE", "MEMBER", "FBURL", "CALURI", "CALADRURI", "IMPP", "AGENT": true
        default: false
        }
    }

    /// Properties whose 2.1 values are comma lists too.
    static func isListName(_ name: String) -> Bool { name == "CATEGORIES" || name == "NICKNAME" }

    func decode(v21: Bool, v4: Bool) -> VCardProperty {
        var bytes = value
        var kept = parameters
        var base64 = false
        var valueType: String?
        var charset: String?
        if !parameters.isEmpty {
            if isQuotedPrintable { bytes = TextDecoding.quotedPrintable(bytes) }
            charset = parameters.first { $0.name == "CHARSET" }?.values.first
            base64 = isBase64
            // Parameters that only described the transfer encoding are dropped: the value is
            // now plain UTF-8 text.
            kept = parameters.filter { p in
                if p.name == "CHARSET" { return false }
                if p.name == "ENCODING" || p.name == nil {
                    return !p.values.contains { Self.equalsIgnoringCase($0, "QUOTED-PRINTABLE") || Self.equalsIgnoringCase($0, "8BIT") }
                }
                return true
            }
            valueType = parameters.first { $0.name == "VALUE" }?.values.first
        }
        let text = TextDecoding.string(bytes, charset: charset, legacy: v21)
        let dataURI = text.utf8.starts(with: "data:".utf8)
        let raw =
            isNestedCard || base64 || Self.isRawName(name) || dataURI
            || valueType.map {
                Self.equalsIgnoringCase($0, "URI") || Self.equalsIgnoringCase($0, "URL") || Self.equalsIgnoringCase($0, "BINARY")
            } == true
        let decoded: VCardValue
        if raw {
            let trimmed = base64 ? TextDecoding.removingWhitespace(text) : text
            // Google escapes ':' and ',' in URLs; nothing else should be touched.
            decoded = .raw(base64 || dataURI ? trimmed : TextEscaping.unescapeURI(trimmed))
        } else {
            decoded = .text(TextEscaping.split(text, v21: v21, splitLists: !v21 || Self.isListName(name)))
        }
        return VCardProperty(uppercasedName: name, spelling: spelling, group: group, parameters: kept, value: decoded, line: line)
    }
}
