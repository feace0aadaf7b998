/// One row of a CSV file: its cells, and the line it starts on (from 1).
public struct CSVRecord: Sendable, Equatable {
    public var line: Int
    public var cells: [String]

    public init(line: Int, cells: [String]) {
        self.line = line
        self.cells = cells
    }
}

/// Something wrong in a CSV file, and the line it is on.
public struct CSVProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

/// Reads CSV as RFC 4180 writes it: cells separated by a delimiter, rows by CRLF or LF, a
/// cell in double quotes may hold delimiters, line breaks and doubled quotes. Leniently where
/// exporters stray: text after a closing quote is kept, a quote inside an unquoted cell is
/// a character, blank rows are skipped. A quote left open at the end is a problem of its row.
public enum CSVReader {
    /// The rows of `text`, split at `delimiter` (nil: the one of `,` `;` and tab that the first
    /// row has most of, outside quotes).
    public static func read(_ text: String, delimiter: UInt8? = nil) -> (records: [CSVRecord], problems: [CSVProblem]) {
        var text = text
        return text.withUTF8 { bytes in
            let d = delimiter ?? guessDelimiter(bytes)
            var records: [CSVRecord] = []
            var problems: [CSVProblem] = []
            var i = 0, line = 1
            var cell: [UInt8] = []
            while i < bytes.count {
                let start = line
                var cells: [String] = []
                var ended = false
                while !ended {
                    cell.removeAll(keepingCapacity: true)
                    if i < bytes.count && bytes[i] == UInt8(ascii: "\"") {
                        i += 1
                        var closed = false
                        while i < bytes.count {
                            let b = bytes[i]
                            if b == UInt8(ascii: "\"") {
                                if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
                                    cell.append(b)
                                    i += 2
                                    continue
                                }
                                i += 1
                                closed = true
                                break
                            }
                            if b == 0x0A { line += 1 }
                            // A line break in a cell is LF, however the file ends its lines.
                            if b != 0x0D || i + 1 >= bytes.count || bytes[i + 1] != 0x0A { cell.append(b) }
                            i += 1
                        }
                        if !closed {
                            problems.append(CSVProblem(line: start, message: "a quoted cell is never closed"))
                        }
                    }
                    // Unquoted text, or what follows a closing quote, up to the cell's end.
                    while i < bytes.count && bytes[i] != d && bytes[i] != 0x0A && bytes[i] != 0x0D {
                        cell.append(bytes[i])
                        i += 1
                    }
                    cells.append(String(decoding: cell, as: UTF8.self))
                    if i < bytes.count && bytes[i] == d {
                        i += 1
                    } else {
                        if i < bytes.count && bytes[i] == 0x0D { i += 1 }
                        if i < bytes.count && bytes[i] == 0x0A { i += 1 }
                        line += 1
                        ended = true
                    }
                }
                if cells.count == 1 && cells[0].allSatisfy(\.isWhitespace) { continue }
                records.append(CSVRecord(line: start, cells: cells))
            }
            return (records, problems)
        }
    }

    /// The delimiter the first row uses most outside quotes: `,`, `;` or tab (`,` on a tie).
    static func guessDelimiter(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, 0x09: 0]
        var quoted = false
        for b in bytes {
            if b == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted && (b == 0x0A || b == 0x0D) { break }
            if !quoted, let n = counts[b] { counts[b] = n + 1 }
        }
        let comma = counts[UInt8(ascii: ",")] ?? 0
        return counts.filter { $0.value > comma }.max { $0.value < $1.value }?.key ?? UInt8(ascii: ",")
    }

    /// One row as CSV text: cells quoted where they hold the delimiter, a quote or a line break.
    /// Bytes are looked at, as the reader splits at bytes: a comma a combining mark follows is
    /// one character with it, and still a delimiter.
    public static func row(_ cells: [String], delimiter: UInt8 = UInt8(ascii: ",")) -> String {
        cells.map { c in
            guard c.utf8.contains(where: { $0 == delimiter || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else { return c }
            var quoted: [UInt8] = [UInt8(ascii: "\"")]
            for b in c.utf8 {
                quoted.append(b)
                if b == UInt8(ascii: "\"") { quoted.append(b) }
            }
            quoted.append(UInt8(ascii: "\""))
            return String(decoding: quoted, as: UTF8.self)
        }.joined(separator: String(UnicodeScalar(delimiter))) + "\r\n"
    }
}
