import Foundation
import JSONCore
import TestSupport
import XCTest

/// Whatever the store holds, its own JSON export imports back: values it took from vCards
/// that a client could not give (`email1`, `"Omega" <omega@example.com>`, `aim:AIM JOHN`)
/// included.
final class JSONRoundTripTests: DaemonTestCase {
    static let oddCards = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:odd-1\r
        FN:Odd Email\r
        EMAIL:email1\r
        EMAIL:"Omega" <omega@example.com>\r
        IMPP:aim:AIM JOHN\r
        TEL:hello\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:odd-2\r
        FN:Odd Dates\r
        BDAY:--0415\r
        ANNIVERSARY:circa 1990\r
        X-SOCIALPROFILE;TYPE=twitter:x.com/odd\r
        END:VCARD\r

        """

    func report(_ r: ProcessResult) -> String { r.stdout + r.stderr }

    func testTheStoresOwnJSONExportImportsBackUnchanged() throws {
        let cards = daemon.dataDir + "/odd.vcf"
        try Self.oddCards.write(toFile: cards, atomically: true, encoding: .utf8)
        let first = try daemon.ctl("import", cards)
        XCTAssertEqual(first.status, 0, report(first))
        XCTAssertTrue(first.stdout.contains("2 created"), report(first))
        let exported = daemon.dataDir + "/all.json"
        XCTAssertEqual(try daemon.ctl("export", "--format", "json", "-o", exported).status, 0)
        let back = try daemon.ctl("import", exported)
        XCTAssertEqual(back.status, 0, report(back))
        XCTAssertTrue(back.stdout.contains("0 created, 0 updated, 2 unchanged, 0 failed"), report(back))
        // Into an empty store: every one of them comes.
        _ = try daemon.ctl("rm", "odd email", "odd dates")
        XCTAssertEqual(try daemon.ctl("trash", "empty", "--yes").status, 0)
        let fresh = try daemon.ctl("import", exported)
        XCTAssertTrue(fresh.stdout.contains("2 created"), report(fresh))
        let odd = try JSONParser.parse(try daemon.ctl("show", "odd email", "--json").stdout)
        XCTAssertEqual(odd["emails"]?.arrayValue?.compactMap { $0["value"]?.stringValue }, ["email1", "\"Omega\" <omega@example.com>"])
        XCTAssertEqual(odd["impp"]?.arrayValue?.first?["value"], "aim:AIM JOHN")
    }

    func testTheCorpusExportedAsJSONImportsBackWithoutAFailure() throws {
        let folder = try SharedMaterial.folder("corpus/vcard")
        var files: [String] = []
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let name = walker?.nextObject() as? String {
            if name.lowercased().hasSuffix(".vcf") { files.append(folder.appendingPathComponent(name).path) }
        }
        XCTAssertGreaterThan(files.count, 100)
        _ = try daemon.ctl(["import"] + files.sorted())
        let total = try JSONParser.parse(try daemon.ctl("list", "--json", "--limit", "0").stdout)["total"]?.intValue ?? 0
        XCTAssertGreaterThan(total, 100)
        let exported = daemon.dataDir + "/corpus.json"
        XCTAssertEqual(try daemon.ctl("export", "--format", "json", "-o", exported).status, 0)
        let back = try daemon.ctl("import", exported)
        XCTAssertEqual(back.status, 0, report(back))
        XCTAssertTrue(back.stdout.contains(" 0 failed"), report(back))
        XCTAssertTrue(back.stdout.contains("0 created"), report(back))
    }
}
