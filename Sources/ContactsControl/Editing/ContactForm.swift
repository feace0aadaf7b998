import ContactsAPI
import ContactsSupport
import JSONCore

/// A contact as text a person edits in their editor: one field a line, lists as lines under
/// their field, a value of several lines after `|`, comments saying what each field is. Read
/// back into the fields of `contacts.create` and `contacts.update`.
enum ContactForm {
    /// A line of the form that cannot be read, and why.
    struct Problem: Error, Equatable, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    static let help = """
        # Edit the contact, then save and close the editor to apply it; leave it as it is to
        # change nothing, or empty the file to give up.
        # One field a line, "field: value"; an empty value clears the field. A list has one
        # "- " line per value, a label before a colon where it has one: "- mobile: 0171 5550199".
        # A value of several lines (a note, a street) follows "|" on lines indented further.
        """

    /// The fields of the form, in its order.
    static let fields = FieldDeclaration.all
    /// The labelled lists (phones, emails, ...), each a line per value.
    static var lists: [FieldDeclaration] { fields.filter { if case .list = $0.kind { true } else { false } } }
    /// How the name is read (`phoneticName`), part by part.
    static let readingParts: [(key: String, label: String)] = [
        ("given", "given name reading"), ("middle", "middle name reading"), ("family", "family name reading"),
    ]
    static let nameParts: [(key: String, label: String)] = [
        ("given", "given name"), ("additional", "middle name"), ("family", "family name"), ("prefix", "prefix"), ("suffix", "suffix"),
    ]
    /// What each line's label names: a field, or a part of the name or of its reading.
    static let lineLabels = Dictionary(uniqueKeysWithValues: lines.map { ($0.label, (field: $0.field, part: $0.part)) })
    /// The lines of the form, in its order.
    static let lines: [(label: String, field: FieldDeclaration, part: String?)] = fields.flatMap {
        f -> [(label: String, field: FieldDeclaration, part: String?)] in
        switch f.kind {
        case .nameParts: nameParts.map { ($0.label, f, $0.key) }
        case .reading: readingParts.map { ($0.label, f, $0.key) }
        default: [(f.label, f, nil)]
        }
    }
    static let addressParts: [(key: String, label: String)] = [
        ("street", "street"), ("extended", "extended"), ("poBox", "po box"), ("locality", "city"), ("region", "region"),
        ("postalCode", "postal code"), ("country", "country"),
    ]

    // MARK: Writing

