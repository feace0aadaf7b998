import Foundation

/// A large file cut between cards into pieces that are parsed on all cores, their cards,
/// issues and line numbers as if the file had been read in one go.
extension VCardParser {
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
        PartThreads.run(file.count) { i in pieces[i] = file.parse(i) }
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
            let threads = pieces < 16 ? 1 : VCardParser.cores
            PartThreads.run(threads) { thread in
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
}
