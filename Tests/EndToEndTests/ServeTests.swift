import Foundation
import TestSupport
import XCTest

/// The store served over CardDAV by the real contactsd: discovery and reads with curl as a
/// client sends them, another contactsd syncing an account from the served book, SIGHUP
/// moving and stopping the listener, and another user refused.
final class ServeTests: FixtureTestCase {
    var port = 0
    var base: String { "http://127.0.0.1:\(port)" }

    func configure(_ json: String) throws {
        try FileManager.default.createDirectory(atPath: daemon.home + "/config/contactsd", withIntermediateDirectories: true)
        try json.write(toFile: daemon.home + "/config/contactsd/config.json", atomically: true, encoding: .utf8)
    }

    func serve() throws {
        port = try DAVServer.freePort()
        try configure(#"{"carddav": {"listen": "127.0.0.1:\#(port)"}}"#)
        try daemon.start()
    }

    /// curl's answer: the status, then the body; `as` another uid (setpriv).
    func curl(_ args: [String], as user: Int? = nil) throws -> (status: Int, body: String) {
        var argv = ["-s", "-o", "-", "-w", "\n%{http_code}", "--max-time", "10"] + args
        var program = "/usr/bin/curl"
        if let user {
            argv = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", program] + argv
            program = "/usr/bin/setpriv"
        }
        let r = try runProgram(program, argv, environment: ProcessInfo.processInfo.environment)
        let status = Int(r.stdout.split(separator: "\n").last ?? "") ?? 0
        return (status, String(r.stdout.dropLast(String(status).count + 1)))
    }

    func propfind(_ path: String, depth: Int, _ body: String = "") throws -> (status: Int, body: String) {
        try curl(["-X", "PROPFIND", "-H", "Depth: \(depth)", "-H", "Content-Type: application/xml", "--data", body, base + path])
    }

    func testAClientFindsTheBooksAndReadsTheCardsAsItAsks() throws {
        try serve()
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell", "-p", "+1 415 555 0100", "-e", "kate@example.com").status, 0)
        XCTAssertEqual(try daemon.ctl("add", "Anna Haro", "-e", "anna@example.com").status, 0)
        XCTAssertTrue(daemon.log.contains("serving CardDAV at \(base)/"), daemon.log)
        // Discovery as Thunderbird and DAVx⁵ do it: well-known, the principal, its home, the books.
        XCTAssertEqual(try curl(["-X", "PROPFIND", "-H", "Depth: 0", base + "/.well-known/carddav"]).status, 301)
        let root = try propfind(
            "/", depth: 0, "<d:propfind xmlns:d='DAV:'><d:prop><d:current-user-principal/><d:owner/></d:prop></d:propfind>")
        XCTAssertEqual(root.status, 207)
        XCTAssertTrue(root.body.contains("<d:current-user-principal><d:href>/principal/</d:href>"), root.body)
        XCTAssertTrue(root.body.contains("<d:owner/></d:prop><d:status>HTTP/1.1 404 Not Found"), "an unknown property is a 404 propstat")
        let home = try propfind(
            "/principal/", depth: 0,
            "<d:propfind xmlns:d='DAV:' xmlns:c='urn:ietf:params:xml:ns:carddav'><d:prop><c:addressbook-home-set/></d:prop></d:propfind>")
        XCTAssertTrue(home.body.contains("<card:addressbook-home-set><d:href>/books/</d:href>"), home.body)
        let books = try propfind("/books/", depth: 1)
        XCTAssertTrue(books.body.contains("<d:href>/books/local/</d:href>") && books.body.contains("<card:addressbook/>"), books.body)
        // The book's listing: each card with its strong ETag.
        let listing = try propfind("/books/local/", depth: 1, "<d:propfind xmlns:d='DAV:'><d:prop><d:getetag/></d:prop></d:propfind>")
        XCTAssertEqual(listing.body.components(separatedBy: "<d:getetag>\"1\"</d:getetag>").count - 1, 2, listing.body)
        let kate = try XCTUnwrap(
            try daemon.ctl("show", "kate", "--json").stdout.split(separator: "\"").drop { $0 != "id" }.dropFirst(2).first)
        let card = try curl(["-i", base + "/books/local/\(kate).vcf"])
        XCTAssertEqual(card.status, 200)
        XCTAssertTrue(
            card.body.contains("ETag: \"1\"") && card.body.contains("VERSION:3.0") && card.body.contains("FN:Kate Bell"), card.body)
        let v4 = try curl(["-H", "Accept: text/vcard; version=4.0", base + "/books/local/\(kate).vcf"])
        XCTAssertTrue(v4.body.contains("VERSION:4.0"), v4.body)
        // An edit moves the ETag and the book's ctag.
        let ctag = try propfind("/books/local/", depth: 0).body
        XCTAssertEqual(try daemon.ctl("edit", "kate", "--title", "Producer").status, 0)
        XCTAssertTrue(try curl(["-I", base + "/books/local/\(kate).vcf"]).body.contains("ETag: \"2\""))
        XCTAssertNotEqual(try propfind("/books/local/", depth: 0).body, ctag)
        // A multiget with a card that is not there, and what cannot be done.
        let multiget = """
            <c:addressbook-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">
            <d:prop><d:getetag/><c:address-data/></d:prop><d:href>/books/local/\(kate).vcf</d:href><d:href>/books/local/gone.vcf</d:href>
            </c:addressbook-multiget>
            """
        let got = try curl(["-X", "REPORT", "-H", "Depth: 1", "--data", multiget, base + "/books/local/"])
        XCTAssertEqual(got.status, 207)
        XCTAssertTrue(got.body.contains("TITLE:Producer") && got.body.contains("gone.vcf</d:href><d:status>HTTP/1.1 404"), got.body)
        XCTAssertEqual(try propfind("/books/nope/", depth: 0).status, 404)
        XCTAssertEqual(try curl(["-X", "PROPFIND", "-H", "Depth: infinity", base + "/books/"]).status, 403)
        XCTAssertEqual(try curl(["-X", "PROPFIND", "-H", "Depth: 0", "--data", "<d:propfind", base + "/books/"]).status, 400)
        XCTAssertEqual(try curl([base + "/books/local/..%2F..%2Fetc%2Fpasswd"]).status, 404)
    }

    func put(_ name: String, _ card: String, _ headers: [String] = []) throws -> (status: Int, body: String) {
        let file = daemon.home + "/put-\(UUID().uuidString.prefix(6)).vcf"
        try card.write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        return try curl(
            [
                "-i", "-X", "PUT", "-H", "Content-Type: text/vcard; charset=utf-8", "-H", "User-Agent: Thunderbird/128.0", "--data-binary",
                "@" + file,
            ]
                + headers.flatMap { ["-H", $0] } + [base + "/books/local/" + name])
    }

    func testCardsWrittenByAClientAreEditsWithHistoryConditionsAndTheTrash() throws {
        try serve()
        let options = try curl(["-i", "-X", "OPTIONS", base + "/books/local/"])
        XCTAssertTrue(options.body.contains("Allow: OPTIONS, GET, HEAD, PROPFIND, REPORT, PUT, DELETE, PROPPATCH"), options.body)
        // As Thunderbird makes a contact: PUT UID.vcf, no condition.
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:tb-1\r\nFN:Zoe Lane\r\nEMAIL:zoe@example.org\r\nX-MOZILLA-HTML:TRUE\r\nEND:VCARD\r\n"
        let created = try put("tb-1.vcf", card)
        XCTAssertEqual(created.status, 201, created.body)
        XCTAssertTrue(created.body.contains("ETag: \"1\"") && created.body.contains("Location: /books/local/tb-1.vcf"), created.body)
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Zoe Lane"))
        let history = try daemon.ctl("history", "zoe").stdout
        XCTAssertTrue(history.contains("carddav:Thunderbird/128.0"), history)
        // It stays at the address the client chose, with what contactsd has no field for.
        let got = try curl([base + "/books/local/tb-1.vcf"])
        XCTAssertTrue(got.body.contains("FN:Zoe Lane") && got.body.contains("X-MOZILLA-HTML:TRUE"), "[\(got.body)]")
        XCTAssertTrue(try propfind("/books/local/", depth: 1).body.contains("<d:href>/books/local/tb-1.vcf</d:href>"))
        // Conditions: a second create is refused, a stale If-Match too, and nothing changes.
        XCTAssertEqual(try put("tb-1.vcf", card, ["If-None-Match: *"]).status, 412)
        let edited = card.replacingOccurrences(of: "FN:Zoe Lane", with: "FN:Zoe Lane-Marsh")
        let updated = try put("tb-1.vcf", edited, ["If-Match: \"1\""])
        XCTAssertEqual(updated.status, 204, updated.body)
        XCTAssertTrue(updated.body.contains("ETag: \"2\""), updated.body)
        let stale = try put("tb-1.vcf", card, ["If-Match: \"1\""])
        XCTAssertEqual(stale.status, 412)
        XCTAssertTrue(stale.body.contains("fetch it again"), stale.body)
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Zoe Lane-Marsh"))
        // What cannot be stored, said with where and why; nothing changes.
        let changedUID = try put("tb-1.vcf", edited.replacingOccurrences(of: "UID:tb-1", with: "UID:other"))
        XCTAssertEqual(changedUID.status, 409)
        XCTAssertTrue(changedUID.body.contains("no-uid-conflict"), changedUID.body)
        XCTAssertEqual(try put("copy.vcf", card).status, 409, "a UID another card has")
        let broken = try put("bad.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:b\r\nNOTE:no name\r\nEND:VCARD\r\n")
        XCTAssertEqual(broken.status, 400)
        XCTAssertTrue(broken.body.contains("line 1: the card has no name"), broken.body)
        XCTAssertEqual(try put("two.vcf", card + card).status, 400)
        XCTAssertEqual(try curl(["-X", "PUT", "-H", "Content-Type: image/png", "--data", "x", base + "/books/local/p.vcf"]).status, 415)
        XCTAssertEqual(try curl(["-X", "PUT", "-H", "Content-Type: text/vcard", "--data", card, base + "/books/nope/x.vcf"]).status, 404)
        // Names that would leave the book, plain or encoded: nothing is written.
        let before = try daemon.ctl("list", "--json").stdout
        for name in ["..%2F..%2Fx.vcf", "a%2Fb.vcf", "%2E%2E/x.vcf", "sub/x.vcf"] {
            let r = try curl(["-X", "PUT", "-H", "Content-Type: text/vcard", "--data", card, "--path-as-is", base + "/books/local/" + name])
            XCTAssertTrue([400, 404, 405].contains(r.status), "\(name): \(r.status) \(r.body)")
        }
        XCTAssertEqual(try daemon.ctl("list", "--json").stdout, before)
        // A DELETE goes to the trash, and undo brings the card back where it was.
        XCTAssertEqual(try curl(["-X", "DELETE", "-H", "If-Match: \"1\"", base + "/books/local/tb-1.vcf"]).status, 412)
        XCTAssertEqual(try curl(["-X", "DELETE", "-H", "If-Match: \"2\"", base + "/books/local/tb-1.vcf"]).status, 204)
        XCTAssertEqual(try curl([base + "/books/local/tb-1.vcf"]).status, 404)
        XCTAssertTrue(try daemon.ctl("trash").stdout.contains("Zoe Lane-Marsh"))
        XCTAssertEqual(try daemon.ctl("undo").status, 0)
        XCTAssertEqual(try curl([base + "/books/local/tb-1.vcf"]).status, 200)
        XCTAssertEqual(try curl(["-X", "DELETE", base + "/books/local/none.vcf"]).status, 404)
    }

    func testAnotherContactsdSyncsAnAccountFromTheServedBook() throws {
        try serve()
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell", "-p", "+1 415 555 0100", "--group", "Work").status, 0)
        XCTAssertEqual(try daemon.ctl("add", "Anna Haro", "-e", "anna@example.com").status, 0)
        let other = try DaemonFixture()
        defer { other.cleanUp() }
        try other.start()
        let added = try other.ctl("account", "add", "desk", base + "/books/local/")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(try other.ctl("sync", "desk").status, 0)
        let names = try other.ctl("list").stdout
        XCTAssertTrue(names.contains("Kate Bell") && names.contains("Anna Haro"), names)
        XCTAssertTrue(try other.ctl("show", "kate").stdout.contains("Work"), "groups came too")
        // A change on the serving side arrives with the next sync.
        XCTAssertEqual(try daemon.ctl("edit", "anna", "--title", "Engineer").status, 0)
        XCTAssertEqual(try other.ctl("sync", "desk").status, 0)
        XCTAssertTrue(try other.ctl("show", "anna").stdout.contains("Engineer"))
        // Both ways: an edit and a new contact there come here, recorded as that client's.
        XCTAssertEqual(try other.ctl("edit", "kate", "--title", "Producer").status, 0)
        XCTAssertEqual(try other.ctl("add", "Carl Jung").status, 0)
        XCTAssertEqual(try other.ctl("move", "carl", "--to", "desk").status, 0)
        XCTAssertEqual(try other.ctl("sync", "desk").status, 0)
        XCTAssertTrue(try daemon.ctl("show", "kate").stdout.contains("Producer"))
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Carl Jung"))
        let history = try daemon.ctl("history", "kate").stdout
        XCTAssertTrue(history.contains("carddav:"), history)
        // A deletion here is a 404 member of the next sync-collection: gone there too.
        XCTAssertEqual(try daemon.ctl("rm", "anna").status, 0)
        XCTAssertEqual(try other.ctl("sync", "desk").status, 0)
        XCTAssertFalse(try other.ctl("list").stdout.contains("Anna Haro"))
        XCTAssertTrue(try other.ctl("list").stdout.contains("Carl Jung"))
    }

    func testABookIsRenamedByPROPPATCHAndNothingElseIsSet() throws {
        try serve()
        func proppatch(_ body: String) throws -> (status: Int, body: String) {
            try curl(["-X", "PROPPATCH", "-H", "Content-Type: application/xml", "--data", body, base + "/books/local/"])
        }
        func displayName() throws -> String {
            let r = try propfind("/books/local/", depth: 0, "<d:propfind xmlns:d='DAV:'><d:prop><d:displayname/></d:prop></d:propfind>")
            guard let start = r.body.range(of: "<d:displayname>"), let end = r.body.range(of: "</d:displayname>") else { return "" }
            return String(r.body[start.upperBound..<end.lowerBound])
        }
        XCTAssertEqual(try displayName(), "Contacts")
        let set = try proppatch(
            "<d:propertyupdate xmlns:d='DAV:'><d:set><d:prop><d:displayname>Family &amp; friends</d:displayname></d:prop></d:set></d:propertyupdate>"
        )
        XCTAssertEqual(set.status, 207)
        XCTAssertTrue(set.body.contains("<d:displayname/></d:prop><d:status>HTTP/1.1 200 OK"), set.body)
        XCTAssertEqual(try displayName(), "Family &amp; friends")
        // With a protected property beside it: 403 for that one, 424 for the name, nothing changed.
        let mixed = try proppatch(
            """
            <d:propertyupdate xmlns:d='DAV:' xmlns:cs='http://calendarserver.org/ns/'><d:set><d:prop>
            <d:displayname>Other</d:displayname><cs:getctag>1</cs:getctag></d:prop></d:set></d:propertyupdate>
            """)
        XCTAssertTrue(mixed.body.contains("HTTP/1.1 403 Forbidden") && mixed.body.contains("HTTP/1.1 424 Failed Dependency"), mixed.body)
        XCTAssertEqual(try displayName(), "Family &amp; friends")
        // Removed: the book's own name again.
        XCTAssertEqual(
            try proppatch("<d:propertyupdate xmlns:d='DAV:'><d:remove><d:prop><d:displayname/></d:prop></d:remove></d:propertyupdate>")
                .status,
            207)
        XCTAssertEqual(try displayName(), "Contacts")
        XCTAssertEqual(try proppatch("<nope/>").status, 400)
        XCTAssertEqual(
            try curl(["-X", "PROPPATCH", "--data", "<d:propertyupdate xmlns:d='DAV:'/>", base + "/books/nope/"]).status, 404)
    }

    func testGroupCardsAClientMakesAreGroupsHereAndServedBackAsCards() throws {
        try serve()
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell").status, 0)
        XCTAssertEqual(try daemon.ctl("add", "Anna Haro").status, 0)
        func uid(_ who: String) throws -> String {
            let json = try daemon.client().call("contacts.query", ["text": .string(who)])
            return json["contacts"]?.arrayValue?.first?["uid"]?.stringValue ?? ""
        }
        let (kate, anna) = (try uid("kate"), try uid("anna"))
        let before = try XCTUnwrap(token(try syncCollection(nil).body))
        func group(_ name: String, _ members: [String]) -> String {
            "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:band-1\r\nKIND:group\r\nFN:\(name)\r\n"
                + members.map { "MEMBER:\($0)\r\n" }.joined() + "END:VCARD\r\n"
        }
        // DAVx⁵ in its "groups are separate vCards" mode: the group card makes the group.
        let made = try put("band-1.vcf", group("Band", [kate]))
        XCTAssertEqual(made.status, 201, made.body)
        XCTAssertTrue(try daemon.ctl("show", "kate").stdout.contains("Band"))
        let v3 = try curl([base + "/books/local/band-1.vcf"])
        XCTAssertTrue(
            v3.body.contains("X-ADDRESSBOOKSERVER-KIND:group") && v3.body.contains("X-ADDRESSBOOKSERVER-MEMBER:\(kate)")
                && v3.body.contains("UID:band-1"), v3.body)
        let v4 = try curl(["-H", "Accept: text/vcard; version=4.0", base + "/books/local/band-1.vcf"])
        XCTAssertTrue(v4.body.contains("KIND:group") && v4.body.contains("MEMBER:\(kate)"), v4.body)
        // The group card and its member's card (CATEGORIES) are what changed since.
        let since = try syncCollection(before)
        XCTAssertTrue(since.body.contains("band-1.vcf"), since.body)
        XCTAssertEqual(since.body.components(separatedBy: "<d:getetag>").count - 1, 2, since.body)
        let idle = try XCTUnwrap(token(since.body))
        XCTAssertFalse(try syncCollection(idle).body.contains("<d:response>"), "the token goes past the group's change")
        // An edit of the card sets its members; its ETag moves; a stale one is refused.
        let etag = try XCTUnwrap(made.body.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }?.dropFirst(6))
        XCTAssertEqual(try put("band-1.vcf", group("Band", [kate, anna]), ["If-Match: \(etag)"]).status, 204)
        XCTAssertTrue(try daemon.ctl("show", "anna").stdout.contains("Band"))
        XCTAssertEqual(try put("band-1.vcf", group("Band", [anna]), ["If-Match: \(etag)"]).status, 412)
        XCTAssertTrue(try daemon.ctl("show", "kate").stdout.contains("Band"), "nothing changed")
        // Renamed here: the card says so.
        XCTAssertEqual(try daemon.ctl("group", "rename", "Band", "Trio").status, 0)
        XCTAssertTrue(try curl([base + "/books/local/band-1.vcf"]).body.contains("FN:Trio"))
        // Deleted there: the group goes, its members stay; a 404 member of the next sync.
        let beforeDelete = try XCTUnwrap(token(try syncCollection(nil).body))
        XCTAssertEqual(try curl(["-X", "DELETE", base + "/books/local/band-1.vcf"]).status, 204)
        XCTAssertFalse(try daemon.ctl("group", "list").stdout.contains("Trio"))
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Kate Bell"))
        XCTAssertTrue(try syncCollection(beforeDelete).body.contains("band-1.vcf</d:href><d:status>HTTP/1.1 404"))
        // A group card with no UID, or no name: refused with why.
        let nameless = try put("x.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:x\r\nEND:VCARD\r\n")
        XCTAssertEqual(nameless.status, 400)
        XCTAssertTrue(nameless.body.contains("no FN"), nameless.body)
    }