    /// The form for `contact` (a Contact as the API shows it), or an empty one.
    static func text(for contact: JSONValue?) -> String {
        let c = contact ?? .object([:])
        var out = [help, ""]
        for f in fields {
            if let note = f.formNote { out.append("# " + note) }
            write(f, c[f.key] ?? .null, into: &out)
        }
        if contact != nil {
            // Shown, not edited here: a contact changes account by contactsctl move.
            let account = c["account"]?.stringValue.map { "the account '\($0)'" } ?? "this machine only"
            out.append("# Kept in \(account); 'contactsctl move ID --to ACCOUNT' (or 'local') moves it.")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The lines of one field.
    static func write(_ f: FieldDeclaration, _ v: JSONValue, into out: inout [String]) {
        switch f.kind {
        case .name, .text, .date: out.append(line(f.label, v.stringValue))
        case .longText: out.append(block("\(f.label):", v.stringValue ?? "", indent: 2))
        case .nameParts: for p in nameParts { out.append(line(p.label, v[p.key]?.stringValue)) }
        case .reading: for p in readingParts { out.append(line(p.label, v[p.key]?.stringValue)) }
        case .flag: out.append("\(f.label): \(v.boolValue == true ? "yes" : "no")")
        case .groups: out.append(line(f.label, (v.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")))
        case .list:
            out.append("\(f.label):")
            for e in v.arrayValue ?? [] {
                let value = e["value"]?.stringValue ?? ""
                if let label = e["label"]?.stringValue, !label.isEmpty {
                    out.append(block("  - \(label):", value, indent: 6))
                } else {
                    out.append(value.contains(": ") || value.contains("\n") ? block("  - :", value, indent: 6) : "  - \(value)")
                }
            }
        case .addresses:
            out.append("\(f.label):")
            for a in v.arrayValue ?? [] {
                let label = a["label"]?.stringValue ?? ""
                out.append(label.isEmpty ? "  -" : "  - \(label):")
                for p in addressParts {
                    if let v = a[p.key]?.stringValue, !v.isEmpty { out.append(block("      \(p.label):", v, indent: 8)) }
                }
            }
        }
    }

    static func line(_ label: String, _ value: String?) -> String {
        guard let value, !value.isEmpty else { return "\(label):" }
        return block("\(label):", value, indent: 2)
    }

    /// `head value`, or, for a value of several lines (or one with edge spaces), `head |` and
    /// the lines indented.
    static func block(_ head: String, _ value: String, indent: Int) -> String {
        if value.isEmpty { return head }
        guard value.contains("\n") || value != value.trimmingWhitespace() else { return "\(head) \(value)" }
        let pad = String(repeating: " ", count: indent)
        return ([head + " |"] + value.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : pad + $0 })
            .joined(separator: "\n")
    }

    // MARK: Reading

    /// The contact's fields from an edited form: every field the form has, cleared ones as
    /// null or empty lists. Nil when the form holds nothing but comments and blank lines.
    static func fields(_ text: String) throws(Problem) -> JSONObject? {
        var reader = Reader(text)
        guard reader.hasContent else { return nil }
        var o: JSONObject = [:]
        var name = StructuredParts()
        var reading = StructuredParts(parts: readingParts)
        var seen: Set<String> = []
        while let l = reader.next() {
            guard l.indent == 0 else { throw Problem(line: l.number, message: "'\(l.text)' is indented, but belongs to no field") }
            guard let colon = l.text.firstIndex(of: ":") else {
                throw Problem(line: l.number, message: "'\(l.text)' is not 'field: value'")
            }
            let key = l.text[..<colon].trimmingWhitespace().lowercased()
            let rest = l.text[l.text.index(after: colon)...].trimmingWhitespace()
            guard seen.insert(key).inserted else { throw Problem(line: l.number, message: "'\(key)' is given twice") }
            let value = rest == "|" ? reader.block(below: 0) : rest
            guard let line = lineLabels[key] else {
                throw Problem(
                    line: l.number, message: "there is no field '\(key)' (the fields: \(lines.map(\.label).joined(separator: ", ")))")
            }
            switch (line.field.kind, line.part) {
            case (.nameParts, let part?): name.values[part] = value
            case (.reading, let part?): reading.values[part] = value
            case (.name, _): o[line.field.key] = .string(value)
            case (.text, _), (.date, _), (.longText, _): o[line.field.key] = value.isEmpty ? .null : .string(value)
            case (.flag, _):
                switch value.lowercased() {
                case "yes", "true", "y": o[line.field.key] = true
                case "no", "false", "n", "": o[line.field.key] = false
                default: throw Problem(line: l.number, message: "\(key) is yes or no, not '\(value)'")
                }
            case (.groups, _):
                o[line.field.key] = .array(
                    value.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }.map { .string($0) })
            case (.list, _), (.addresses, _):
                try expectEmpty(rest, l)
                var list: [JSONValue] = []
                while let item = reader.nextItem() {
                    list.append(line.field.kind == .addresses ? try address(item, reader: &reader) : try labeled(item, reader: &reader))
                }
                o[line.field.key] = .array(list)
            case (.nameParts, nil), (.reading, nil): break
            }
        }
        guard case .string(let n)? = o["name"], !n.isEmpty else {
            throw Problem(line: reader.lineOf("name") ?? 1, message: "a contact needs a name")
        }
        o["structuredName"] = name.json
        o["phoneticName"] = reading.json
        return o
    }

    static func expectEmpty(_ rest: String, _ l: Reader.Line) throws(Problem) {
        guard rest.isEmpty else { throw Problem(line: l.number, message: "a list's values go on the lines below it, each after \"- \"") }
    }

    /// A name's parts (or its reading's) as the form gave them.
    struct StructuredParts {
        var parts = ContactForm.nameParts
        var values: [String: String] = [:]
        var json: JSONValue {
            guard values.values.contains(where: { !$0.isEmpty }) else { return .null }
            return .object(JSONObject(parts.map { JSONObject.Member($0.key, .string(values[$0.key] ?? "")) }))
        }
    }

    /// `mobile: 0171 5550199`, `: a value with: a colon`, or `0171 5550199`.
    static func labeled(_ item: Reader.Item, reader: inout Reader) throws(Problem) -> JSONValue {
        var (label, value) = item.labelAndValue
        if value == "|" { value = reader.block(below: item.indent) }
        guard !value.isEmpty else { throw Problem(line: item.line, message: "'\(item.text)' has no value after its label") }
        return label.isEmpty ? ["value": .string(value)] : ["value": .string(value), "label": .string(label)]
    }

    static func address(_ item: Reader.Item, reader: inout Reader) throws(Problem) -> JSONValue {
        var label = item.text.trimmingWhitespace()
        if label.hasSuffix(":") { label.removeLast() }
        var o: JSONObject = [:]
        while let part = reader.nextPart(below: item.indent) {
            guard let colon = part.text.firstIndex(of: ":") else {
                throw Problem(line: part.number, message: "'\(part.text)' is not 'part: value' (street, city, region, postal code, ...)")
            }
            let key = part.text[..<colon].trimmingWhitespace().lowercased()
            guard let p = addressParts.first(where: { $0.label == key }) else {
                throw Problem(
                    line: part.number, message: "an address has no part '\(key)' (\(addressParts.map(\.label).joined(separator: ", ")))")
            }
            let rest = part.text[part.text.index(after: colon)...].trimmingWhitespace()
            o[p.key] = .string(rest == "|" ? reader.block(below: part.indent) : rest)
        }
        guard o.contains(where: { !($0.value.stringValue ?? "").isEmpty }) else {
            throw Problem(line: item.line, message: "the address has no part: give its street, city, ... on the lines below it")
        }
        if !label.isEmpty { o["label"] = .string(label) }
        return .object(o)
    }
}
