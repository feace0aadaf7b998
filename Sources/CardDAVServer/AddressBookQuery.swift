import DAVXML
import Foundation
import VCard

/// An `addressbook-query` REPORT (RFC 6352 §8.6): which cards of a book match its filter,
/// what to say of each, and at most how many.
struct AddressBookQuery {
    /// One `prop-filter`: a property by name, present or absent, or with a value that matches.
    struct PropertyFilter {
        var name: String
        var anyOf: Bool
        var isNotDefined: Bool
        var matches: [TextMatch]
    }

    struct TextMatch {
        enum Kind: String { case equals, contains, startsWith = "starts-with", endsWith = "ends-with" }
        var text: String
        var kind: Kind
        var negate: Bool
        var caseless: Bool

        func test(_ value: String) -> Bool {
            let (v, t) = caseless ? (Self.fold(value), Self.fold(text)) : (value, text)
            let hit: Bool
            switch kind {
            case .equals: hit = v == t
            case .contains: hit = v.contains(t)
            case .startsWith: hit = v.hasPrefix(t)
            case .endsWith: hit = v.hasSuffix(t)
            }
            return hit != negate
        }

        /// i;unicode-casemap and i;ascii-casemap: compared without case.
        static func fold(_ s: String) -> String { s.lowercased() }
    }

    var anyOf: Bool
    var filters: [PropertyFilter]
    var properties: PropertyRequest
    var wantsData: Bool
    var version: ServedVersion
    var limit: Int?

    static func parse(_ root: XMLElement) -> Result<AddressBookQuery, DAVFailure> {
        let card = DAVNamespace.cardDAV
        let filter = root.child("filter", card)
        var filters: [PropertyFilter] = []
        for p in filter?.all("prop-filter", card) ?? [] {
            guard let name = p.attributes["name"], !name.isEmpty else {
                return .failure(DAVFailure(status: 400, message: "a prop-filter needs a name"))
            }
            var matches: [TextMatch] = []
            for m in p.all("text-match", card) {
                let collation = m.attributes["collation"] ?? "i;unicode-casemap"
                guard ["i;unicode-casemap", "i;ascii-casemap", "i;octet"].contains(collation) else {
                    return .failure(DAVFailure(status: 403, message: "the collation \(collation) is not supported"))
                }
                guard let kind = TextMatch.Kind(rawValue: m.attributes["match-type"] ?? "contains") else {
                    return .failure(
                        DAVFailure(status: 400, message: "match-type \(m.attributes["match-type"] ?? "") is not one RFC 6352 names"))
                }
                matches.append(
                    TextMatch(
                        text: m.value, kind: kind, negate: m.attributes["negate-condition"] == "yes", caseless: collation != "i;octet"))
            }
            filters.append(
                PropertyFilter(
                    name: name.uppercased(), anyOf: (p.attributes["test"] ?? "anyof") != "allof",
                    isNotDefined: p.child("is-not-defined", card) != nil, matches: matches))
        }
        var properties = PropertyRequest.of(root)
        var wantsData = false
        var version = ServedVersion.v3
        if case .some(let list) = properties {
            wantsData = list.contains { $0.name == "address-data" && $0.namespace == card }
            properties = .some(list.filter { !($0.name == "address-data" && $0.namespace == card) })
            if root.child("prop")?.child("address-data", card)?.attributes["version"] == "4.0" { version = .v4 }
        }
        let limit = root.child("limit", card)?.child("nresults", card).flatMap { Int($0.value) }
        return .success(
            AddressBookQuery(
                anyOf: (filter?.attributes["test"] ?? "anyof") != "allof", filters: filters, properties: properties, wantsData: wantsData,
                version: version, limit: limit))
    }

    /// Whether a card passes the filter (no filter: every card does).
    func matches(_ card: VCard) -> Bool {
        guard !filters.isEmpty else { return true }
        let results = filters.map { f -> Bool in
            let props = card.all(f.name)
            if f.isNotDefined { return props.isEmpty }
            guard !props.isEmpty else { return false }
            guard !f.matches.isEmpty else { return true }
            let each = f.matches.map { m in props.contains { m.test($0.text) } }
            return f.anyOf ? each.contains(true) : !each.contains(false)
        }
        return anyOf ? results.contains(true) : !results.contains(false)
    }

    /// A text that every matching card has in its FN, N or EMAIL (for a book to narrow its
    /// candidates by), when the filter says so: one prop-filter, or all of them ANDed, with
    /// a plain `contains`-like match.
    var narrowingText: String? {
        let usable = filters.filter { f in
            ["FN", "EMAIL", "N"].contains(f.name) && !f.isNotDefined && f.matches.count == 1 && !f.matches[0].negate
                && f.matches[0].caseless && !f.matches[0].text.isEmpty
        }
        guard let first = usable.first else { return nil }
        return filters.count == 1 || !anyOf ? first.matches[0].text : nil
    }
}