    func testCollectedAddressesAreABookOfTheirOwnAndLeaveItWhenKept() throws {
        try serve()
        _ = try daemon.ctl("add", "Kate Bell", "-e", "kate@example.com")
        let added = try daemon.ctl(
            "mail", "add", "--json", stdin: "From: Zed Stranger <zed@example.org>\nMessage-ID: <z@x>\n\nhello\n")
        XCTAssertEqual(added.status, 0, added.stderr)
        let zed = try XCTUnwrap(added.stdout.split(separator: "\"").first { $0.count == 36 }.map(String.init))
        let books = try propfind("/books/", depth: 1)
        XCTAssertTrue(books.body.contains("<d:href>/books/collected/</d:href>"), books.body)
        XCTAssertTrue(books.body.contains("Collected addresses"), books.body)
        let local = try propfind("/books/local/", depth: 1, "<d:propfind xmlns:d='DAV:'><d:prop><d:getetag/></d:prop></d:propfind>")
        XCTAssertFalse(local.body.contains(zed), "the book of this machine has no strangers")
        XCTAssertEqual(try curl([base + "/books/collected/\(zed).vcf"]).status, 200)
        let before = try syncCollection(nil, book: "collected")
        XCTAssertTrue(before.body.contains("/books/collected/\(zed).vcf"), before.body)
        let localBefore = try syncCollection(nil)
        // Kept: gone from the collected book (a 404 member of its next sync), in the other.
        XCTAssertEqual(try daemon.ctl("keep", zed).status, 0)
        let after = try syncCollection(token(before.body), book: "collected")
        XCTAssertTrue(after.body.contains("<d:href>/books/collected/\(zed).vcf</d:href><d:status>HTTP/1.1 404"), after.body)
        let localAfter = try syncCollection(token(localBefore.body))
        XCTAssertTrue(localAfter.body.contains("/books/local/\(zed).vcf"), localAfter.body)
        // Thunderbird writing to its collected addresses: the card stays collected.
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:tb-collected\r\nFN:Tom Thunder\r\nEMAIL:tom@example.org\r\nEND:VCARD\r\n"
        let put = try curl(["-X", "PUT", "-H", "Content-Type: text/vcard", "--data", card, base + "/books/collected/tb-collected.vcf"])
        XCTAssertEqual(put.status, 201, put.body)
        XCTAssertTrue(try daemon.ctl("collected").stdout.contains("Tom Thunder"))
        XCTAssertFalse(try daemon.ctl("list").stdout.contains("Tom Thunder"))
    }

