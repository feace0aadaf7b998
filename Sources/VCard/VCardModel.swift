/// A vCard parameter: `TYPE=work,voice`, or a bare 2.1 value such as `HOME` (no name).
public struct VCardParameter: Sendable, Equatable {
    /// Upper-cased name, or nil for a 2.1 bare parameter.
    public var name: String?
    /// The name as it arrived, when that was not all upper case (`type`, `X-ServiceType`):
    /// what a card is written back with, so that nothing it came with changes its spelling.
    public var spelling: String?
    public var values: [String]

    public init(_ name: String?, _ values: [String]) {
        let upper = name?.uppercased()
        self.name = upper
        self.spelling = upper == name ? nil : name
        self.values = values
    }

    /// A parameter whose name is already upper-cased, with its spelling when that differs.
    init(uppercasedName name: String?, spelling: String? = nil, _ values: [String]) {
        self.name = name
        self.spelling = spelling
        self.values = values
    }

    /// The name to write: as it arrived, or the canonical upper case.
    public var writtenName: String? { spelling ?? name }
}

/// A property's value: text split into components (`;`) and list items (`,`), unescaped; or
/// a raw value (binary data, a URI) kept exactly as it came.
public enum VCardValue: Sendable, Equatable {
    case text([[String]])
    case raw(String)

    /// Everything as one string: components joined by `;`, items by `,`.
    public var joined: String {
        switch self {
        case .text(let c):
            // Most values are one component of one item.
            if c.count == 1, c[0].count == 1 { return c[0][0] }
            return c.map { $0.joined(separator: ",") }.joined(separator: ";")
        case .raw(let r): return r
        }
    }

    /// Component `i` with its items joined by `,` ("" when absent).
    public func component(_ i: Int) -> String {
        switch self {
        case .text(let c): i < c.count ? (c[i].count == 1 ? c[i][0] : c[i].joined(separator: ",")) : ""
        case .raw(let r): i == 0 ? r : ""
        }
    }

    public var components: [String] {
        switch self {
        case .text(let c): c.map { $0.joined(separator: ",") }
        case .raw(let r): [r]
        }
    }

}

/// One content line: `group.NAME;PARAMS:value`, in the order the card had it.
public struct VCardProperty: Sendable, Equatable {
    /// Whether `other` is this property wherever it was read from (its line aside).
    public func sameValue(as other: VCardProperty) -> Bool {
        name == other.name && value == other.value && group == other.group && spelling == other.spelling
            && parameters == other.parameters
    }

    public var group: String?
    /// Upper-cased: what every comparison uses.
    public var name: String
    /// The name as it arrived, when that was not all upper case (Apple's `X-ABLabel`): what
    /// the property is written back with. Nil for upper-case and generated names.
    public var spelling: String?
    public var parameters: [VCardParameter]
    public var value: VCardValue
    /// The line of the source where the property began (0 for generated ones).
    public var line: Int

    public init(group: String? = nil, name: String, parameters: [VCardParameter] = [], value: VCardValue, line: Int = 0) {
        let upper = VCard.upper(name)
        self.group = group
        self.name = upper
        self.spelling = upper == name ? nil : name
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// A property whose name is already upper-cased, with its spelling when that differs.
    init(uppercasedName name: String, spelling: String?, group: String?, parameters: [VCardParameter], value: VCardValue, line: Int) {
        self.group = group
        self.name = name
        self.spelling = spelling
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    public init(group: String? = nil, name: String, parameters: [VCardParameter] = [], text: String) {
        self.init(group: group, name: name, parameters: parameters, value: .text([[text]]))
    }

    /// All values of the parameter `name`, and for TYPE also the bare 2.1 parameters,
    /// split on commas and upper-cased.
    public func parameterValues(_ name: String) -> [String] {
        let n = name.uppercased()
        var out: [String] = []
        for p in parameters where p.name == n || (n == "TYPE" && p.name == nil) {
            for v in p.values {
                if !v.isEmpty,
                    !v.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == 0x20 || ($0 >= 0x61 && $0 <= 0x7A) || $0 >= 0x80 })
                {
                    out.append(v)  // already one upper-case item, as most are
                    continue
                }
                if v.utf8.allSatisfy({ $0 < 0x80 }) {
                    Self.appendASCIIItems(v, to: &out)
                } else {
                    out.append(contentsOf: v.split(separator: ",").map { String($0).trimming(" ").uppercased() })
                }
            }
        }
        return out
    }

