import ContactsAPI
import ContactsCSV
import ContactsCore
import ContactsStore
import JSONCore
import VCard

/// How an export's contacts become text a block at a time: vCards one after another; a JSON
/// array whose brackets and commas join the blocks; or CSV, whose header has as many columns
/// as the contact with the most values needs (`columns`, known before the first row); or
/// one calendar of the contacts' birthdays and dates.
typealias ExportFormat = ContactsExport.Format

extension ExportFormat {
    /// The text before the first contact.
    func opening(_ columns: CSVExport.Columns) -> String {
        switch self {
        case .json: "["
        case .csv: CSVExport.header(columns)
        case .ics: DateCalendar.opening
        case .vcard3, .vcard4: ""
        }
    }

    /// The text between two non-empty blocks.
    var separator: String { self == .json ? "," : "" }

    /// The text after the last contact.
    var closing: String {
        switch self {
        case .json: "]"
        case .ics: DateCalendar.closing
        default: ""
        }
    }

    /// A block of contacts as text, made on any thread.
    func text(_ contacts: [Contact], columns: CSVExport.Columns, store: ContactStore) -> String {
        switch self {
        case .json:
            return contacts.map { JSONWriter.string($0.json) }.joined(separator: ",")
        case .csv:
            return CSVExport.rows(contacts, columns)
        case .ics:
            return contacts.flatMap { DateCalendar.events(for: $0).map(\.text) }.joined()
        case .vcard3, .vcard4:
            var text = ""
            for c in contacts {
                VCardWriter.write(VCard(properties: store.cardProperties(for: c)), version: self == .vcard3 ? .v3 : .v4, into: &text)
            }
            return text
        }
    }
}
