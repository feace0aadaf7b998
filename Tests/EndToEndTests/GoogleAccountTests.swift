import Foundation
import JSONCore
import TestSupport
import XCTest

/// A Google account added from the command line and synced by the real daemon through the
/// People API, played by `Tests/fakes/people_fake.py`: its people, labels and starred come in,
/// and what changes here goes back.
final class GoogleAccountTests: DaemonTestCase {
    func testAGoogleAccountSyncsLabelsAndStarredBothWays() throws {
        let google = try PeopleServer()
        defer { google.stop() }
        let made = try google.call("POST", "/v1/contactGroups", ["contactGroup": ["name": "Choir"]])
        let choir = try XCTUnwrap((made.json as? [String: Any])?["resourceName"] as? String)
        let grace = try google.create([
            "names": [["givenName": "Grace", "familyName": "Hopper"]],
            "memberships": [["contactGroupMembership": ["contactGroupResourceName": "contactGroups/starred"]]],
        ])
        _ = try google.create([
            "names": [["givenName": "Ada", "familyName": "King"]], "emailAddresses": [["value": "ada@example.org"]],
            "memberships": [["contactGroupMembership": ["contactGroupResourceName": choir]]],
        ])
        let refused = try daemon.ctl(
            "account", "add", "g", "--google", "--token-command", "printf wrong", "--people-url", google.root.absoluteString)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("401"), refused.stderr)
        let added = try daemon.ctl(
            "account", "add", "g", "--google", "--token-command", "printf \(google.token)", "--people-url", google.root.absoluteString,
            "--json")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stdout.contains("kate@example.com"), "the account is named by its user: \(added.stdout)")
        let synced = try daemon.ctl("sync", "g")
        XCTAssertEqual(synced.status, 0, synced.stderr)
        let contacts = try daemon.client().call("contacts.query", [:])["contacts"]?.arrayValue ?? []
        let byName = Dictionary(contacts.compactMap { c in c["name"]?.stringValue.map { ($0, c) } }) { a, _ in a }
        XCTAssertEqual(byName["Grace Hopper"]?["favorite"]?.boolValue, true, "\(contacts)")
        XCTAssertEqual(byName["Ada King"]?["groups"], .array(["Choir"]))
        // Edited here: starred taken away, a label given; both reach Google.
        XCTAssertEqual(try daemon.ctl("unfav", "Grace").status, 0)
        XCTAssertEqual(try daemon.ctl("group", "assign", "Grace", "Choir").status, 0)
        XCTAssertEqual(try daemon.ctl("sync", "g").status, 0)
        let groups = ((try google.person(grace)?["memberships"] as? [[String: Any]]) ?? []).compactMap {
            ($0["contactGroupMembership"] as? [String: Any])?["contactGroupResourceName"] as? String
        }
        XCTAssertEqual(Set(groups), ["contactGroups/myContacts", choir], "\(groups)\n\(daemon.log)")
        let history = try daemon.ctl("history", "Ada")
        XCTAssertTrue(history.stdout.contains("sync:g"), history.stdout)
        XCTAssertFalse(daemon.log.contains(google.token), "the token is in no log")
    }
}

