import ContactsCore
import ContactsSupport
import Foundation
import VCard

/// One row of a contacts CSV made a contact, by what its columns hold.
struct CSVRow {
    let record: CSVRecord
    let columns: CSVColumns

    init(_ record: CSVRecord, _ columns: CSVColumns) {
        self.record = record
        self.columns = columns
    }

    /// Values programs write in every row for "none", not worth keeping.
    static let noValue: Set<String> = [
        "0/0/00", "0.0.00", "00.00.0000", "unspecified", "normal", "false", "nicht angegeben", "non spécifié",
    ]

    /// Between several values in one of Google's cells.
    static let separator = " ::: "

    func contact() throws(CSVProblem) -> Contact {
        let cells = record.cells
        if cells.count > columns.fields.count, cells[columns.fields.count...].contains(where: { !$0.trimmingWhitespace().isEmpty }) {
            throw problem(
                "the row has \(cells.count) cells where the header names \(columns.fields.count) columns (a quote or delimiter out of place?)"
            )
        }
        var c = Contact(name: "")
        var n = StructuredName()
        var reading = PhoneticName()
        var fullName = ""
        var kept: [VCardProperty] = []
        var numbered: [(key: NumberedGroup, parts: [NumberedPart: String])] = []
        var addresses: [(label: String, parts: [AddressPart: String])] = []
        func keep(_ column: Int, _ value: String) {
            kept.append(
                VCardProperty(name: CSVImport.keptProperty, parameters: [VCardParameter("X-NAME", [columns.names[column]])], text: value))
        }
        for (i, field) in columns.fields.enumerated() where i < cells.count {
            let value = cells[i].trimmingWhitespace()
            guard !value.isEmpty else { continue }
            switch field {
            case nil:
                if !Self.noValue.contains(value.lowercased()) { keep(i, value) }
            case .ignored: break
            case .fullName: fullName = value
            case .given: n.given = value
            case .additional: n.additional = value
            case .family: n.family = value
            case .prefix: n.prefix = value
            case .suffix: n.suffix = value
            case .text(let path): c[keyPath: path] = value
            case .phoneticGiven: reading.given = value
            case .phoneticMiddle: reading.middle = value
            case .phoneticFamily: reading.family = value
            case .gender: if !Self.noValue.contains(value.lowercased()) { c.gender = value.lowercased() }
            case .date(let label):
                guard !Self.noValue.contains(value.lowercased()) else { continue }
                if let d = CSVBirthday.parse(value) { c.dates.append(LabeledValue(value: d, label: label)) } else { keep(i, value) }
            case .related(let label): c.related.append(LabeledValue(value: value, label: label))
            case .notes: c.note = cells[i].trimmingCharacters(in: .whitespacesAndNewlines)
            case .birthday:
                guard !Self.noValue.contains(value.lowercased()) else { continue }
                if let b = CSVBirthday.parse(value) { c.birthday = b } else { keep(i, value) }
            case .groups: c.groups += groups(value)
            case .email(let label): c.emails.append(LabeledValue(value: value, label: label))
            case .phone(let label): c.phones.append(LabeledValue(value: value, label: label))
            case .web(let label): c.urls.append(LabeledValue(value: value, label: label))
            case .address(let label, let part):
                if let k = addresses.firstIndex(where: { $0.label == label }) {
                    addresses[k].parts[part] = addresses[k].parts[part].map { $0 + "\n" + value } ?? value
                } else {
                    addresses.append((label, [part: value]))
                }
            case .numbered(let kind, let index, let part):
                let key = NumberedGroup(kind: kind, index: index)
                if let k = numbered.firstIndex(where: { $0.key == key }) {
                    numbered[k].parts[part] = value
                } else {
                    numbered.append((key, [part: value]))
                }
            }
        }
        for a in addresses { c.addresses.append(Self.address(a.parts, label: a.label)) }
        for g in numbered { add(g.key.kind, g.parts, to: &c) }
        if n != StructuredName() { c.structuredName = n }
        if !reading.isEmpty { c.phoneticName = reading }
        c.name =
            [fullName, [n.prefix, n.given, n.additional, n.family, n.suffix].filter { !$0.isEmpty }.joined(separator: " ")]
            .first { !$0.isEmpty } ?? c.organization ?? c.emails.first?.value ?? c.phones.first?.value ?? ""
        guard !c.name.isEmpty else { throw problem("the row has no name, organization, email or phone") }
        if !kept.isEmpty { c.vcardProperties = kept }
        // Named by its content: the same row imported again is found again.
        c.uid = "urn:contactsd:csv-" + SHA256.hex(Array(cells.joined(separator: "\u{1F}").utf8)).prefix(32)
        return c
    }

