import ContactsCore
import ContactsSupport
import Foundation
import VCard

/// Contacts from a Google or Outlook CSV export: the header tells the dialect and what each
/// column holds; each row is one contact, and a row that cannot be one is reported with its
/// line while the others land.
public enum CSVImport {
    /// A row read as a contact, or why it could not be.
    public struct Row: Sendable {
        /// The row's place among the rows after the header, from 0.
        public var index: Int
        public var line: Int
        public var contact: Swift.Result<Contact, CSVProblem>
    }

    public struct File: Sendable {
        public var dialect: CSVDialect?
        public var rows: [Row]
        /// The header has a column of groups: a row's groups are all it is in.
        public var carriesGroups = false
    }

    /// The property a cell no field holds is kept in, with its column's name in `X-NAME`:
    /// nothing a file brings is dropped.
    public static let keptProperty = "X-CSV-FIELD"

    /// Reads `bytes` (UTF-8 with or without BOM, UTF-16, or Windows-1252).
    public static func read(_ bytes: [UInt8]) -> File {
        read(text: FileText.string(bytes))
    }

    public static func read(text: String) -> File {
        let (records, problems) = CSVReader.read(text)
        guard let header = records.first else {
            return File(dialect: nil, rows: problems.map { Row(index: 0, line: $0.line, contact: .failure($0)) })
        }
        guard let columns = CSVColumns(header: header.cells) else {
            let p = CSVProblem(line: header.line, message: "the first row names no column of a Google or Outlook contacts export")
            return File(dialect: nil, rows: [Row(index: 0, line: header.line, contact: .failure(p))])
        }
        let broken = Dictionary(problems.map { ($0.line, $0) }) { a, _ in a }
        var rows: [Row] = []
        for (k, record) in records.dropFirst().enumerated() {
            let contact: Swift.Result<Contact, CSVProblem>
            if let p = broken[record.line] {
                contact = .failure(p)
            } else {
                contact = Swift.Result { () throws(CSVProblem) in try CSVRow(record, columns).contact() }
            }
            rows.append(Row(index: k, line: record.line, contact: contact))
        }
        return File(dialect: columns.dialect, rows: rows, carriesGroups: columns.fields.contains(.groups))
    }
}