/// Signing in to Google without a helper: contactsctl opens the browser (a stand-in
/// `xdg-open` that follows the fake's consent redirect to the daemon's loopback listener), the
/// refresh token goes to the Secret Service (gnome-keyring on a private bus) and nowhere else,
/// an access token that expires mid-sync is renewed, and a revoked grant stops the account
/// with a status that says to sign in again.
final class GoogleSignInTests: DaemonTestCase {
    func testSigningInKeepsTheGrantInTheKeyringAloneAndARevokedOneAsksToSignInAgain() throws {
        let google = try PeopleServer()
        defer { google.stop() }
        let keyring = try TestKeyring()
        defer { keyring.stop() }
        daemon.stop()
        try daemon.start(extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": keyring.bus])
        let bin = daemon.home + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        // It follows the consent page's redirect; where the page is an error (no redirect), the
        // person gives up: Ctrl-C in the terminal.
        try """
        #!/bin/sh
        echo "$1" >> "$(dirname "$0")/opened"
        /usr/bin/curl -sf -L -o /dev/null --max-time 20 "$1" || kill -INT $PPID

        """.write(toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
        chmod(bin + "/xdg-open", 0o755)
        let browser = ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "BROWSER": ""]
        let root = google.root.absoluteString
        _ = try google.create(["names": [["givenName": "Grace", "familyName": "Hopper"]]])
        let endpoints = ["--people-url", root, "--auth-url", root + "o/oauth2/v2/auth", "--token-url", root + "token"]

        let wrongClient = try daemon.ctl(
            ["account", "add", "g", "--google", "--client-id", "someone-else"] + endpoints, extraEnvironment: browser)
        XCTAssertNotEqual(wrongClient.status, 0, "a client the server does not know signs no one in")
        let added = try daemon.ctl(
            ["account", "add", "g", "--google", "--client-id", "test-client", "--client-secret", "test-secret"] + endpoints,
            extraEnvironment: browser)
        XCTAssertEqual(added.status, 0, added.stderr + daemon.log)
        XCTAssertTrue(added.stderr.contains(root + "o/oauth2/v2/auth?"), "the address is printed: \(added.stderr)")
        let opened = try String(contentsOfFile: bin + "/opened", encoding: .utf8)
        for part in ["code_challenge_method=S256", "state=", "redirect_uri=http://127.0.0.1:", "client_id=test-client"] {
            XCTAssertTrue(opened.removingPercentEncoding?.contains(part) == true, "\(part) in \(opened)")
        }
        let refresh = try XCTUnwrap(try keyring.lookup(account: "g", kind: "google-refresh-token"), "the grant is in the keyring")
        XCTAssertTrue(refresh.hasPrefix("1//"), refresh)
        XCTAssertEqual(try keyring.lookup(account: "g", kind: "google-client-secret"), "test-secret")
        // Nowhere in plain: not under the daemon's data, configuration, cache or runtime directories.
        let grep = try runProgram("/bin/grep", ["-rlF", "-e", refresh, "-e", "test-secret", daemon.home], environment: [:])
        XCTAssertEqual(grep.stdout, "", "found in plain in: \(grep.stdout)")
        XCTAssertFalse(daemon.log.contains(refresh))

        XCTAssertEqual(try daemon.ctl("sync", "g").status, 0)
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Grace Hopper"))
        // The access token lapses on Google's clock mid-session: renewed once, the sync goes on.
        try google.advance(seconds: 2 * 3600)
        XCTAssertEqual(try daemon.ctl("edit", "Grace", "--title", "Rear Admiral").status, 0)
        let renewed = try daemon.ctl("sync", "g")
        XCTAssertEqual(renewed.status, 0, renewed.stderr + daemon.log)
        XCTAssertEqual(try google.people().first?["organizations"].map { "\($0)" }?.contains("Rear Admiral"), true)

        // The grant revoked: the account stops with a status that says what to do; nothing goes.
        try google.call("POST", "/_test/revoke")
        try google.advance(seconds: 2 * 3600)
        let refused = try daemon.ctl("sync", "g")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("contactsctl account login g"), refused.stderr)
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Grace Hopper"), "nothing deleted")
        let status = try daemon.ctl("sync", "status")
        XCTAssertTrue(status.stdout.contains("invalid_grant"), status.stdout)
        let login = try daemon.ctl(["account", "login", "g"], extraEnvironment: browser)
        XCTAssertEqual(login.status, 0, login.stderr + daemon.log)
        XCTAssertNotEqual(try keyring.lookup(account: "g", kind: "google-refresh-token"), refresh, "a new grant replaced the old")
        XCTAssertEqual(try daemon.ctl("sync", "g").status, 0)
        // Removed: the keyring forgets it.
        XCTAssertEqual(try daemon.ctl("account", "rm", "g").status, 0)
        XCTAssertNil(try keyring.lookup(account: "g", kind: "google-refresh-token"))
    }

    func testWithoutASecretServiceTheSignInSaysSoBeforeOpeningABrowser() throws {
        let google = try PeopleServer()
        defer { google.stop() }
        daemon.stop()
        try daemon.start(extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(daemon.home)/no-bus"])
        let root = google.root.absoluteString
        let r = try daemon.ctl(
            "account", "add", "g", "--google", "--client-id", "test-client", "--people-url", root, "--auth-url", root + "o/oauth2/v2/auth",
            "--token-url", root + "token")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("Secret Service") && r.stderr.contains("--token-command"), r.stderr)
        XCTAssertFalse(r.stderr.contains("Sign in to Google"), "no browser for nothing")
    }
}

