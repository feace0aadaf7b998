import Foundation
import XCTest

/// Start-up: readiness time and bringing an older store up to date.
final class StartupTests: FixtureTestCase {
    func testReadyWithinASecondOnAnEmptyStore() throws {
        let started = Date()
        try daemon.start()
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.0)
    }

    func testAStoreFromAnOlderSchemaIsMigratedWithMoreTimeAsked() throws {
        // A store as the first schema left it.
        try FileManager.default.createDirectory(atPath: daemon.dataDir, withIntermediateDirectories: true)
        let schema1 = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.executescript(\"\"\"
            CREATE TABLE contacts (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, uid TEXT NOT NULL UNIQUE,
              revision INTEGER NOT NULL, name TEXT NOT NULL, sort_key TEXT NOT NULL, favorite INTEGER NOT NULL DEFAULT 0,
              created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, body TEXT NOT NULL, search TEXT NOT NULL);
            CREATE TABLE groups (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
              name_key TEXT NOT NULL UNIQUE, sort_key TEXT NOT NULL, created_at INTEGER NOT NULL);
            CREATE TABLE memberships (group_rowid INTEGER NOT NULL, contact_rowid INTEGER NOT NULL,
              PRIMARY KEY (group_rowid, contact_rowid)) WITHOUT ROWID;
            CREATE INDEX contacts_by_sort_key ON contacts(sort_key, name, id);
            INSERT INTO contacts VALUES (1, 'A', 'urn:uuid:a', 1, 'Old Friend', 'old friend', 0, 0, 0,
              '{"phones": [{"value": "0171 5550199", "label": "mobile"}]}', 'old friend\n01715550199');
            PRAGMA user_version = 1;
            \"\"\")
            """
        let r = try runProgram(
            "/usr/bin/env", ["python3", "-c", schema1, daemon.dataDir + "/contacts.sqlite3"], environment: daemon.environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        try daemon.start(extraEnvironment: ["LANG": "de_DE.UTF-8"])
        XCTAssertTrue(daemon.notify?.messages.first?.contains("EXTEND_TIMEOUT_USEC=") ?? false, "\(daemon.notify?.messages ?? [])")
        // Its phones are numbers now, read in the locale's region.
        let status = try daemon.client().call("daemon.status")
        XCTAssertEqual(status["defaultRegion"], "DE")
        XCTAssertEqual(status["defaultRegionSource"], "locale")
        XCTAssertEqual(try daemon.client().call("contacts.query", ["text": "+49 171 5550199"])["total"], 1)
        let found = try daemon.client().call("contacts.lookupPhone", ["number": "+491715550199"])["matches"]?.arrayValue ?? []
        XCTAssertEqual(found.map { $0["match"] }, ["exact"])
        XCTAssertEqual(found.first?["phone"]?["e164"], "+491715550199")
        XCTAssertEqual(found.first?["phone"]?["type"], "mobile")
        XCTAssertEqual(try daemon.client().call("contacts.get", ["id": "A"])["name"], "Old Friend")
        XCTAssertEqual(try daemon.client().call("contacts.query", ["text": "friend"])["total"], 1)
        XCTAssertEqual(try daemon.client().call("contacts.query", [:])["total"], 1)
        // Every migration ran: the photo index came, the SQL index by name went, the trash, the history and the sync tables came (the other indexes
        // of the first schema are left out above).
        let indexes = try runProgram(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import sqlite3, sys; print(sorted(r[0] for r in sqlite3.connect(sys.argv[1]).execute(\"SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL\")))",
                daemon.dataDir + "/contacts.sqlite3",
            ], environment: daemon.environment)
        XCTAssertEqual(
            indexes.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
            "['contact_emails_by_contact', 'contacts_by_photo', 'contacts_by_state', 'contacts_collected', 'history_by_item', 'history_by_operation', 'history_by_photo', 'operations_undone', 'phone_numbers_e164', 'phone_numbers_tail', 'removals_by_book', 'removals_by_contact', 'removals_by_state', 'served_names_by_name', 'sync_items_by_contact', 'sync_items_groups', 'trash_by_deleted', 'trash_by_photo']",
            indexes.stderr)
    }
}
