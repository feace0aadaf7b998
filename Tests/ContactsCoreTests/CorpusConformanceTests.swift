import ContactsCore
import ContactsSupport
import Foundation
import JSONCore
import TestSupport
import VCard
import XCTest

/// Every file of the shared corpus of real vCards, against the values a correct parser must get.
final class CorpusConformanceTests: XCTestCase {

    struct Expected {
        var file: String
        var index: Int
        var json: JSONValue
    }

    func testEveryCorpusFileImportsAndCertainCardsMatch() throws {
        let corpus = try SharedMaterial.folder("corpus/vcard")
        let text = try String(contentsOf: corpus.appendingPathComponent("EXPECTED.jsonl"), encoding: .utf8)
        var byFile: [String: [Expected]] = [:]
        for line in text.split(separator: "\n") {
            let v = try JSONParser.parse(String(line))
            guard let file = v["file"]?.stringValue, let index = v["index"]?.intValue else { continue }
            byFile[file, default: []].append(Expected(file: file, index: index, json: v))
        }
        let manifest = try String(contentsOf: corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        let files = manifest.split(separator: "\n").dropFirst().compactMap { $0.split(separator: "\t").first.map(String.init) }
        var passed = 0, failed = 0, uncertainDiffering = 0, cards = 0
        var failures: [String] = []
        for file in files {
            let data = try [UInt8](Data(contentsOf: corpus.appendingPathComponent(file)))
            let result = VCardParser.parse(data)
            let expected = byFile[file] ?? []
            if result.cards.count != expected.count {
                failures.append("\(file): \(result.cards.count) cards, expected \(expected.count)")
            }
            for e in expected {
                cards += 1
                guard e.index < result.cards.count else { failed += 1; continue }
                let card = result.cards[e.index]
                let problems = compare(card, e.json)
                if problems.isEmpty {
                    passed += 1
                } else if e.json["uncertain"]?.boolValue == true {
                    uncertainDiffering += 1
                    print("uncertain \(file)#\(e.index): \(problems.joined(separator: "; "))")
                } else {
                    failed += 1
                    failures.append("\(file)#\(e.index): \(problems.joined(separator: "; "))")
                }
            }
        }
        print(
            "vCard corpus: \(files.count) files, \(cards) cards: \(passed) right, \(failed) wrong, \(uncertainDiffering) uncertain and different"
        )
        for f in failures { print("  " + f) }
        XCTAssertTrue(failures.isEmpty, "\(failures.count) cards or files differ from EXPECTED.jsonl")
    }

    func compare(_ card: VCard, _ e: JSONValue) -> [String] {
        var problems: [String] = []
        let fn = card.first("FN").map { $0.text }
        let expectedFN = e["fn"]?.stringValue
        if fn != expectedFN && !(fn == "" && expectedFN == nil) {
            problems.append("fn \(fn.map { "'\($0)'" } ?? "nil") != \(expectedFN.map { "'\($0)'" } ?? "nil")")
        }
        let contact = try? VCardMapping.contact(from: card)
        // TEL and EMAIL are expected as written: compare unescaped, or escaped again.
        func same(_ props: [VCardProperty], _ expected: [String]) -> Bool {
            guard props.count == expected.count else { return false }
            return zip(props, expected).allSatisfy { p, x in
                let x = x.trimmingWhitespace()
                return p.text.trimmingWhitespace() == x || escaped(p.value) == x
            }
        }
        let expectedTel = (e["tel"]?.arrayValue ?? []).compactMap(\.stringValue)
        if !same(card.all("TEL"), expectedTel) { problems.append("tel \(card.all("TEL").map(\.text)) != \(expectedTel)") }
        let expectedEmail = (e["email"]?.arrayValue ?? []).compactMap(\.stringValue)
        if !same(card.all("EMAIL"), expectedEmail) { problems.append("email \(card.all("EMAIL").map(\.text)) != \(expectedEmail)") }
        if contact == nil && fn != nil && !(fn ?? "").isEmpty { problems.append("the card did not become a contact") }
        let hasPhoto = VCardMapping.photo(in: card) != nil
        if hasPhoto != (e["has_photo"]?.boolValue ?? false) { problems.append("has_photo \(hasPhoto)") }
        if let org = e["org"]?.arrayValue?.compactMap(\.stringValue) {
            var mine = card.first("ORG")?.value.components ?? []
            while mine.count > 1 && mine.last == "" { mine.removeLast() }
            if mine != org { problems.append("org \(mine) != \(org)") }
        }
        return problems
    }

    func escaped(_ v: VCardValue) -> String {
        switch v {
        case .raw(let r): r
        case .text(let c): c.map { $0.map(TextEscaping.escape).joined(separator: ",") }.joined(separator: ";")
        }
    }
}
