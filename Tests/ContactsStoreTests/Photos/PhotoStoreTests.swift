import ContactsCore
import ContactsSupport
import Foundation
import VCard
import XCTest

@testable import ContactsStore

final class PhotoStoreTests: StoreTestCase {
    let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("not really a JPEG, but bytes all the same".utf8)

    func photoFile(_ hash: String) -> String {
        let hex = hash.dropFirst(7)
        return dir + "/photos/" + hex.prefix(2) + "/" + hex
    }

    func card(uid: String, name: String, photo: [UInt8]) -> VCard {
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name)\r\nUID:\(uid)\r\nPHOTO;ENCODING=b;TYPE=JPEG;X-KEEP=yes:"
            + Data(photo).base64EncodedString() + "\r\nEND:VCARD\r\n"
        return VCardParser.parse(Array(text.utf8)).cards[0]
    }

    func item(_ card: VCard) throws -> ImportItem {
        var c = try VCardMapping.contact(from: card)
        let data = VCardMapping.detachPhoto(&c)
        return ImportItem(
            contact: c, carriesGroups: false, carriesFavorite: false,
            photo: data)
    }

    func testImportedPhotosAreOneFileSharedAndRemovedWithTheLastReference() throws {
        let outcomes = try store.importContacts([
            try item(card(uid: "a", name: "A", photo: bytes)), try item(card(uid: "b", name: "B", photo: bytes)),
        ])
        let hash = "sha256:" + SHA256.hex(bytes)
        XCTAssertEqual(FileManager.default.contents(atPath: photoFile(hash)).map { [UInt8]($0) }, bytes)
        let ids = outcomes.map { o -> String in
            if case .created(let id) = o { return id }
            return ""
        }
        let a = try store.contact(id: ids[0])
        XCTAssertEqual(a.photo?.hash, hash)

        // Export puts the bytes back, with the parameters the card had.
        let exported = try store.exportContacts(ids: [ids[0]])[0]
        var text = ""
        VCardWriter.write(VCard(properties: store.cardProperties(for: exported)), version: .v3, into: &text)
        XCTAssertTrue(
            text.replacingOccurrences(of: "\r\n ", with: "").contains(
                "PHOTO;X-KEEP=yes;TYPE=JPEG;ENCODING=b:" + Data(bytes).base64EncodedString()), text)

        _ = try store.removePhoto(id: ids[0])
        XCTAssertTrue(FileManager.default.fileExists(atPath: photoFile(hash)), "B still has it")
        _ = try store.delete(ids: [ids[1]])
        XCTAssertTrue(FileManager.default.fileExists(atPath: photoFile(hash)), "B is in the trash, with its photo")
        XCTAssertEqual(try store.removeUnreferencedPhotos(), 0, "the sweep leaves the trash's photos alone")
        try store.purge(ids: [ids[1]])
        XCTAssertTrue(FileManager.default.fileExists(atPath: photoFile(hash)), "A's history still has it")
        // A second on: a prune keeps what is not older than its cutoff, and these are as old as it.
        try store.pruneHistory(HistoryRetention(days: 0), now: Timestamp.now() + 1000)
        XCTAssertFalse(FileManager.default.fileExists(atPath: photoFile(hash)))
    }

    func testARolledBackImportLeavesNoFileAfterTheSweep() throws {
        let good = try item(card(uid: "a", name: "A", photo: bytes))
        var bad = try item(card(uid: "b", name: "B", photo: bytes + [1]))
        bad.contact.name = "  "  // refused inside the transaction, after its photo was written
        XCTAssertThrowsError(try store.importContacts([good, bad]))
        XCTAssertEqual(try store.counts().contacts, 0)
        XCTAssertEqual(try store.removeUnreferencedPhotos(), 2)
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: dir + "/photos").filter { $0.count > 2 }, [])
    }

    func testPhotosKeptInsideCardsByAnOlderSchemaMoveToFiles() throws {
        // Store a card with its photo inline, as schema 2 did, then take the store back to schema 2.
        var c = try VCardMapping.contact(from: card(uid: "old", name: "Old Photo", photo: bytes))
        XCTAssertNotNil(c.photo)
        c = try store.create(c)
        store.close()
        let downgrade = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            \(Self.withoutMail)
            db.executescript("DROP TRIGGER served_groups_member_added; DROP TRIGGER served_groups_member_gone; DROP TRIGGER served_groups_renamed; DROP TRIGGER served_groups_gone; DROP TABLE served_groups; ALTER TABLE groups DROP COLUMN state; DROP TRIGGER removals_of_items_gone; DROP TRIGGER removals_of_items_moved; DROP TRIGGER removals_of_items_linked; DROP TRIGGER removals_of_items_made; DROP TABLE removals; DROP TABLE commit_state; DROP INDEX contacts_by_state; ALTER TABLE contacts DROP COLUMN state; ALTER TABLE contacts DROP COLUMN created_state; DROP TABLE served_names; DROP TABLE not_duplicates; DROP TRIGGER phones_unkeyed_of_deleted; DROP TABLE phones_unkeyed; DROP TABLE settings; DROP TRIGGER phone_numbers_of_deleted; DROP TABLE phone_numbers; DROP TABLE sync_intents; DROP TABLE sync_items; DROP TABLE accounts; DROP TABLE history; DROP TABLE operations; DROP TABLE trash; ALTER TABLE contacts DROP COLUMN created_operation; DROP INDEX contacts_by_photo; ALTER TABLE contacts DROP COLUMN photo_hash; PRAGMA user_version = 2;")
            db.commit()
            """
        try runPython(downgrade)

        store = try ContactStore(path: databasePath)
        let hash = "sha256:" + SHA256.hex(bytes)
        XCTAssertEqual(FileManager.default.contents(atPath: photoFile(hash)).map { [UInt8]($0) }, bytes)
        let migrated = try store.exportContacts(ids: [c.id])[0]
        let photoProperty = try XCTUnwrap(migrated.vcardProperties?.first { $0.name == "PHOTO" })
        if case .raw = photoProperty.value { XCTFail("the bytes are still inside the card: \(photoProperty)") }
        XCTAssertEqual(photoProperty.parameter("X-KEEP"), "yes")
        XCTAssertEqual(migrated.photo?.hash, hash)
        var text = ""
        VCardWriter.write(VCard(properties: store.cardProperties(for: migrated)), version: .v4, into: &text)
        XCTAssertTrue(
            text.replacingOccurrences(of: "\r\n ", with: "").contains("data:image/jpeg;base64," + Data(bytes).base64EncodedString()), text)
        // The column is filled: removing the photo removes the file once no history keeps it.
        _ = try store.removePhoto(id: c.id)
        // A second on: a prune keeps what is not older than its cutoff, and these are as old as it.
        try store.pruneHistory(HistoryRetention(days: 0), now: Timestamp.now() + 1000)
        XCTAssertFalse(FileManager.default.fileExists(atPath: photoFile(hash)))
    }
}

/// The background flusher of an import's photo files.
final class PhotoFlusherTests: StoreTestCase {
    func testAFlushThatFailsFailsTheWriteAndNoFileMeansNoFlush() throws {
        // A photo directory that cannot be opened: every flush fails.
        let notADirectory = dir + "/photos-file"
        XCTAssertTrue(FileManager.default.createFile(atPath: notADirectory, contents: Data("x".utf8)))
        let idle = PhotoFlusher(PhotoStore(root: notADirectory))
        XCTAssertNoThrow(try idle.finish(), "nothing written, nothing to flush")
        let flusher = PhotoFlusher(PhotoStore(root: notADirectory))
        for _ in 0..<3 { flusher.wroteFile() }
        XCTAssertThrowsError(try flusher.finish()) { XCTAssertEqual(($0 as? SystemError)?.errno, ENOTDIR) }
    }

    func testAnImportOfManyPhotosHasEveryFileInPlace() throws {
        let photos = (0..<300).map { i in Array("photo \(i) ".utf8) + [UInt8](repeating: UInt8(i % 251), count: 2000) }
        let items = photos.enumerated().map { i, bytes in
            let upload = PhotoData(bytes: bytes, mimeType: "image/jpeg")
            var c = Contact(name: "P \(i)")
            c.photo = upload.reference
            return ImportItem(contact: c, carriesGroups: false, carriesFavorite: false, photo: upload)
        }
        let outcomes = try store.importContacts(items)
        XCTAssertEqual(outcomes.count, 300)
        for bytes in photos {
            let hex = SHA256.hex(bytes)
            XCTAssertEqual(FileManager.default.contents(atPath: "\(dir)/photos/\(hex.prefix(2))/\(hex)").map { [UInt8]($0) }, bytes)
        }
    }
}