    func syncCollection(_ token: String?, limit: Int? = nil, agent: String = "DAVx5/4.4", book: String = "local") throws -> (
        status: Int, body: String
    ) {
        let body = """
            <d:sync-collection xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">
            <d:sync-token>\(token ?? "")</d:sync-token><d:sync-level>1</d:sync-level>
            \(limit.map { "<d:limit><d:nresults>\($0)</d:nresults></d:limit>" } ?? "")
            <d:prop><d:getetag/></d:prop></d:sync-collection>
            """
        return try curl([
            "-X", "REPORT", "-H", "Depth: 1", "-H", "Content-Type: application/xml", "-H", "User-Agent: \(agent)", "--data", body,
            base + "/books/\(book)/",
        ])
    }

    /// The token a multistatus ends with.
    func token(_ body: String) -> String? {
        guard let start = body.range(of: "<d:sync-token>"),
            let end = body.range(of: "</d:sync-token>", range: start.upperBound..<body.endIndex)
        else { return nil }
        return String(body[start.upperBound..<end.lowerBound])
    }

    func testSyncCollectionTellsWhatChangedSinceAToken() throws {
        try serve()
        for name in ["Kate Bell", "Anna Haro", "Carl Jung"] { XCTAssertEqual(try daemon.ctl("add", name).status, 0) }
        // The book says it answers sync-collection, and its token.
        let book = try propfind(
            "/books/local/", depth: 0, "<d:propfind xmlns:d='DAV:'><d:prop><d:sync-token/><d:supported-report-set/></d:prop></d:propfind>")
        XCTAssertTrue(book.body.contains("<d:sync-collection/>"), book.body)
        let advertised = try XCTUnwrap(token(book.body), book.body)

        let first = try syncCollection(nil)
        XCTAssertEqual(first.status, 207)
        XCTAssertEqual(first.body.components(separatedBy: "<d:getetag>").count - 1, 3, first.body)
        XCTAssertEqual(token(first.body), advertised)
        // Nothing changed: nothing, the same token.
        let idle = try syncCollection(advertised)
        XCTAssertFalse(idle.body.contains("<d:response>"), idle.body)
        XCTAssertEqual(token(idle.body), advertised)

        XCTAssertEqual(try daemon.ctl("edit", "kate", "--title", "Producer").status, 0)
        XCTAssertEqual(try daemon.ctl("rm", "anna").status, 0)
        let anna = try XCTUnwrap(try daemon.ctl("trash", "--json").stdout.split(separator: "\"").drop { $0 != "id" }.dropFirst(2).first)
        let after = try syncCollection(advertised)
        XCTAssertEqual(after.body.components(separatedBy: "<d:getetag>\"2\"</d:getetag>").count - 1, 1, after.body)
        XCTAssertTrue(
            after.body.contains("<d:href>/books/local/\(anna).vcf</d:href><d:status>HTTP/1.1 404 Not Found</d:status>"), after.body)
        XCTAssertFalse(after.body.contains("Carl"), "an unchanged card is not listed")
        let next = try XCTUnwrap(token(after.body))
        XCTAssertNotEqual(next, advertised)

        // A limit of 1: the first change, a 507 for the book, and a token that goes on.
        let cut = try syncCollection(advertised, limit: 1)
        XCTAssertEqual(cut.body.components(separatedBy: "<d:response>").count - 1, 2, cut.body)
        XCTAssertTrue(cut.body.contains("<d:href>/books/local/</d:href><d:status>HTTP/1.1 507 Insufficient Storage"), cut.body)
        let rest = try syncCollection(try XCTUnwrap(token(cut.body)), limit: 1)
        XCTAssertTrue(rest.body.contains("\(anna).vcf</d:href><d:status>HTTP/1.1 404"), rest.body)
        XCTAssertFalse(rest.body.contains("HTTP/1.1 507"), rest.body)
        XCTAssertEqual(token(rest.body), next)

        // A token not of this server: 403 valid-sync-token, or 400 for Thunderbird, which starts
        // again only after a 400.
        let foreign = try syncCollection("http://radicale.org/ns/sync/abc")
        XCTAssertEqual(foreign.status, 403)
        XCTAssertTrue(foreign.body.contains("valid-sync-token"), foreign.body)
        XCTAssertEqual(try syncCollection("urn:x-contactsd:sync:999999", agent: "Mozilla/5.0 Thunderbird/128.0").status, 400)
        XCTAssertEqual(try syncCollection(nil, limit: 0).status, 400)
    }

