import JSONCore

/// How the field options read their values: `LABEL:VALUE` or `VALUE`, where a label holds
/// letters, digits, `-` and `_` and starts with a letter (`work-cell:+1 555 0100`,
/// `first-met:2011-01-01`); a URI's scheme is no label; an address is split into its parts.
enum FieldValues {
    /// Whether `text` can be a label.
    static func isLabel(_ text: Substring) -> Bool {
        guard let first = text.first, first.isLetter else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }

    /// `LABEL:VALUE` split, or nil when `raw` has no label before a colon.
    static func splitLabel(_ raw: String) -> (label: String, value: String)? {
        guard let colon = raw.firstIndex(of: ":"), isLabel(raw[..<colon]) else { return nil }
        let value = raw[raw.index(after: colon)...].trimmingCharacters(in: " ")
        guard !value.isEmpty, !value.hasPrefix("//") else { return nil }
        return (String(raw[..<colon]), value)
    }

    /// A phone number, an email address, a date or a related person, with its label if it has one.
    static func labeled(_ raw: String) -> JSONValue {
        guard let (label, value) = splitLabel(raw) else { return ["value": .string(raw)] }
        return ["value": .string(value), "label": .string(label)]
    }

    /// A phone number with its label: it needs a digit.
    static func phone(_ raw: String, option: String = "--phone") throws -> JSONValue {
        let entry = labeled(raw)
        let number = entry["value"]?.stringValue ?? raw
        guard number.contains(where: \.isNumber) else {
            throw UsageError(message: "\(option) '\(raw)': '\(number)' is not a phone number (it has no digit)", command: "contactsctl")
        }
        return entry
    }

    /// The schemes that start a messaging address or profile: never a label.
    static let knownSchemes: Set<String> = [
        "aim", "facetime", "gg", "gtalk", "http", "https", "icq", "im", "irc", "ircs", "jabber", "matrix", "mailto", "msnim", "mxc",
        "qq", "signal", "sip", "sips", "skype", "sms", "tel", "tg", "telegram", "threema", "xmpp", "ymsgr", "whatsapp", "wechat",
    ]

    /// Whether `text` begins with a URI's scheme and its colon.
    static func hasScheme(_ text: Substring) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// `LABEL:URI` or `URI`: any scheme makes a URI (`matrix:@zoe:example.org`,
    /// `sip:zoe@example.org:5060`), and `work:xmpp:ana@example.org` has a label.
    static func uri(_ raw: String) -> JSONValue {
        if let colon = raw.firstIndex(of: ":") {
            let head = raw[..<colon], rest = raw[raw.index(after: colon)...]
            if isLabel(head), !knownSchemes.contains(head.lowercased()), hasScheme(rest), !rest.hasPrefix("//") {
                return ["value": .string(String(rest)), "label": .string(String(head))]
            }
        }
        return ["value": .string(raw)]
    }

    /// The parts of an address in the order `--address` takes them, separated by `;`.
    static let addressParts = ["street", "locality", "region", "postalCode", "country"]

    /// `[LABEL:]STREET; CITY; REGION; POSTCODE; COUNTRY` (parts may be empty or left off); an
    /// address without a `;` is one line, kept as its street.
    static func address(_ raw: String) -> JSONValue {
        var label: String?
        var text = raw
        if let (l, value) = splitLabel(raw) { (label, text) = (l, value) }
        var o: JSONObject = [:]
        let parts = text.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: " ") }
        for (key, part) in zip(addressParts, parts) where !part.isEmpty { o[key] = .string(part) }
        if parts.count > addressParts.count {
            // More parts than there are: the rest belongs to the country, as written.
            o["country"] = .string(parts[(addressParts.count - 1)...].filter { !$0.isEmpty }.joined(separator: "; "))
        }
        if let label { o["label"] = .string(label) }
        return .object(o)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set || $0 == "\t" }.reversed().drop { $0 == set || $0 == "\t" }.reversed())
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String { self[...].trimmingCharacters(in: set) }
}