/// A Google account of GNOME Online Accounts (a stand-in of GOA's documented D-Bus service,
/// `Tests/fakes/goa_fake.py`, on a private session bus): found and used with nothing to type,
/// its tokens asked of GOA at each sync; switched off or removed there, the account stops with
/// a status that says so and nothing is deleted.
final class GnomeOnlineAccountsTests: DaemonTestCase {
    func testTheGoogleAccountOfGnomeOnlineAccountsSyncsWithNothingToType() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
            (try? runProgram("/usr/bin/python3", ["-c", "import gi"], environment: [:]).status) == 0
        else { throw XCTSkip("python3-gi is missing (scripts/install-deps.sh installs it)") }
        let google = try PeopleServer()
        defer { google.stop() }
        let session = try TestKeyring()
        defer { session.stop() }
        let accountsFile = session.directory + "/goa.json"
        func goa(_ accounts: [[String: Any]]) throws {
            try JSONSerialization.data(withJSONObject: accounts).write(to: URL(fileURLWithPath: accountsFile + ".new"))
            _ = rename(accountsFile + ".new", accountsFile)
        }
        try goa([
            ["provider": "google", "identity": "kate@example.com", "token": google.token],
            ["provider": "windows_live", "identity": "kate@outlook.example"],
        ])
        let script = Products.repository.appendingPathComponent("Tests/fakes/goa_fake.py").path
        try session.start("exec /usr/bin/python3 \"$GOA\" \"$ACCOUNTS\"", environment: ["GOA": script, "ACCOUNTS": accountsFile])
        daemon.stop()
        try daemon.start(extraEnvironment: ["DBUS_SESSION_BUS_ADDRESS": session.bus])
        _ = try google.create(["names": [["givenName": "Grace", "familyName": "Hopper"]]])
        var added = try daemon.ctl("account", "add", "g", "--google", "--people-url", google.root.absoluteString)
        for _ in 0..<50 where added.status != 0 && added.stderr.contains("org.gnome.OnlineAccounts") {
            // The stand-in takes its name on the bus a moment after it starts.
            usleep(100_000)
            added = try daemon.ctl("account", "add", "g", "--google", "--people-url", google.root.absoluteString)
        }
        XCTAssertEqual(added.status, 0, added.stderr + daemon.log)
        XCTAssertTrue(added.stdout.contains("kate@example.com"), added.stdout)
        XCTAssertEqual(try daemon.ctl("sync", "g").status, 0)
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Grace Hopper"))
        let other = try daemon.ctl(
            "account", "add", "h", "--google", "--goa-account", "nobody@example.com", "--people-url", google.root.absoluteString)
        XCTAssertNotEqual(other.status, 0)
        XCTAssertTrue(other.stderr.contains("kate@example.com"), "says which accounts there are: \(other.stderr)")

        // GOA needs the person to sign in again: the sync says so.
        try goa([["provider": "google", "identity": "kate@example.com", "token": google.token, "attentionNeeded": true]])
        let attention = try daemon.ctl("sync", "g")
        XCTAssertNotEqual(attention.status, 0)
        XCTAssertTrue(attention.stderr.contains("sign in to kate@example.com again"), attention.stderr)
        // Contacts switched off in Settings: the sync stops and says so; nothing goes.
        try goa([["provider": "google", "identity": "kate@example.com", "token": google.token, "contactsDisabled": true]])
        let off = try daemon.ctl("sync", "g")
        XCTAssertNotEqual(off.status, 0)
        XCTAssertTrue(off.stderr.contains("switched off"), off.stderr)
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Grace Hopper"))
        // Removed from GOA: the same, and it says to add it again.
        try goa([])
        let gone = try daemon.ctl("sync", "g")
        XCTAssertTrue(gone.stderr.contains("no longer has"), gone.stderr)
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Grace Hopper"), "nothing deleted")
        let keptFiles = try runProgram("/bin/grep", ["-rlF", google.token, daemon.home], environment: [:])
        XCTAssertEqual(keptFiles.stdout, "", "contactsd keeps no token of GOA's")
    }
}
