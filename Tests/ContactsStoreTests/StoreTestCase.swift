import ContactsCore
import ContactsStore
import Foundation
import PhoneNumbers
import XCTest

/// A store in a fresh temporary directory, removed after each test.
class StoreTestCase: XCTestCase {
    var dir = ""
    var store: ContactStore!

    var databasePath: String { dir + "/contacts.sqlite3" }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "store-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        store = try ContactStore(path: databasePath)
    }

    override func tearDown() {
        store?.close()
        store = nil
        try? FileManager.default.removeItem(atPath: dir)
    }

    @discardableResult
    func add(
        _ name: String, phones: [String] = [], emails: [String] = [], groups: [String] = [], favorite: Bool = false,
        organization: String? = nil
    ) throws -> Contact {
        var c = Contact(name: name)
        c.phones = phones.map { LabeledValue(value: $0) }
        c.emails = emails.map { LabeledValue(value: $0) }
        c.groups = groups
        c.favorite = favorite
        c.organization = organization
        return try store.create(c)
    }

    func names(_ q: ContactQuery) throws -> [String] {
        try store.query(q).contacts.map(\.name)
    }

    func search(_ text: String) throws -> [String] {
        try names(ContactQuery(text: text))
    }

    /// Runs a Python script on the closed store's file (its path is `sys.argv[1]`): to take
    /// the store back to an earlier schema.
    /// Python lines taking the store back to schema `version` (20 or lower): the columns and
    /// index migrations 21 and 22 added are dropped. A migration that adds a column adds its
    /// drop here, and every downgrade in the tests follows.
    static func downgradeTo(_ version: Int) -> String {
        """
        \(withoutMail)
        db.execute("ALTER TABLE trash DROP COLUMN account")
        db.execute("ALTER TABLE trash DROP COLUMN href")
        db.execute("DROP INDEX operations_undone")
        db.execute("ALTER TABLE operations DROP COLUMN undoes")
        db.execute("ALTER TABLE operations DROP COLUMN kept")
        db.execute("PRAGMA user_version = \(version)")
        db.commit()
        """
    }

    /// Python lines taking the store back from schema 24 (`db` open on it).
    static let withoutMail = """
        db.executescript("DROP TRIGGER contact_emails_of_new; DROP TRIGGER contact_emails_of_changed; DROP TRIGGER contact_emails_of_deleted; DROP TRIGGER removals_of_collected_kept; DROP INDEX contacts_collected; ALTER TABLE contacts DROP COLUMN collected; ALTER TABLE trash DROP COLUMN collected; DROP TABLE contact_emails; DROP TABLE mail_addresses; DROP TABLE mail_messages;")
        """

    func runPython(_ script: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, databasePath]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, script)
    }
}

/// A store whose phones without a country code are German ones.
class GermanStoreTestCase: StoreTestCase {
    override func setUpWithError() throws {
        PhoneRegion.current = "DE"
        try super.setUpWithError()
    }

    override func tearDown() {
        super.tearDown()
        PhoneRegion.current = nil
    }
}
