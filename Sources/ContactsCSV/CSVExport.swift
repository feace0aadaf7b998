import ContactsCore

/// Contacts as Google's contacts CSV, which Google, Outlook and most phones import: the
/// name's parts and its reading, organization and department, birthday, notes and groups,
/// then numbered groups of columns for as many emails, phones, addresses, websites, dates,
/// related people and messaging addresses as the contact with the most has.
public enum CSVExport {
    public static func csv(_ contacts: [Contact]) -> String {
        let columns = Columns(contacts)
        return header(columns) + rows(contacts, columns)
    }

    /// How many numbered groups of each kind the columns have: as many as the contact with the
    /// most has. An export streamed in blocks widens them block by block before writing.
    public struct Columns: Sendable, Equatable {
        public var emails = 0, phones = 0, addresses = 0, urls = 0, events = 0, relations = 0, messaging = 0

        public init(_ contacts: [Contact] = []) {
            for c in contacts {
                emails = max(emails, c.emails.count)
                phones = max(phones, c.phones.count)
                addresses = max(addresses, c.addresses.count)
                urls = max(urls, c.urls.count)
                events = max(events, c.dates.count)
                relations = max(relations, c.related.count)
                messaging = max(messaging, c.impp.count)
            }
        }

        public mutating func widen(to other: Columns) {
            emails = max(emails, other.emails)
            phones = max(phones, other.phones)
            addresses = max(addresses, other.addresses)
            urls = max(urls, other.urls)
            events = max(events, other.events)
            relations = max(relations, other.relations)
            messaging = max(messaging, other.messaging)
        }
    }

    /// The header row, with its line end.
    public static func header(_ columns: Columns) -> String {
        var header = CSVColumns.googleSingles.map { $0.header.replacing("Organization ", with: "Organization 1 - ") }
        for k in stride(from: 1, through: columns.emails, by: 1) { header += ["E-mail \(k) - Type", "E-mail \(k) - Value"] }
        for k in stride(from: 1, through: columns.phones, by: 1) { header += ["Phone \(k) - Type", "Phone \(k) - Value"] }
        for k in stride(from: 1, through: columns.addresses, by: 1) {
            header += [
                "Address \(k) - Type", "Address \(k) - Formatted", "Address \(k) - Street", "Address \(k) - City",
                "Address \(k) - PO Box", "Address \(k) - Region", "Address \(k) - Postal Code", "Address \(k) - Country",
                "Address \(k) - Extended Address",
            ]
        }
        for k in stride(from: 1, through: columns.urls, by: 1) { header += ["Website \(k) - Type", "Website \(k) - Value"] }
        for k in stride(from: 1, through: columns.events, by: 1) { header += ["Event \(k) - Type", "Event \(k) - Value"] }
        for k in stride(from: 1, through: columns.relations, by: 1) { header += ["Relation \(k) - Type", "Relation \(k) - Value"] }
        for k in stride(from: 1, through: columns.messaging, by: 1) {
            header += ["IM \(k) - Type", "IM \(k) - Service", "IM \(k) - Value"]
        }
        return CSVReader.row(header)
    }

    /// One row a contact, each with its line end, in `columns` (at least as wide as any of them).
    public static func rows(_ contacts: [Contact], _ columns: Columns) -> String {
        var out = ""
        for c in contacts {
            var row = CSVColumns.googleSingles.map { cell($0.field, of: c) }
            func labeled(_ values: [LabeledValue], _ count: Int) {
                for k in 0..<count { row += k < values.count ? [label(values[k].label), values[k].value] : ["", ""] }
            }
            labeled(c.emails, columns.emails)
            labeled(c.phones, columns.phones)
            for k in 0..<columns.addresses {
                guard k < c.addresses.count else {
                    row += Array(repeating: "", count: 9)
                    continue
                }
                let a = c.addresses[k]
                let formatted = [a.street, [a.postalCode, a.locality].filter { !$0.isEmpty }.joined(separator: " "), a.region, a.country]
                    .filter { !$0.isEmpty }.joined(separator: "\n")
                row += [label(a.label), formatted, a.street, a.locality, a.poBox, a.region, a.postalCode, a.country, a.extended]
            }
            labeled(c.urls, columns.urls)
            labeled(c.dates, columns.events)
            labeled(c.related, columns.relations)
            for k in 0..<columns.messaging {
                guard k < c.impp.count else {
                    row += ["", "", ""]
                    continue
                }
                let (service, handle) = CSVMessaging.serviceAndHandle(c.impp[k].value)
                row += [label(c.impp[k].label), service, handle]
            }
            out += CSVReader.row(row)
        }
        return out
    }

    /// What a column of one value holds for `c`.
    static func cell(_ field: CSVField, of c: Contact) -> String {
        let n = c.structuredName ?? StructuredName()
        switch field {
        case .fullName: return c.name
        case .given: return n.given
        case .additional: return n.additional
        case .family: return n.family
        case .prefix: return n.prefix
        case .suffix: return n.suffix
        case .birthday: return c.birthday ?? ""
        case .notes: return c.note ?? ""
        case .groups: return (["* myContacts"] + c.groups).joined(separator: " ::: ")
        case .phoneticGiven: return c.phoneticName?.given ?? ""
        case .phoneticMiddle: return c.phoneticName?.middle ?? ""
        case .phoneticFamily: return c.phoneticName?.family ?? ""
        case .gender: return c.gender ?? ""
        case .text(let path): return c[keyPath: path] ?? ""
        case .email, .phone, .address, .web, .date, .related, .numbered, .ignored: return ""
        }
    }

    /// A label as Google writes it: its own words capitalised ("Mobile", "Home Fax"), a
    /// person's own label as it is.
    static func label(_ l: String?) -> String {
        guard let l else { return "" }
        guard CSVRow.standardLabels.contains(l.lowercased()) else { return l }
        return l.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}
