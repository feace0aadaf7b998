import ContactsSupport
import Foundation
import JSONCore
import TestSupport
import VipsImages
import XCTest

/// The real contactsd and contactsctl with a real Radicale: an account added from the
/// command line syncs on its own, a local edit reaches the server within seconds, and an
/// edit another device made reaches the store.
final class SyncTests: DaemonTestCase {
    func waitUntil(_ timeout: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(200_000)
        }
        return false
    }

    func testAnAccountAddedFromTheCommandLineSyncsBothWaysOnItsOwn() throws {
        let server = try DAVServer(.radicale)
        defer { server.stop() }
        try server.put("kate.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nTEL:555-1\r\nEND:VCARD\r\n")
        // libcurl, and the TLS stack it brings, is loaded for the first request, not at start.
        let atStart = try daemon.mappedFiles()
        XCTAssertTrue(atStart.contains("libsqlite3"), "the maps are read whole")
        XCTAssertFalse(atStart.contains("libcurl"), "contactsd maps libcurl before it syncs")
        for none in [try daemon.ctl("account", "list"), try daemon.ctl("sync", "status")] {
            XCTAssertEqual(none.status, 0, none.stderr)
            XCTAssertTrue(none.stdout.contains("No accounts") && none.stdout.contains("contactsctl account add"), none.stdout)
        }
        let added = try daemon.ctl(
            "account", "add", "home", server.root.absoluteString, "--user", "kate", "--password-command", "printf 'secret'")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stdout.contains("Added home"), added.stdout)
        // The first sync comes by itself.
        XCTAssertTrue(try waitUntil { try daemon.ctl("search", "kate").stdout.contains("Kate Bell") }, "Kate arrived")
        XCTAssertTrue(try daemon.mappedFiles().contains("libcurl"), "libcurl is loaded once a sync needs it")
        XCTAssertEqual(try daemon.ctl("__complete", "accounts", "h").stdout, "home\n", "account names complete")
        let list = try daemon.ctl("account", "list")
        XCTAssertTrue(list.stdout.contains("home") && list.stdout.contains(server.addressBook.absoluteString), list.stdout)
        // An edit here is on the server a few seconds later, with nothing asked.
        XCTAssertEqual(try daemon.ctl("edit", "kate", "--title", "Producer").status, 0)
        XCTAssertTrue(
            try waitUntil {
                String(decoding: try server.request("GET", server.addressBook.appendingPathComponent("kate.vcf")).body, as: UTF8.self)
                    .contains("TITLE:Producer")
            }, "the edit went up")
        // Another device's edit comes in with the next sync.
        let tag = try server.request("GET", server.addressBook.appendingPathComponent("kate.vcf")).headers["etag"] ?? ""
        let put = try server.put(
            "kate.vcf",
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kate\r\nFN:Kate Bell\r\nTEL:555-1\r\nTITLE:Producer\r\nNOTE:from the phone\r\nEND:VCARD\r\n",
            headers: ["If-Match": tag])
        XCTAssertLessThan(put.status, 300)
        let sync = try daemon.ctl("sync", "home")
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertTrue(sync.stdout.contains("in 0 new, 1 changed"), sync.stdout)
        let kate = try daemon.client().call("contacts.query", ["text": "kate"])["contacts"]?.arrayValue?.first
        XCTAssertEqual(kate?["note"], "from the phone")
        XCTAssertEqual(kate?["title"], "Producer")
        let status = try daemon.ctl("--json", "sync", "status")
        XCTAssertTrue(status.stdout.contains("\"lastError\":null"), status.stdout)
        XCTAssertTrue(status.stdout.contains("\"pendingUploads\":0"), status.stdout)
        // Contacts by where they sync, and moved between here and the account.
        XCTAssertEqual(try daemon.ctl("add", "Anna Haro", "--email", "anna@example.com").status, 0)
        XCTAssertEqual(try daemon.ctl("list", "--account", "local").stdout.contains("Kate Bell"), false)
        XCTAssertTrue(try daemon.ctl("list", "--account", "local").stdout.contains("Anna Haro"))
        XCTAssertTrue(try daemon.ctl("search", "a", "--account", "home").stdout.contains("Kate Bell"))
        XCTAssertFalse(try daemon.ctl("list", "--account", "home").stdout.contains("Anna Haro"))
        XCTAssertEqual(try daemon.ctl("list", "--account", "nowhere").status, 1, "an unknown account is an error")
        let moved = try daemon.ctl("move", "anna", "--to", "home")
        XCTAssertTrue(moved.stdout.contains("Moved 1 contact to home"), moved.stdout + moved.stderr)
        // The sync that sends it is heard by subscribers as it goes.
        let subscriber = try daemon.client()
        _ = try subscriber.call("events.subscribe")
        XCTAssertTrue(try daemon.ctl("sync", "home").stdout.contains("out 1 new"))
        var heard: [String] = []
        while !heard.contains("sync.finished") {
            let m = try subscriber.readMessage()
            if let method = m["method"]?.stringValue, method.hasPrefix("sync.") {
                heard.append(method)
                if method == "sync.progress" { XCTAssertEqual(m["params"]?["account"], "home") }
            }
        }
        XCTAssertTrue(heard.contains("sync.progress"), "\(heard)")
        let annaCards = try server.request(
            "PROPFIND", server.addressBook, headers: ["Depth": "1", "Content-Type": "application/xml"],
            body: Data("<?xml version=\"1.0\"?><propfind xmlns=\"DAV:\"><prop><getetag/></prop></propfind>".utf8))
        XCTAssertEqual(String(decoding: annaCards.body, as: UTF8.self).components(separatedBy: ".vcf</").count - 1, 2, "Anna is there")
        XCTAssertTrue(try daemon.ctl("list", "--account", "home").stdout.contains("Anna Haro"))
        let shown = try daemon.ctl("show", "anna").stdout
        XCTAssertTrue(shown.contains("account") && shown.contains("home"), "show says where a contact lives: \(shown)")
        XCTAssertTrue(try daemon.ctl("--json", "show", "anna").stdout.contains("\"account\":\"home\""))
        // Moved to this machine alone: gone from the server, still here.
        XCTAssertEqual(try daemon.ctl("move", "kate", "--to", "local").status, 0)
        XCTAssertTrue(try daemon.ctl("sync", "home").stdout.contains("out 0 new, 0 changed, 1 deleted"))
        XCTAssertEqual(try server.request("GET", server.addressBook.appendingPathComponent("kate.vcf")).status, 404)
        XCTAssertTrue(try daemon.ctl("list", "--account", "local").stdout.contains("Kate Bell"))
        XCTAssertTrue(try daemon.ctl("show", "kate").stdout.contains("this machine only"))
        // A wrong password is refused before anything is stored, and never shown.
        let refused = try daemon.ctl(
            "account", "add", "other", server.root.absoluteString, "--user", "kate", "--password-command", "echo hunter2")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("401"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("hunter2") || daemon.log.contains("hunter2"))
    }
}