    func testSIGHUPMovesAndStopsTheListener() throws {
        try serve()
        XCTAssertEqual(try curl([base + "/"]).status, 200)
        let old = base
        port = try DAVServer.freePort()
        try configure(#"{"carddav": {"listen": "[::1]:\#(port)"}}"#)
        kill(try XCTUnwrap(daemon.process?.processIdentifier), SIGHUP)
        XCTAssertTrue(daemon.notify?.wait(for: "READY=1", count: 2) ?? false)
        XCTAssertEqual(try curl(["http://[::1]:\(port)/"]).status, 200, "listening at the new address")
        XCTAssertEqual(try curl([old + "/"]).status, 0, "and no more at the old one")
        try configure("{}")
        kill(try XCTUnwrap(daemon.process?.processIdentifier), SIGHUP)
        XCTAssertTrue(daemon.notify?.wait(for: "READY=1", count: 3) ?? false)
        XCTAssertEqual(try curl(["http://[::1]:\(port)/"]).status, 0, "stopped")
        // A non-loopback address is refused, and what was in force stays.
        try configure(#"{"carddav": {"listen": "0.0.0.0:\#(port)"}}"#)
        kill(try XCTUnwrap(daemon.process?.processIdentifier), SIGHUP)
        XCTAssertTrue(daemon.notify?.wait(for: "configuration not reloaded", count: 1) ?? false)
        XCTAssertTrue(daemon.log.contains("not a loopback address"), daemon.log)
    }

    func testServeEnableURLAndDisableFromTheCommandLine() throws {
        try daemon.start()
        let off = try daemon.ctl("serve", "url")
        XCTAssertEqual(off.status, 1)
        XCTAssertTrue(off.stderr.contains("CardDAV is off") && off.stderr.contains("serve enable"), off.stderr)
        // libmicrohttpd, and the TLS libraries it brings, are loaded when the first client
        // connects: listening alone costs nothing.
        func mapped() throws -> Bool {
            let files = try daemon.mappedFiles()
            return files.contains("libmicrohttpd") || files.contains("libgnutls")
        }
        XCTAssertFalse(try mapped(), "mapped before anything is served")
        port = try DAVServer.freePort()
        let on = try daemon.ctl("serve", "enable", "--port", String(port))
        XCTAssertEqual(on.status, 0, on.stderr)
        XCTAssertTrue(on.stdout.contains("Serving CardDAV at \(base)/"), on.stdout)
        let config = try String(contentsOfFile: daemon.home + "/config/contactsd/config.json", encoding: .utf8)
        XCTAssertTrue(config.contains("\"listen\":\"127.0.0.1:\(port)\""), config)
        XCTAssertFalse(try mapped(), "listening, with no client yet")
        XCTAssertEqual(try curl([base + "/books/local/"]).status, 200, "the first connection is served")
        XCTAssertTrue(try daemon.mappedFiles().contains("libmicrohttpd"))
        XCTAssertEqual(try daemon.ctl("serve", "url", "local").stdout, base + "/books/local/\n")
        let refused = try daemon.ctl("serve", "enable", "--address", "0.0.0.0")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("not a loopback address"), refused.stderr)
        XCTAssertEqual(try curl([base + "/books/local/"]).status, 200, "what was in force stays")
        XCTAssertEqual(try daemon.ctl("serve", "disable").status, 0)
        XCTAssertEqual(try curl([base + "/"]).status, 0)
        XCTAssertFalse(try String(contentsOfFile: daemon.home + "/config/contactsd/config.json", encoding: .utf8).contains("carddav"))
    }

    /// vdirsyncer syncing the served book into a vdir, and khard reading and writing that vdir:
    /// what a khard user does with any CardDAV server.
    func testKhardThroughVdirsyncerReadsAndWritesTheServedBook() throws {
        let venv = Products.repository.appendingPathComponent(".venv/bin").path
        guard FileManager.default.isExecutableFile(atPath: venv + "/vdirsyncer"),
            FileManager.default.isExecutableFile(atPath: venv + "/khard")
        else { throw XCTSkip("vdirsyncer and khard are not in .venv (scripts/install-deps.sh installs them)") }
        try serve()
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell", "-p", "+1 415 555 0100", "-e", "kate@example.com").status, 0)
        XCTAssertEqual(try daemon.ctl("add", "Anna Haro", "-e", "anna@example.com").status, 0)
        let vdir = daemon.home + "/vdir/"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let config = daemon.home + "/vdirsyncer.conf"
        try """
        [general]
        status_path = "\(daemon.home)/vdirsyncer-status/"

        [pair served]
        a = "served_remote"
        b = "served_local"
        collections = null
        conflict_resolution = "a wins"

        [storage served_remote]
        type = "carddav"
        url = "\(base)/books/local/"

        [storage served_local]
        type = "filesystem"
        path = "\(vdir)"
        fileext = ".vcf"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let khardConfig = daemon.home + "/khard.conf"
        try "[addressbooks]\n[[contacts]]\npath = \(vdir)\n[general]\neditor = /bin/true\nmerge_editor = /bin/true\n".write(
            toFile: khardConfig, atomically: true, encoding: .utf8)
        let env = daemon.environment
        func vdirsyncer(_ args: String...) throws -> ProcessResult {
            let r = try runProgram(venv + "/vdirsyncer", ["-c", config] + args, environment: env, stdin: "y\ny\n", timeout: 60)
            XCTAssertEqual(r.status, 0, "vdirsyncer \(args): \(r.stdout)\(r.stderr)")
            return r
        }
        func khard(_ args: [String], stdin: String? = nil) throws -> ProcessResult {
            try runProgram(venv + "/khard", ["-c", khardConfig] + args, environment: env, stdin: stdin, timeout: 60)
        }
        _ = try vdirsyncer("discover")
        _ = try vdirsyncer("sync")
        let listed = try khard(["list"]).stdout
        XCTAssertTrue(listed.contains("Kate Bell") && listed.contains("Anna Haro"), listed)
        // A contact made in khard goes up with the next sync, as a card of contactsd.
        let made = try khard(["new", "-a", "contacts"], stdin: "First name : Zed\nLast name : Lane\nEmail :\n    home : zed@example.org\n")
        XCTAssertEqual(made.status, 0, made.stderr)
        _ = try vdirsyncer("sync")
        XCTAssertTrue(try daemon.ctl("show", "zed").stdout.contains("zed@example.org"))
        XCTAssertTrue(try daemon.ctl("history", "zed").stdout.contains("carddav:"), "recorded as a CardDAV client's write")
        // An edit here reaches khard; a contact deleted in the vdir goes to contactsd's trash.
        XCTAssertEqual(try daemon.ctl("edit", "anna", "--title", "Engineer").status, 0)
        _ = try vdirsyncer("sync")
        XCTAssertTrue(try khard(["show", "Anna"]).stdout.contains("Engineer"))
        let kateFile = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: vdir).first {
                (try? String(contentsOfFile: vdir + $0, encoding: .utf8))?.contains("FN:Kate Bell") ?? false
            })
        try FileManager.default.removeItem(atPath: vdir + kateFile)
        _ = try vdirsyncer("sync")
        XCTAssertTrue(try daemon.ctl("trash").stdout.contains("Kate Bell"))
        XCTAssertFalse(try daemon.ctl("list").stdout.contains("Kate Bell"))
    }

    func testAnAddressBookQueryFindsCardsByTheirPropertiesAsEvolutionAsks() throws {
        try serve()
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell", "-p", "+1 415 555 0100", "-e", "kate@example.com").status, 0)
        XCTAssertEqual(try daemon.ctl("add", "Anna Haro", "-e", "anna@work.example.org").status, 0)
        XCTAssertEqual(try daemon.ctl("add", "Katja Kowalski", "--nickname", "KK").status, 0)
        func query(_ filter: String, limit: Int? = nil) throws -> (status: Int, body: String) {
            let nresults = limit.map { "<c:limit><c:nresults>\($0)</c:nresults></c:limit>" } ?? ""
            let body = """
                <c:addressbook-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">
                <d:prop><d:getetag/><c:address-data/></d:prop>\(filter)\(nresults)</c:addressbook-query>
                """
            return try curl([
                "-X", "REPORT", "-H", "Depth: 1", "-H", "Content-Type: application/xml", "--data", body, base + "/books/local/",
            ])
        }
        func names(_ r: (status: Int, body: String)) -> [String] {
            r.body.components(separatedBy: "FN:").dropFirst().compactMap { $0.split(separator: "&").first.map(String.init) }.sorted()
        }
        let kat = try query(
            #"<c:filter><c:prop-filter name="FN"><c:text-match collation="i;unicode-casemap" match-type="contains">KAT</c:text-match></c:prop-filter></c:filter>"#
        )
        XCTAssertEqual(kat.status, 207)
        XCTAssertEqual(names(kat), ["Kate Bell", "Katja Kowalski"], kat.body)
        let byEmail = try query(
            #"<c:filter test="anyof"><c:prop-filter name="EMAIL"><c:text-match match-type="ends-with">@work.example.org</c:text-match></c:prop-filter><c:prop-filter name="NICKNAME"><c:text-match match-type="equals">kk</c:text-match></c:prop-filter></c:filter>"#
        )
        XCTAssertEqual(names(byEmail), ["Anna Haro", "Katja Kowalski"], byEmail.body)
        let noEmail = try query(#"<c:filter><c:prop-filter name="EMAIL"><c:is-not-defined/></c:prop-filter></c:filter>"#)
        XCTAssertEqual(names(noEmail), ["Katja Kowalski"])
        let limited = try query("", limit: 2)
        XCTAssertEqual(names(limited).count, 2)
        XCTAssertTrue(limited.body.contains("507 Insufficient Storage"), limited.body)
        XCTAssertEqual(
            try query(
                #"<c:filter><c:prop-filter name="FN"><c:text-match collation="i;klingon">x</c:text-match></c:prop-filter></c:filter>"#
            )
            .status, 403)
    }

    func testHostileBodiesAreRefusedAndTheDaemonStays() throws {
        try serve()
        func send(_ body: String, method: String = "PROPFIND") throws -> (status: Int, body: String) {
            let file = daemon.home + "/hostile-\(UUID().uuidString.prefix(6)).xml"
            try body.write(toFile: file, atomically: true, encoding: .utf8)
            defer { unlink(file) }
            return try curl(["-X", method, "-H", "Depth: 0", "--data-binary", "@" + file, base + "/books/local/"])
        }
        // Nested a hundred thousand deep: it took the daemon's stack down before.
        let deep = try send("<d:propfind xmlns:d=\"DAV:\">" + String(repeating: "<d:prop>", count: 100_000) + "</d:propfind>")
        XCTAssertEqual(deep.status, 400)
        XCTAssertTrue(deep.body.contains("deeper than 64"), deep.body)
        XCTAssertEqual(try send(String(repeating: "<a>", count: 100_000), method: "REPORT").status, 400)
        // Entities that expand a billion times, and one that reads a file.
        var entities = "<!ENTITY l0 \"lol\">"
        for i in 1...9 { entities += "<!ENTITY l\(i) \"" + String(repeating: "&l\(i - 1);", count: 10) + "\">" }
        let laughs = try send(
            "<?xml version=\"1.0\"?><!DOCTYPE d:propfind [\(entities)]><d:propfind xmlns:d=\"DAV:\"><d:prop><d:displayname>&l9;</d:displayname></d:prop></d:propfind>"
        )
        XCTAssertEqual(laughs.status, 400)
        let external = try send(
            #"<?xml version="1.0"?><!DOCTYPE d:propfind [<!ENTITY x SYSTEM "file:///etc/passwd">]><d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&x;</d:displayname></d:prop></d:propfind>"#
        )
        XCTAssertFalse(external.body.contains("root:"), "no file is read into an answer")
        XCTAssertEqual(try curl([base + "/"]).status, 200, "still serving")
        XCTAssertNotNil(daemon.process.map { $0.isRunning ? $0 : nil } ?? nil)
    }

    func testAnotherUserIsRefusedAndLogged() throws {
        guard getuid() == 0 else { throw XCTSkip("dropping to another user needs root") }
        try serve()
        let refused = try curl([base + "/books/"], as: 65534)
        XCTAssertEqual(refused.status, 403)
        XCTAssertTrue(daemon.log.contains("refused a connection from uid 65534"), daemon.log)
        XCTAssertEqual(try curl([base + "/books/"]).status, 200)
    }
}
