import Foundation
import JSONCore
import JSONRPC
import XCTest

/// docs/API.md says what the daemon does: its table of methods names every method
/// `rpc.discover` lists and no other, each with the parameters the method takes.
final class APIDocumentTests: DaemonTestCase {
    /// The table's rows: each method the row names, with the parameter names its `{...}` gives.
    static func documentedMethods() throws -> [String: Set<String>] {
        let text = try String(contentsOf: Products.repository.appendingPathComponent("docs/API.md"), encoding: .utf8)
        guard let start = text.range(of: "\n## Methods\n") else { return [:] }
        var out: [String: Set<String>] = [:]
        for line in text[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("| `") else { continue }
            // A cell's own `\|` (an "or" inside it) is no column's end.
            let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.replacingOccurrences(of: "\u{1}", with: "|").trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let names = cells[1].split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"]) }
            let params = parameterNames(cells[2])
            for name in names { out[name] = params }
        }
        return out
    }

    /// The keys at the top level of every `{...}` in a cell (`{ids}` or `{all: true}` gives
    /// both; `{id, data \| path}` gives all three): a word that begins an entry (after `{`, `,`
    /// or `|`), not one in a value (after `:`) or in parentheses.
    static func parameterNames(_ cell: String) -> Set<String> {
        var names: Set<String> = []
        var depth = 0, parens = 0, word = "", expectingKey = false, inValue = false
        func finish() {
            if depth == 1 && parens == 0 && expectingKey && !inValue && !word.isEmpty { names.insert(word) }
            if !word.isEmpty { expectingKey = false }
            word = ""
        }
        for c in cell {
            if c.isLetter || c.isNumber {
                word.append(c)
                continue
            }
            finish()
            switch c {
            case "{":
                depth += 1
                if depth == 1 { (expectingKey, inValue) = (true, false) }
            case "}": depth -= 1
            case "(": parens += 1
            case ")": parens -= 1
            case "," where depth == 1 && parens == 0: (expectingKey, inValue) = (true, false)
            case "|" where depth == 1 && parens == 0 && !inValue: expectingKey = true
            case ":" where depth == 1 && parens == 0: inValue = true
            default: break
            }
        }
        return names
    }

    func testTheMethodTableIsWhatTheDaemonDiscovers() throws {
        let documented = try Self.documentedMethods()
        XCTAssertGreaterThan(documented.count, 40)
        let discover = try daemon.client().call("rpc.discover")
        var discovered: [String: Set<String>] = [:]
        for m in discover["methods"]?.arrayValue ?? [] {
            guard let name = m["name"]?.stringValue else { continue }
            discovered[name] = Set((m["params"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        }
        XCTAssertEqual(Set(documented.keys).subtracting(discovered.keys), [], "documented, but no such method")
        XCTAssertEqual(Set(discovered.keys).subtracting(documented.keys), [], "methods docs/API.md does not list")
        for (name, params) in discovered.sorted(by: { $0.key < $1.key }) {
            guard let doc = documented[name] else { continue }
            XCTAssertEqual(doc.subtracting(params), [], "\(name): documented parameters it does not take")
            XCTAssertEqual(params.subtracting(doc), [], "\(name): parameters docs/API.md does not give")
        }
    }
}
