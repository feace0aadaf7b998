import ContactsStore
import Foundation
import XCTest

@testable import ContactsStore

/// The schema's steps are values numbered 1, 2, 3... in order: the store runs those above its
/// `user_version`, each with its rewrite, and a new one is added at the end.
final class MigrationListTests: StoreTestCase {
    func testMigrationsAreNumberedInOrderFromOne() {
        XCTAssertEqual(Migrations.all.map(\.version), Array(1...Migrations.all.count))
        XCTAssertEqual(Migrations.latestVersion, Migrations.all.count)
        // The three that rewrite rows SQL cannot reach.
        XCTAssertEqual(Migrations.all.filter { $0.rewrite != nil }.map(\.version), [3, 18, 20])
    }

    func testANewStoreIsAtTheLatestVersion() throws {
        store.close()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "python3", "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA user_version').fetchone()[0])",
            databasePath,
        ]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        let version = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        XCTAssertEqual(version, String(Migrations.latestVersion))
        store = try ContactStore(path: databasePath)
    }
}
