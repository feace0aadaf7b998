import ContactsAPI
import ContactsSupport
import Foundation
import JSONCore
import JSONRPC

/// Turns what a person typed where an id is expected into one contact: an id, else a name or
/// name fragment that matches exactly one contact (an exact name wins over fragments).
enum ContactResolver {
    /// `collected`: whether contacts collected from mail are among those a name may name.
    static func resolve(_ reference: String, in inv: Invocation, collected: ContactFilter.Collected = .exclude) throws -> JSONValue {
        if looksLikeID(reference) {
            do {
                return try inv.call(ContactsGet(id: reference.uppercased()))
            } catch let e as RPCError where e.code == .notFound {
                // Not an id after all; try it as a name.
            }
        }
        let result = try inv.call(ContactsQuery(filter: ContactFilter(text: reference, collected: collected), limit: 50))
        let matches = result["contacts"]?.arrayValue ?? []
        let total = result["total"]?.intValue ?? matches.count
        if total == 1, let only = matches.first { return only }
        if total == 0 { throw CommandFailure("no contact matches '\(reference)'") }
        // The daemon matched by its own folding; an exact name is told apart from fragments by
        // case and accents alone, which Foundation folds without the search's transliterator.
        let wanted = folded(reference)
        let exact = matches.filter { folded($0["name"]?.stringValue ?? "") == wanted }
        if exact.count == 1 { return exact[0] }
        let names = matches.prefix(5).compactMap { $0["name"]?.stringValue }.joined(separator: ", ")
        throw CommandFailure(
            "'\(reference)' matches \(total) contacts (\(names)\(total > 5 ? ", ..." : "")); be more specific or use the id")
    }

    /// Several references, each to one contact: their ids (as JSON, for a call) and names.
    static func resolveAll(_ references: [String], in inv: Invocation) throws -> (ids: [JSONValue], names: [String]) {
        var ids: [JSONValue] = []
        var names: [String] = []
        for reference in references {
            let c = try resolve(reference, in: inv)
            ids.append(c["id"] ?? .null)
            names.append(c["name"]?.stringValue ?? "")
        }
        return (ids, names)
    }

    static func folded(_ s: String) -> String {
        s.trimmingWhitespace().folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    static func looksLikeID(_ s: String) -> Bool {
        s.count == 36 && s.allSatisfy { $0.isHexDigit || $0 == "-" }
    }
}
