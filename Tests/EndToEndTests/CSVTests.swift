import Foundation
import JSONCore
import XCTest

/// CSV from Google and Outlook through the real daemon and contactsctl: dropped into the
/// inbox, imported from a file and standard input, exported in Google's dialect and read back.
final class CSVTests: DaemonTestCase {
    var inbox: String { daemon.dataDir + "/inbox" }

    let google = """
        Name,Given Name,Family Name,Birthday,Notes,Group Membership,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Address 1 - Type,Address 1 - Street,Address 1 - City,Address 1 - Postal Code,Address 1 - Country\r
        José Núñez,José,Núñez,1979-11-23,"Met in Sevilla,
        at the ""Feria"".",* myContacts ::: Friends,* Home,jose@example.es ::: pepe@example.org,Mobile,+34 612 345 678,Home,"Calle Sierpes 12
        Piso 2",Sevilla,41004,Spain\r
        Broken,"Row,,,,,,,,,,,,,\r

        """

    func json(_ args: String...) throws -> JSONValue {
        let r = try daemon.ctl(["--json"] + args)
        return try JSONParser.parse(r.stdout)
    }

    func testADroppedCSVLandsAndItsBadRowIsReportedWithItsLine() throws {
        try google.write(toFile: inbox + "/google.csv", atomically: false, encoding: .utf8)
        XCTAssertTrue(waitForFile(inbox + "/failed/google.csv.error.txt", timeout: 30))
        let report = try String(contentsOfFile: inbox + "/failed/google.csv.error.txt", encoding: .utf8)
        XCTAssertTrue(report.contains("1 created") && report.contains("1 failed"), report)
        XCTAssertTrue(report.contains("row 2, line 5: a quoted cell is never closed"), report)
        let jose = try XCTUnwrap(try json("search", "nunez")["contacts"]?.arrayValue?.first)
        XCTAssertEqual(jose["name"], "José Núñez")
        XCTAssertEqual(jose["note"], "Met in Sevilla,\nat the \"Feria\".")
        XCTAssertEqual(jose["groups"], ["Friends"])
        XCTAssertEqual(jose["emails"]?.arrayValue?.compactMap { $0["value"]?.stringValue }, ["jose@example.es", "pepe@example.org"])
        XCTAssertEqual(jose["phones"]?.arrayValue?.first?["label"], "mobile")
        XCTAssertEqual(jose["addresses"]?.arrayValue?.first?["street"], "Calle Sierpes 12\nPiso 2")
        XCTAssertEqual(jose["birthday"], "1979-11-23")
    }

    func testOutlookFilesImportAndAnExportReadsBackValueForValue() throws {
        // A German Outlook export in Windows-1252, as Outlook writes it on Windows.
        let outlook = """
            Vorname,Nachname,Firma,Mobiltelefon,E-Mail-Adresse,Geburtstag,Kategorien\r
            Jürgen,Müßig,Bäckerei Groß,0171 5550199,juergen@baeckerei.example,24.12.1970,Kunden;Köln\r

            """
        let path = daemon.home + "/kontakte.csv"
        try XCTUnwrap(outlook.data(using: .windowsCP1252)).write(to: URL(fileURLWithPath: path))
        let imported = try daemon.ctl("import", path)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("1 created"), imported.stdout)
        let j = try XCTUnwrap(try json("search", "müßig")["contacts"]?.arrayValue?.first)
        XCTAssertEqual(j["organization"], "Bäckerei Groß")
        XCTAssertEqual(j["groups"], ["Köln", "Kunden"])
        XCTAssertEqual(j["birthday"], "1970-12-24")
        // Imported again: nothing new.
        let second = try daemon.ctl("import", path)
        XCTAssertTrue(second.stdout.contains("0 created, 0 updated, 1 unchanged"), second.stdout + second.stderr)

        // Google's dialect from standard input, then everyone out as CSV and in again.
        let fromStdin = try daemon.ctl("import", "-", stdin: "Given Name,Family Name,E-mail 1 - Value\nAnna,Haro,anna@example.com\n")
        XCTAssertTrue(fromStdin.stdout.contains("1 created"), fromStdin.stdout + fromStdin.stderr)
        let exported = try daemon.ctl("export", "--format", "csv")
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertTrue(exported.stdout.hasPrefix("Name,Given Name,Additional Name,Family Name,"), exported.stdout)
        XCTAssertTrue(
            exported.stdout.contains("Jürgen Müßig") && exported.stdout.contains("* myContacts ::: Köln ::: Kunden"), exported.stdout)
        let file = daemon.home + "/out.csv"
        XCTAssertEqual(try daemon.ctl("export", "--format", "csv", "--output", file).status, 0)
        let before = try json("list")
        // Read back into the same store: each row is a contact it has already (a CSV has no
        // ids; its name and values tell), not a second one.
        let again = try daemon.ctl("import", file)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("0 created, 0 updated, 2 unchanged"), again.stdout)
        XCTAssertEqual(try json("list")["total"], 2)
        // A row that adds a value is a contact of its own, which duplicates then finds.
        let edited = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(
            of: "anna@example.com", with: "anna@example.com ::: haro@example.org")
        let third = try daemon.ctl("import", "-", stdin: edited)
        XCTAssertTrue(third.stdout.contains("1 created, 0 updated, 1 unchanged"), third.stdout)
        // Into an empty store: the same values.
        let ids = (try json("list")["contacts"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        XCTAssertEqual(try daemon.ctl(["rm"] + ids).status, 0)
        XCTAssertEqual(try daemon.ctl("trash", "empty", "--yes").status, 0)
        let fresh = try daemon.ctl("import", file)
        XCTAssertTrue(fresh.stdout.contains("2 created"), fresh.stdout)
        let after = try json("list")["contacts"]?.arrayValue ?? []
        for c in before["contacts"]?.arrayValue ?? [] {
            let back = try XCTUnwrap(after.first { $0["name"] == c["name"] }, "\(c["name"] ?? .null)")
            for key in ["emails", "phones", "addresses", "organization", "birthday", "groups", "structuredName"] {
                XCTAssertEqual(back[key], c[key], "\(c["name"] ?? .null): \(key)")
            }
        }
    }
}