    func problem(_ message: String) -> CSVProblem { CSVProblem(line: record.line, message: message) }

    struct NumberedGroup: Hashable {
        var kind: NumberedKind
        var index: Int
    }

    /// One of Google's numbered groups (`Phone 2 - Type`, `Phone 2 - Value`): a value per
    /// " ::: "-separated part of its value cell, each with the group's label.
    func add(_ kind: NumberedKind, _ parts: [NumberedPart: String], to c: inout Contact) {
        let label = parts[.label].flatMap(Self.label)
        func values() -> [LabeledValue] {
            (parts[.value] ?? "").components(separatedBy: Self.separator).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
                .map { LabeledValue(value: $0, label: label) }
        }
        switch kind {
        case .email: c.emails += values()
        case .phone: c.phones += values()
        case .website: c.urls += values()
        case .organization:
            if c.organization == nil { c.organization = parts[.name] }
            if c.title == nil { c.title = parts[.title] }
            if c.department == nil { c.department = parts[.department] }
        case .event:
            c.dates += values().compactMap { v in CSVBirthday.parse(v.value).map { LabeledValue(value: $0, label: v.label) } }
        case .relation: c.related += values()
        case .im, .instantMessenger:
            let scheme = parts[.service].flatMap { CSVMessaging.scheme(service: $0) }
            c.impp += values().map { v in LabeledValue(value: CSVMessaging.uri(v.value, scheme: scheme), label: v.label) }
        case .address:
            var byPart: [AddressPart: [String]] = [:]
            for case (.address(let p), let v) in parts { byPart[p] = v.components(separatedBy: Self.separator) }
            let count = byPart.values.map(\.count).max() ?? 0
            for k in 0..<count {
                let one = byPart.compactMapValues { k < $0.count ? $0[k] : nil }
                var a = Self.address(one, label: label)
                if a.isEmpty { continue }
                a.label = label
                c.addresses.append(a)
            }
        }
    }

    static func address(_ parts: [AddressPart: String], label: String?) -> PostalAddress {
        var a = PostalAddress(
            street: parts[.street] ?? "", locality: parts[.city] ?? "", region: parts[.region] ?? "",
            postalCode: parts[.postalCode] ?? "", country: parts[.country] ?? "", label: label)
        a.poBox = parts[.poBox] ?? ""
        a.extended = parts[.extended] ?? ""
        // Only the formatted text: it is the street, its lines kept.
        if a.isEmpty, let formatted = parts[.formatted] { a.street = formatted }
        return a
    }

    /// Google's labels as contactsd writes them: "* Mobile" (the star marks the preferred one)
    /// is "mobile"; a label of the person's own ("Grandma's landline") as written.
    static func label(_ raw: String) -> String? {
        var l = raw.trimmingWhitespace()
        if l.hasPrefix("* ") { l = String(l.dropFirst(2)).trimmingWhitespace() }
        guard !l.isEmpty else { return nil }
        return standardLabels.contains(l.lowercased()) ? l.lowercased() : l
    }

    static let standardLabels: Set<String> = [
        "home", "work", "mobile", "main", "other", "pager", "home fax", "work fax", "other fax", "google voice", "iphone",
        "school", "blog", "profile", "homepage", "ftp", "anniversary", "spouse", "child", "mother", "father", "parent", "brother",
        "sister", "friend", "relative", "manager", "assistant", "partner", "domestic partner", "referred by",
    ]

    /// Group names from a cell: Google's " ::: " list without its system group `* myContacts`
    /// (and the star of a starred one), or Outlook's ";" list.
    func groups(_ cell: String) -> [String] {
        let parts =
            cell.contains(Self.separator) || columns.dialect == .google
            ? cell.components(separatedBy: Self.separator) : cell.components(separatedBy: ";")
        return parts.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty && $0 != "* myContacts" && $0 != "* starred" }
            .map { $0.hasPrefix("* ") ? String($0.dropFirst(2)) : $0 }
    }
}
