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
        parse(data, parts: cores, minimumBytes: 1 << 20)
    }

    /// The cores this process may use, read once (Foundation reads the cgroup's files on
    /// every ask, which costs more than parsing a small card).
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    static func parseNormalized(_ bytes: [UInt8]) -> Result {
        var issues: [VCardIssue] = []
        let logical = LogicalLines.split(bytes)
        var cards: [VCard] = []
        var current: [RawProperty]?
        var cardLine = 0
        var agentDepth = 0
        var agentLines: [String] = []

        func finish() {
            guard let props = current.take() else { return }
            cards.append(interpret(props, line: cardLine, index: cards.count, issues: &issues))
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
                    props[i].value = ArraySlice(agentLines.joined(separator: "\n").utf8)
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
                                group: nil, name: "AGENT", parameters: [], value: ArraySlice(nested.joined(separator: "\n").utf8),
                                line: l.line,
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
    static func interpret(_ raw: consuming [RawProperty], line: Int, index: Int, issues: inout [VCardIssue]) -> VCard {
        let version = raw.first { $0.name == "VERSION" }.map { String(decoding: $0.value, as: UTF8.self).trimming(" \t") }
        let v21 = version == "2.1" || version == "1.0"
        let v4 = version == "4.0"
        var props: [VCardProperty] = []
        props.reserveCapacity(raw.count)
        // Each property is decoded where it lies (`for r in raw` would copy each, parts and all).
        var raw = raw
        raw.withUnsafeMutableBufferPointer { raw in
            for k in raw.indices { props.append(raw[k].decode(v21: v21, v4: v4)) }
        }
        return VCard(properties: props, line: line, version: version)
    }
}