/// A card over the server's size limit goes up with a smaller photo; the photo here stays.
final class SyncPhotoTests: DaemonTestCase {
    func testACardTooLargeForTheServerGoesUpWithASmallerPhoto() throws {
        let server = try DAVServer(.icloud, fakeOptions: ["--max-card-bytes", "120000"])
        defer { server.stop() }
        let added = try daemon.ctl(
            "account", "add", "cloud", server.root.absoluteString, "--user", "kate", "--password-command", "printf secret")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell", "--account", "cloud").status, 0)
        let jpeg = try Images.synthesize(width: 2400, height: 1800, format: .jpeg)
        XCTAssertGreaterThan(jpeg.count, 120_000, "the photo alone is over the limit")
        let file = daemon.home + "/kate.jpg"
        _ = FileManager.default.createFile(atPath: file, contents: Data(jpeg))
        XCTAssertEqual(try daemon.ctl("photo", "set", "kate", file).status, 0)
        let sync = try daemon.ctl("sync", "cloud")
        XCTAssertEqual(sync.status, 0, "nothing refused: " + sync.stdout + sync.stderr)
        let kate = try XCTUnwrap(try daemon.client().call("contacts.query", ["text": "kate"])["contacts"]?.arrayValue?.first)
        XCTAssertEqual(kate["photo"]?["hash"]?.stringValue, "sha256:" + SHA256.hex(jpeg), "the photo here is the one set")
        XCTAssertEqual(kate["photo"]?["width"], 2400)
        let listing = try server.request(
            "PROPFIND", server.addressBook, headers: ["Depth": "1", "Content-Type": "application/xml"],
            body: Data("<?xml version=\"1.0\"?><propfind xmlns=\"DAV:\"><prop><getetag/></prop></propfind>".utf8))
        let href = try XCTUnwrap(
            String(decoding: listing.body, as: UTF8.self).components(separatedBy: "<d:href>").dropFirst().map {
                String($0.prefix { $0 != "<" })
            }.first { $0.hasSuffix(".vcf") })
        let card = String(decoding: try server.request("GET", server.root.appendingPathComponent(href)).body, as: UTF8.self)
        XCTAssertTrue(card.contains("PHOTO"), "the card went up with a photo, smaller than the one here: \(card.prefix(300))")
        XCTAssertLessThan(card.utf8.count, 120_000)
    }
}

