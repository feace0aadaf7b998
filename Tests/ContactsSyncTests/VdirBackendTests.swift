import CardDAV
import ContactsCore
import ContactsStore
import Foundation
import XCTest

@testable import ContactsSync

/// The vdir backend on a real directory, alone and under the sync engine with a real store:
/// writes only over the version last seen, files that are not one card left alone, and the
/// three-way merge of an edit on each side as with a CardDAV server.
final class VdirBackendTests: XCTestCase {
    var dir = ""
    var vdir: String { dir + "/book" }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "vdir-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir + "/book", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func card(_ uid: String, _ name: String, _ extra: String = "") -> Data {
        Data("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\n\(extra)END:VCARD\r\n".utf8)
    }

    func testWritesGoOnlyOverTheVersionLastSeen() throws {
        let b = VdirBackend(directory: vdir)
        guard case .written(let href, let tag?) = try b.put("anna.vcf", card("anna", "Anna"), etag: nil) else { return XCTFail() }
        XCTAssertEqual(href, "anna.vcf")
        XCTAssertEqual(try b.put("anna.vcf", card("anna", "Anna 2"), etag: nil), .preconditionFailed, "a new card where one is")
        // Another program rewrites the file: the version the engine saw is gone.
        usleep(10_000)
        try card("anna", "Anna (khard)").write(to: URL(fileURLWithPath: vdir + "/anna.vcf"))
        XCTAssertEqual(try b.put("anna.vcf", card("anna", "Anna 3"), etag: tag), .preconditionFailed)
        XCTAssertEqual(try b.delete("anna.vcf", etag: tag), .preconditionFailed)
        let now = try XCTUnwrap(try b.get("anna.vcf"))
        XCTAssertTrue(String(decoding: now.data, as: UTF8.self).contains("Anna (khard)"))
        guard case .written = try b.put("anna.vcf", card("anna", "Anna 3"), etag: now.etag) else { return XCTFail() }
        // Hidden files, temporaries and other names are no cards; a listing names the rest.
        for name in [".hidden.vcf", "anna.vcf.tmp-1-2", "readme.txt"] {
            FileManager.default.createFile(atPath: vdir + "/" + name, contents: card("x", "X"))
        }
        XCTAssertEqual(try b.listing().map(\.href), ["anna.vcf"])
        XCTAssertEqual(try b.listing().first?.etag, b.etag("anna.vcf"))
        guard case .written = try b.delete("anna.vcf", etag: b.etag("anna.vcf")) else { return XCTFail() }
        XCTAssertFalse(FileManager.default.fileExists(atPath: vdir + "/anna.vcf"))
        XCTAssertThrowsError(try b.put("../escape.vcf", card("e", "E"), etag: nil), "a name with a slash is refused")
        XCTAssertEqual(VdirBackend.fileName(uid: "urn:uuid:0A1B-c2"), "0A1B-c2.vcf")
        XCTAssertNotEqual(VdirBackend.fileName(uid: "a/b"), "a/b.vcf")
    }

    func testTheEngineKeepsAVdirInTwoWaySyncAndMergesEditsOnBothSides() throws {
        let store = try ContactStore(path: dir + "/contacts.sqlite3")
        defer { store.close() }
        let account = SyncAccount(
            name: "files", url: vdir, addressBookURL: URL(fileURLWithPath: vdir, isDirectory: true).absoluteString)
        XCTAssertEqual(account.vdirPath, vdir)
        try store.addAccount(account)
        let engine = SyncEngine(store: store)
        let backend = VdirBackend(directory: vdir)
        func sync() throws -> SyncReport { try engine.sync(try store.account(named: "files"), with: backend) }
        try card("kate", "Kate Bell", "TEL:555-1\r\n").write(to: URL(fileURLWithPath: vdir + "/kate.vcf"))
        try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:B\r\nEND:VCARD\r\n".utf8)
            .write(to: URL(fileURLWithPath: vdir + "/two.vcf"))
        let first = try sync()
        XCTAssertEqual(first.downloaded.created, 1)
        XCTAssertEqual(backend.problems.map(\.href), ["two.vcf"])
        let kate = try XCTUnwrap(try store.query(ContactQuery(text: "kate")).contacts.first)
        // A second sync with nothing changed writes nothing.
        let quiet = try sync()
        XCTAssertEqual(quiet.uploaded, SyncReport.Counts())
        XCTAssertEqual(quiet.downloaded, SyncReport.Counts())
        // Edited here (a title) and there (a note) before the next sync: both kept.
        _ = try store.update(id: kate.id) { $0.title = "Producer" }
        usleep(10_000)
        try card("kate", "Kate Bell", "TEL:555-1\r\nNOTE:from khard\r\n").write(to: URL(fileURLWithPath: vdir + "/kate.vcf"))
        let both = try sync()
        XCTAssertEqual(both.merged, 1, "\(both)")
        let merged = try store.contact(id: kate.id)
        XCTAssertEqual(merged.title, "Producer")
        XCTAssertEqual(merged.note, "from khard")
        let file = try String(contentsOfFile: vdir + "/kate.vcf", encoding: .utf8)
        XCTAssertTrue(file.contains("TITLE:Producer") && file.contains("NOTE:from khard"), file)
        // A file removed there: the contact goes to the trash here.
        try FileManager.default.removeItem(atPath: vdir + "/kate.vcf")
        XCTAssertEqual(try sync().downloaded.deleted, 1)
        XCTAssertEqual(try store.trash().contacts.map(\.contact.id), [kate.id])
        XCTAssertTrue(FileManager.default.fileExists(atPath: vdir + "/two.vcf"), "never touched")
    }
}
