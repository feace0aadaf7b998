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

    static let singleFields: [(key: String, label: String)] = [
        ("nickname", "nickname"), ("organization", "organization"), ("department", "department"), ("title", "title"),
        ("birthday", "birthday"), ("pronouns", "pronouns"), ("gender", "gender"),
    ]
    /// How the name is read (`phoneticName`), part by part.
    static let readingParts: [(key: String, label: String)] = [
        ("given", "given name reading"), ("middle", "middle name reading"), ("family", "family name reading"),
    ]
    static let nameParts: [(key: String, label: String)] = [
        ("given", "given name"), ("additional", "middle name"), ("family", "family name"), ("prefix", "prefix"), ("suffix", "suffix"),
    ]
    static let addressParts: [(key: String, label: String)] = [
        ("street", "street"), ("extended", "extended"), ("poBox", "po box"), ("locality", "city"), ("region", "region"),
        ("postalCode", "postal code"), ("country", "country"),
    ]
    static let lists: [(key: String, label: String)] = [
        ("phones", "phones"), ("emails", "emails"), ("urls", "urls"), ("impp", "im"), ("dates", "dates"), ("related", "related"),
    ]
    /// What the comment above a list says, where it says more than the labels.
    static let listHelp: [String: String] = [
        "impp": "# Messaging and social profiles as URIs: xmpp:, sip:, matrix:, skype:, https:.",
        "dates": "# Anniversaries and other dates (YYYY-MM-DD or --MM-DD), each under its label.",
        "related": "# Related people (spouse, child, assistant, manager, ...), by name.",
    ]

    // MARK: Writing

    /// The form for `contact` (a Contact as the API shows it), or an empty one.
    static func text(for contact: JSONValue?) -> String {
        let c = contact ?? .object([:])
        var out = [help, ""]
        out.append(line("name", c["name"]?.stringValue))
        out.append("# The name's parts, for sorting and for other programs (any may stay empty).")
        for p in nameParts { out.append(line(p.label, c["structuredName"]?[p.key]?.stringValue)) }
        out.append("# How the name is read (kana, pinyin): the list sorts by it.")
        for p in readingParts { out.append(line(p.label, c["phoneticName"]?[p.key]?.stringValue)) }
        for f in singleFields {
            if f.key == "birthday" { out.append("# YYYY-MM-DD, or --MM-DD without a year.") }
            out.append(line(f.label, c[f.key]?.stringValue))
        }
        out.append("# yes or no.")
        out.append("favorite: \(c["favorite"]?.boolValue == true ? "yes" : "no")")
        out.append("# Labels such as mobile, home, work, home fax, or words of your own.")
        for l in lists {
            if let help = listHelp[l.key] { out.append(help) }
            out.append("\(l.label):")
            for v in c[l.key]?.arrayValue ?? [] {
                let value = v["value"]?.stringValue ?? ""
                if let label = v["label"]?.stringValue, !label.isEmpty {
                    out.append(block("  - \(label):", value, indent: 6))
                } else {
                    out.append(value.contains(": ") || value.contains("\n") ? block("  - :", value, indent: 6) : "  - \(value)")
                }
            }
        }
        out.append("# Each address under its label (or \"-\" alone), one part a line.")
        out.append("addresses:")
        for a in c["addresses"]?.arrayValue ?? [] {
            let label = a["label"]?.stringValue ?? ""
            out.append(label.isEmpty ? "  -" : "  - \(label):")
            for p in addressParts {
                if let v = a[p.key]?.stringValue, !v.isEmpty { out.append(block("      \(p.label):", v, indent: 8)) }
            }
        }
        out.append("# Group names, separated by commas.")
        out.append(line("groups", (c["groups"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")))
        out.append(block("note:", c["note"]?.stringValue ?? "", indent: 2))
        if contact != nil {
            // Shown, not edited here: a contact changes account by contactsctl move.
            let account = c["account"]?.stringValue.map { "the account '\($0)'" } ?? "this machine only"
            out.append("# Kept in \(account); 'contactsctl move ID --to ACCOUNT' (or 'local') moves it.")
        }
        return out.joined(separator: "\n") + "\n"
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
            switch key {
            case "name": o["name"] = .string(value)
            case _ where nameParts.contains { $0.label == key }:
                name.values[nameParts.first { $0.label == key }?.key ?? ""] = value
            case _ where readingParts.contains { $0.label == key }:
                reading.values[readingParts.first { $0.label == key }?.key ?? ""] = value
            case _ where singleFields.contains { $0.label == key }:
                o[singleFields.first { $0.label == key }?.key ?? key] = value.isEmpty ? .null : .string(value)
            case "favorite":
                switch value.lowercased() {
                case "yes", "true", "y": o["favorite"] = true
                case "no", "false", "n", "": o["favorite"] = false
                default: throw Problem(line: l.number, message: "favorite is yes or no, not '\(value)'")
                }
            case "note": o["note"] = value.isEmpty ? .null : .string(value)
            case "groups":
                o["groups"] = .array(
                    value.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }.map { .string($0) })
            case _ where lists.contains { $0.label == key }:
                try expectEmpty(rest, l)
                var list: [JSONValue] = []
                while let item = reader.nextItem() { list.append(try labeled(item, reader: &reader)) }
                o[lists.first { $0.label == key }?.key ?? key] = .array(list)
            case "addresses":
                try expectEmpty(rest, l)
                var list: [JSONValue] = []
                while let item = reader.nextItem() { list.append(try address(item, reader: &reader)) }
                o["addresses"] = .array(list)
            default:
                throw Problem(
                    line: l.number,
                    message: "there is no field '\(key)' (the fields: name, \(nameParts.map(\.label).joined(separator: ", ")), "
                        + "\(readingParts.map(\.label).joined(separator: ", ")), \(singleFields.map(\.label).joined(separator: ", ")), "
                        + "favorite, \(lists.map(\.label).joined(separator: ", ")), addresses, groups, note)")
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