/// A first sync stopped in the middle (killed, or told to stop) and started again: every
/// card arrives exactly once.
final class SyncCrashTests: DaemonTestCase {
    /// A Radicale book of `count` cards, an account for it, and the first sync under way:
    /// returns once its first batch is stored, with how many contacts there are then.
    func syncUnderWay(_ server: DAVServer, count: Int) throws -> Int {
        try server.putAll(
            (0..<count).map { i in
                (
                    "bulk-\(i)",
                    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bulk-\(i)\r\nFN:Person \(i)\r\nN:Person;\(i);;;\r\nTEL:+1 555 \(1_000_000 + i)\r\nEND:VCARD\r\n"
                )
            })
        let added = try daemon.ctl(
            "account", "add", "home", server.addressBook.absoluteString, "--user", "kate", "--password-command", "printf secret")
        XCTAssertEqual(added.status, 0, added.stderr)
        // The first sync starts a second later.
        return total(atLeast: 1, within: 60, every: 20_000)
    }

    /// How many contacts there are, once there are `count` or `seconds` have gone.
    func total(atLeast count: Int, within seconds: Double, every pause: useconds_t = 200_000) -> Int {
        var total = 0
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            total = (try? daemon.client().call("contacts.query", ["limit": 0])["total"]?.intValue) ?? 0
            if total >= count { break }
            usleep(pause)
        }
        return total
    }

    /// The daemon started again finishes the sync, each card once, and nothing goes up.
    func assertFinishedOnce(_ count: Int) throws {
        XCTAssertEqual(total(atLeast: count, within: 90), count, "every card, once: \(daemon.log.suffix(2000))")
        let r = try daemon.client().call("sync.run", ["account": "home"])
        XCTAssertEqual(r["downloaded"]?["created"], 0, "\(r)")
        XCTAssertEqual(r["uploaded"]?["created"], 0, "nothing went back up as new: \(r)")
        XCTAssertEqual(try daemon.client().call("contacts.query", ["limit": 0])["total"]?.intValue, count)
    }

    func testAFirstSyncKilledHalfwayResumesAndBringsEveryCardOnce() throws {
        let server = try DAVServer(.radicale)
        defer { server.stop() }
        let count = 2000
        let seen = try syncUnderWay(server, count: count)
        daemon.stop(signal: SIGKILL, timeout: 5)
        XCTAssertGreaterThan(seen, 0, "the first batches landed before the kill")
        XCTAssertLessThan(seen, count, "the kill came in the middle of the sync")
        try daemon.start(keepLog: true)
        try assertFinishedOnce(count)
    }

    func testASIGTERMDuringASyncStopsItAtABatchAndTheNextStartFinishesIt() throws {
        let server = try DAVServer(.radicale)
        defer { server.stop() }
        let count = 3000
        XCTAssertGreaterThan(try syncUnderWay(server, count: count), 0)
        let asked = Date()
        let status = daemon.stop(signal: SIGTERM, timeout: 10)
        XCTAssertEqual(status, 0, "a clean exit in the middle of a sync: \(daemon.log.suffix(2000))")
        XCTAssertLessThan(Date().timeIntervalSince(asked), 5, "the sync stopped at its next batch, not at its end")
        // The next start finds whole batches only (each is one transaction), then finishes.
        try daemon.start(keepLog: true)
        let stored = try daemon.client().call("contacts.query", ["limit": 0])["total"]?.intValue ?? -1
        XCTAssertLessThan(stored, count, "the sync did not run to its end after the SIGTERM")
        XCTAssertEqual(stored % 500, 0, "whole batches of 500: \(stored)")
        try assertFinishedOnce(count)
    }
}
