import ContactsCore

/// Contacts as Google's contacts CSV, which Google, Outlook and most phones import: the
/// name's parts, organization, birthday, notes and groups, then numbered groups of columns
/// for as many emails, phones, addresses and websites as the contact with the most has.
public enum CSVExport {
    public static func csv(_ contacts: [Contact]) -> String {
        let emails = contacts.map(\.emails.count).max() ?? 0
        let phones = contacts.map(\.phones.count).max() ?? 0
        let addresses = contacts.map(\.addresses.count).max() ?? 0
        let urls = contacts.map(\.urls.count).max() ?? 0
        var header = [
            "Name", "Given Name", "Additional Name", "Family Name", "Name Prefix", "Name Suffix", "Nickname", "Birthday", "Notes",
            "Group Membership", "Organization 1 - Name", "Organization 1 - Title",
        ]
        for k in stride(from: 1, through: emails, by: 1) { header += ["E-mail \(k) - Type", "E-mail \(k) - Value"] }
        for k in stride(from: 1, through: phones, by: 1) { header += ["Phone \(k) - Type", "Phone \(k) - Value"] }
        for k in stride(from: 1, through: addresses, by: 1) {
            header += [
                "Address \(k) - Type", "Address \(k) - Formatted", "Address \(k) - Street", "Address \(k) - City",
                "Address \(k) - PO Box", "Address \(k) - Region", "Address \(k) - Postal Code", "Address \(k) - Country",
                "Address \(k) - Extended Address",
            ]
        }
        for k in stride(from: 1, through: urls, by: 1) { header += ["Website \(k) - Type", "Website \(k) - Value"] }
        var out = CSVReader.row(header)
        for c in contacts {
            let n = c.structuredName ?? StructuredName()
            var row = [
                c.name, n.given, n.additional, n.family, n.prefix, n.suffix, c.nickname ?? "", c.birthday ?? "", c.note ?? "",
                (["* myContacts"] + c.groups).joined(separator: " ::: "), c.organization ?? "", c.title ?? "",
            ]
            func labeled(_ values: [LabeledValue], _ count: Int) {
                for k in 0..<count { row += k < values.count ? [label(values[k].label), values[k].value] : ["", ""] }
            }
            labeled(c.emails, emails)
            labeled(c.phones, phones)
            for k in 0..<addresses {
                guard k < c.addresses.count else {
                    row += Array(repeating: "", count: 9)
                    continue
                }
                let a = c.addresses[k]
                let formatted = [a.street, [a.postalCode, a.locality].filter { !$0.isEmpty }.joined(separator: " "), a.region, a.country]
                    .filter { !$0.isEmpty }.joined(separator: "\n")
                row += [label(a.label), formatted, a.street, a.locality, a.poBox, a.region, a.postalCode, a.country, a.extended]
            }
            labeled(c.urls, urls)
            out += CSVReader.row(row)
        }
        return out
    }

    /// A label as Google writes it: its own words capitalised ("Mobile", "Home Fax"), a
    /// person's own label as it is.
    static func label(_ l: String?) -> String {
        guard let l else { return "" }
        guard CSVRow.standardLabels.contains(l.lowercased()) else { return l }
        return l.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}