    /// The comma-separated items of ASCII text, blanks around them trimmed, upper-cased
    /// (empty items between two commas skipped, as `split` does).
    private static func appendASCIIItems(_ value: String, to out: inout [String]) {
        var v = value
        v.withUTF8 { u in
            var start = 0
            for k in 0...u.count where k == u.count || u[k] == UInt8(ascii: ",") {
                defer { start = k + 1 }
                guard k > start else { continue }
                var a = start, b = k
                while a < b, u[a] == 0x20 { a += 1 }
                while b > a, u[b - 1] == 0x20 { b -= 1 }
                out.append(
                    String(unsafeUninitializedCapacity: b - a) { buffer in
                        for j in a..<b { buffer[j - a] = u[j] >= 0x61 && u[j] <= 0x7A ? u[j] - 32 : u[j] }
                        return b - a
                    })
            }
        }
    }

    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name.uppercased() }?.values.first
    }

    /// The value as one piece of text.
    public var text: String { value.joined }

    /// The name to write: as it arrived, or the canonical upper case.
    public var writtenName: String { spelling ?? name }
}

/// One card: its properties in order, where it began, and its version as declared.
public struct VCard: Sendable, Equatable {
    public var properties: [VCardProperty]
    /// The line of `BEGIN:VCARD`.
    public var line: Int
    /// `2.1`, `3.0`, `4.0`, or nil when the card had no VERSION (treated as 3.0).
    public var version: String?

    public init(properties: [VCardProperty], line: Int = 0, version: String? = nil) {
        self.properties = properties
        self.line = line
        self.version = version
    }

    public func first(_ name: String) -> VCardProperty? {
        let n = Self.upper(name)
        guard let i = properties.firstIndex(where: { $0.name == n }) else { return nil }
        return properties[i]
    }

    /// Whether the card has a property `name`.
    public func has(_ name: String) -> Bool {
        let n = Self.upper(name)
        return properties.contains { $0.name == n }
    }

    public func all(_ name: String) -> [VCardProperty] {
        let n = Self.upper(name)
        return properties.filter { $0.name == n }
    }

    /// Names are asked for in upper case almost always: then nothing is made.
    static func upper(_ name: String) -> String {
        name.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A || $0 >= 0x80 }) ? name.uppercased() : name
    }
}

/// Something wrong in a vCard file: which card (from 0), which line, and why.
public struct VCardIssue: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for programs; `message` says it for people.
    public enum Kind: Sendable, Equatable {
        /// A line that is not a property, or a property outside any card, was skipped.
        case skippedLine
        /// A card had no END:VCARD and ended where the next began (nothing of it was lost).
        case cardEndedByNextCard
        /// The file ended inside a card.
        case lastCardUnterminated
        /// END:VCARD with no card open.
        case strayEnd
    }

    public var card: Int?
    public var line: Int
    public var message: String
    public var kind: Kind

    public init(card: Int?, line: Int, message: String, kind: Kind = .skippedLine) {
        self.card = card
        self.line = line
        self.message = message
        self.kind = kind
    }

    public var description: String {
        (card.map { "card \($0 + 1), " } ?? "") + "line \(line): \(message)"
    }
}

extension String {
    func trimming(_ set: String) -> String {
        if let f = utf8.first, let l = utf8.last, f < 0x80, l < 0x80, !set.utf8.contains(f), !set.utf8.contains(l) { return self }
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
