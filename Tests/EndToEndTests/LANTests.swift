import Foundation
import XCTest

/// The LAN face with clients nobody here wrote, in network namespaces the test makes: the
/// daemon listens in the server's (198.18.0.1), curl, openssl, gnutls-cli, vdirsyncer, khard,
/// Python and a second contactsd connect from the client's (198.18.0.2).
final class LANTests: FixtureTestCase {
    var network: TestNetwork!
    let port = "5233"
    var base: String { "https://\(network.serverAddress):\(port)" }
    var certificatePath: String { daemon.dataDir + "/lan/certificate.pem" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        network = try TestNetwork()
        try daemon.start(namespace: network.server)
        let r = try daemon.ctl("serve", "lan", "enable", "--address", network.serverAddress, "--port", port)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\(base)/"), r.stdout)
    }

    override func tearDown() {
        super.tearDown()
        network?.remove()
    }

    /// Adds a device; returns its password and the fingerprint it was given.
    func addDevice(_ name: String, _ options: [String] = []) throws -> (password: String, fingerprint: String) {
        let r = try daemon.ctl(["serve", "device", "add", name, "--json"] + options)
        XCTAssertEqual(r.status, 0, r.stderr)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
        return (try XCTUnwrap(o["password"] as? String), try XCTUnwrap(o["fingerprint"] as? String))
    }

    /// The certificate's public key as curl pins it (`sha256//BASE64`).
    func pin() throws -> String {
        let r = try runProgram(
            "/bin/sh",
            [
                "-c",
                "openssl x509 -in \"$0\" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
                certificatePath,
            ], environment: ProcessInfo.processInfo.environment)
        return "sha256//" + r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// curl from the client's namespace, trusting the certificate and pinning its key; prints
    /// the status last.
    func curl(_ args: [String], pin pinned: String? = nil) throws -> ProcessResult {
        try network.inClient(
            "/usr/bin/curl",
            ["-sS", "--cacert", certificatePath, "--pinnedpubkey", try pinned ?? pin(), "-w", "\n%{http_code}", "--max-time", "20"] + args)
    }

    func status(_ r: ProcessResult) -> Int { Int(r.stdout.split(separator: "\n").last ?? "") ?? 0 }

    static func card(_ uid: String, _ name: String) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(name.split(separator: " ").last ?? "");\(name.split(separator: " ").first ?? "");;;\r\nEND:VCARD\r\n"
    }

    func testAPhonePairsWithItsQRCodeAndSyncsOverTLSEveryChangeItsOwn() throws {
        let qr = daemon.home + "/phone.png"
        let phone = try addDevice("phone", ["--qr", qr])
        let scanned = try runProgram("/usr/bin/zbarimg", ["-q", "--raw", qr], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(scanned.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "davx5://phone@\(network.serverAddress):\(port)/")
        XCTAssertFalse(scanned.stdout.contains(phone.password), "no password in the code unless asked")
        let shown = try daemon.ctl("serve", "certificate")
        XCTAssertTrue(shown.stdout.contains(phone.fingerprint), shown.stdout)

        // Discovery, the book, a card the phone makes.
        let auth = ["-u", "phone:\(phone.password)"]
        XCTAssertEqual(status(try curl(auth + ["-X", "PROPFIND", "\(base)/.well-known/carddav"])), 301)
        XCTAssertEqual(status(try curl(auth + ["-X", "PROPFIND", "-H", "Depth: 1", "\(base)/books/local/"])), 207)
        let file = daemon.home + "/ada.vcf"
        try Self.card("ada-1", "Ada Lovelace").write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(status(try curl(auth + ["-T", file, "-H", "Content-Type: text/vcard", "\(base)/books/local/ada-1.vcf"])), 201)
        let history = try daemon.ctl("history", "Ada Lovelace")
        XCTAssertTrue(history.stdout.contains("carddav:phone"), "the history names the device: \(history.stdout)")
        // The phone's change is undone like any other; the desk's reaches the phone.
        let undo = try daemon.ctl("undo")
        XCTAssertEqual(undo.status, 0, undo.stderr)
        XCTAssertNotEqual(try daemon.ctl("show", "Ada Lovelace").status, 0, "undone")
        XCTAssertEqual(try daemon.ctl("add", "Grace Hopper").status, 0)
        let grace = try daemon.ctl("show", "Grace Hopper", "--json")
        let id = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(grace.stdout.utf8)) as? [String: Any])?["id"] as? String)
        let listing = try curl(auth + ["-X", "PROPFIND", "-H", "Depth: 1", "\(base)/books/local/"])
        XCTAssertTrue(listing.stdout.contains("/books/local/\(id).vcf"), listing.stdout)
        XCTAssertFalse(listing.stdout.contains("ada-1.vcf"))
        // A wrong pin, a plain HTTP request: nothing is said.
        let wrongPin = try curl(auth + ["\(base)/"], pin: "sha256//" + Data(repeating: 7, count: 32).base64EncodedString())
        XCTAssertNotEqual(wrongPin.status, 0, "curl refuses a key it did not pin")
        let plain = try network.inClient(
            "/usr/bin/curl", ["-sS", "--max-time", "10", "-w", "%{http_code}", "http://\(network.serverAddress):\(port)/"])
        XCTAssertNotEqual(plain.stdout.suffix(3), "200", "no plain HTTP on the network")
        XCTAssertFalse(daemon.log.contains(phone.password), "the password is in no log")
    }

    func testOnlyTLS12And13WithForwardSecrecyAreSpoken() throws {
        _ = try addDevice("phone")
        let target = "\(network.serverAddress):\(port)"
        func sClient(_ args: [String]) throws -> String {
            let r = try network.inClient("/usr/bin/openssl", ["s_client", "-connect", target] + args, stdin: "", timeout: 20)
            return r.stdout + r.stderr
        }
        XCTAssertTrue(try sClient(["-tls1_2"]).contains("Cipher is ECDHE-"), "TLS 1.2 with an ephemeral key exchange")
        XCTAssertTrue(try sClient(["-tls1_3"]).contains("TLSv1.3"))
        for old in ["-tls1_1", "-tls1"] {
            XCTAssertTrue(try sClient([old, "-cipher", "DEFAULT@SECLEVEL=0"]).contains("Cipher is (NONE)"), "\(old) refused")
        }
        XCTAssertTrue(try sClient(["-tls1_2", "-cipher", "AES256-GCM-SHA384"]).contains("Cipher is (NONE)"), "no static RSA key exchange")
        let gnutls = try network.inClient(
            "/usr/bin/gnutls-cli", ["--insecure", "--priority", "NORMAL:-VERS-ALL:+VERS-TLS1.3", "-p", port, network.serverAddress],
            stdin: "",
            timeout: 20)
        XCTAssertTrue(gnutls.stdout.contains("Handshake was completed"), gnutls.stdout + gnutls.stderr)
    }

    func testAReadOnlyDeviceIsShownReadOnlyAndRefusedWrites() throws {
        let ro = try addDevice("tablet", ["--read-only"])
        let auth = ["-u", "tablet:\(ro.password)"]
        let props = try curl(
            auth + [
                "-X", "PROPFIND", "-H", "Depth: 0", "--data",
                #"<propfind xmlns="DAV:"><prop><current-user-privilege-set/></prop></propfind>"#, "\(base)/books/local/",
            ])
        XCTAssertTrue(props.stdout.contains("read"), props.stdout)
        XCTAssertFalse(props.stdout.contains("write"), "read only, as DAVx⁵ and iOS show it: \(props.stdout)")
        let file = daemon.home + "/x.vcf"
        try Self.card("x-1", "No Body").write(toFile: file, atomically: true, encoding: .utf8)
        let put = try curl(auth + ["-T", file, "\(base)/books/local/x-1.vcf"])
        XCTAssertEqual(status(put), 403)
        XCTAssertTrue(put.stdout.contains("need-privileges"), put.stdout)
        XCTAssertEqual(status(try curl(auth + ["-X", "DELETE", "\(base)/books/local/x-1.vcf"])), 403)
    }

    func testADeviceGivenOneBookSeesNoOther() throws {
        let vdir = daemon.home + "/family"
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        XCTAssertEqual(try daemon.ctl("account", "add", "family", "--vdir", vdir).status, 0)
        let kid = try addDevice("kid", ["--book", "family"])
        let auth = ["-u", "kid:\(kid.password)"]
        let home = try curl(auth + ["-X", "PROPFIND", "-H", "Depth: 1", "\(base)/books/"])
        XCTAssertTrue(home.stdout.contains("/books/family/"), home.stdout)
        XCTAssertFalse(home.stdout.contains("/books/local/"), "the home set lists its book alone")
        XCTAssertEqual(status(try curl(auth + ["-X", "PROPFIND", "-H", "Depth: 0", "\(base)/books/local/"])), 404)
        XCTAssertNotEqual(try daemon.ctl("serve", "device", "add", "x", "--book", "nowhere").status, 0, "an unknown book is refused")
    }

    func testTenWrongPasswordsSlowAnAddressWhileTheOwnersFacesKeepAnswering() throws {
        let phone = try addDevice("phone")
        for _ in 0..<10 { XCTAssertEqual(status(try curl(["-u", "phone:guess", "\(base)/"])), 401) }
        XCTAssertEqual(status(try curl(["-u", "nobody:guess", "\(base)/"])), 429, "the address is refused now")
        let right = try curl(["-u", "phone:\(phone.password)", "-D", "-", "\(base)/"])
        XCTAssertEqual(status(right), 429, "the right password included")
        XCTAssertTrue(right.stdout.lowercased().contains("retry-after:"), right.stdout)
        // The owner's socket and loopback face answer meanwhile.
        XCTAssertEqual(try daemon.ctl("list").status, 0)
        XCTAssertEqual(try daemon.ctl("serve", "enable", "--port", "15232").status, 0)
        let loopback = try network.inServer("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:15232/"])
        XCTAssertEqual(loopback.stdout, "200")
        XCTAssertTrue(daemon.log.contains(network.clientAddress) && daemon.log.contains("'phone'"), daemon.log)
        XCTAssertFalse(daemon.log.contains("guess"), "no password tried is logged")
        let listed = try daemon.ctl("serve", "device", "list", "--json")
        XCTAssertTrue(listed.stdout.contains(#""failedSignIns":10"#), listed.stdout)
    }

    func testARemovedDeviceIsRefusedOnItsOpenConnectionAndANewPasswordReplacesTheOld() throws {
        let phone = try addDevice("phone")
        let flag = daemon.home + "/go"
        let script = """
            import base64, http.client, os, ssl, sys, time
            ctx = ssl.create_default_context(cafile=sys.argv[2])
            c = http.client.HTTPSConnection(sys.argv[1], \(port), context=ctx)
            auth = {"Authorization": "Basic " + base64.b64encode(sys.argv[3].encode()).decode(), "Depth": "0"}
            c.request("PROPFIND", "/books/local/", headers=auth); r = c.getresponse(); r.read(); print(r.status, flush=True)
            open(sys.argv[4] + ".ready", "w").close()
            while not os.path.exists(sys.argv[4]): time.sleep(0.05)
            c.request("PROPFIND", "/books/local/", headers=auth); r = c.getresponse(); r.read(); print(r.status, flush=True)
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestNetwork.ip)
        p.arguments = [
            "netns", "exec", network.client, "/usr/bin/python3", "-c", script, network.serverAddress, certificatePath,
            "phone:\(phone.password)", flag,
        ]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        XCTAssertTrue(waitForFile(flag + ".ready", timeout: 20))
        XCTAssertEqual(try daemon.ctl("serve", "device", "remove", "phone").status, 0)
        FileManager.default.createFile(atPath: flag, contents: nil)
        p.waitUntilExit()
        let statuses = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(statuses, ["207", "401"], "refused on the connection it kept open")

        let tablet = try addDevice("tablet")
        let renewed = try daemon.ctl("serve", "device", "password", "tablet", "--json")
        let fresh = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(renewed.stdout.utf8)) as? [String: Any])?["password"] as? String)
        XCTAssertEqual(status(try curl(["-u", "tablet:\(tablet.password)", "\(base)/"])), 401, "the old password stops at once")
        XCTAssertEqual(status(try curl(["-u", "tablet:\(fresh.uppercased())", "\(base)/"])), 200, "the new one works, typed in any case")
    }

    func testVdirsyncerPinsTheCertificateAndARenewedOneIsRefused() throws {
        let venv = Products.repository.appendingPathComponent(".venv").path
        guard FileManager.default.isExecutableFile(atPath: venv + "/bin/vdirsyncer") else {
            throw XCTSkip("vdirsyncer is not in .venv (scripts/install-deps.sh installs it)")
        }
        XCTAssertEqual(try daemon.ctl("add", "Ada Lovelace", "--email", "ada@example.com").status, 0)
        let laptop = try addDevice("laptop")
        let work = daemon.home + "/vdirsyncer"
        try FileManager.default.createDirectory(atPath: work + "/cards", withIntermediateDirectories: true)
        try """
        [general]
        status_path = "\(work)/status/"
        [pair lan]
        a = "phone"
        b = "cards"
        collections = null
        [storage phone]
        type = "carddav"
        url = "\(base)/books/local/"
        username = "laptop"
        password = "\(laptop.password)"
        verify_fingerprint = "\(laptop.fingerprint)"
        [storage cards]
        type = "filesystem"
        path = "\(work)/cards/"
        fileext = ".vcf"
        """.write(toFile: work + "/config", atomically: true, encoding: .utf8)
        try """
        [addressbooks]
        [[lan]]
        path = \(work)/cards/
        [general]
        default_action = list
        """.write(toFile: work + "/khard.conf", atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["VDIRSYNCER_CONFIG"] = work + "/config"
        let discovered = try network.inClient(
            venv + "/bin/vdirsyncer", ["discover", "lan"], environment: env, stdin: "y\ny\n", timeout: 120)
        XCTAssertEqual(discovered.status, 0, discovered.stdout + discovered.stderr)
        let first = try network.inClient(venv + "/bin/vdirsyncer", ["sync"], environment: env, timeout: 120)
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        let khard = try runProgram(venv + "/bin/khard", ["-c", work + "/khard.conf", "list"], environment: env)
        XCTAssertTrue(khard.stdout.contains("Ada Lovelace"), khard.stdout + khard.stderr)

        let renewed = try daemon.ctl("serve", "certificate", "--renew")
        XCTAssertEqual(renewed.status, 0, renewed.stderr)
        XCTAssertFalse(renewed.stdout.contains(laptop.fingerprint), "a new fingerprint")
        XCTAssertEqual(try daemon.ctl("add", "Grace Hopper").status, 0)
        let refused = try network.inClient(venv + "/bin/vdirsyncer", ["sync"], environment: env, timeout: 120)
        XCTAssertNotEqual(refused.status, 0, "the pinned client refuses the new certificate, as a phone asks again")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: work + "/cards").isEmpty)
        // Told the new fingerprint (as the user accepts it on the phone), the same client is served.
        let shown = try daemon.ctl("serve", "certificate", "--json")
        let fingerprint = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])?["fingerprint"] as? String, shown.stdout)
        XCTAssertNotEqual(fingerprint, laptop.fingerprint)
        let config = try String(contentsOfFile: work + "/config", encoding: .utf8)
        try config.replacingOccurrences(of: laptop.fingerprint, with: fingerprint).write(
            toFile: work + "/config", atomically: true, encoding: .utf8)
        let rediscovered = try network.inClient(
            venv + "/bin/vdirsyncer", ["discover", "lan"], environment: env, stdin: "y\ny\n", timeout: 120)
        XCTAssertEqual(rediscovered.status, 0, rediscovered.stdout + rediscovered.stderr)
        let accepted = try network.inClient(venv + "/bin/vdirsyncer", ["sync"], environment: env, timeout: 120)
        XCTAssertEqual(accepted.status, 0, accepted.stdout + accepted.stderr + daemon.log)
        let after = try runProgram(venv + "/bin/khard", ["-c", work + "/khard.conf", "list"], environment: env)
        XCTAssertTrue(after.stdout.contains("Grace Hopper"), after.stdout + after.stderr)
    }

    func testASecondContactsdSyncsFromTheFirstOverHTTPSWithTheDevicePassword() throws {
        XCTAssertEqual(try daemon.ctl("add", "Ada Lovelace", "--email", "ada@example.com").status, 0)
        let desk = try addDevice("desk")
        let second = try DaemonFixture()
        defer { second.cleanUp() }
        try second.start(namespace: network.client)
        let added = try second.ctl(
            "account", "add", "home", "\(base)/books/local/", "--user", "desk", "--password-command", "printf %s \(desk.password)",
            "--ca-file", certificatePath)
        XCTAssertEqual(added.status, 0, added.stdout + added.stderr)
        XCTAssertEqual(try second.ctl("sync", "home").status, 0)
        XCTAssertTrue(try second.ctl("list").stdout.contains("Ada Lovelace"))
        XCTAssertEqual(try second.ctl("add", "Grace Hopper", "--account", "home").status, 0)
        let up = try second.ctl("sync", "home")
        XCTAssertEqual(up.status, 0, up.stdout + up.stderr)
        let history = try daemon.ctl("history", "Grace Hopper")
        XCTAssertTrue(history.stdout.contains("carddav:desk"), history.stdout)
    }

    func testAFloodOfIdleConnectionsLeavesTheOwnersFacesAndOtherDevicesAnswering() throws {
        let phone = try addDevice("phone")
        XCTAssertEqual(try daemon.ctl("serve", "enable", "--port", "15232").status, 0)
        let flag = daemon.home + "/flood"
        // 200 connections that never start a handshake, held open until the test is done.
        let script = """
            import os, socket, sys, time
            held = []
            for _ in range(200):
                try:
                    held.append(socket.create_connection((sys.argv[1], \(port)), timeout=2))
                except OSError:
                    pass
            open(sys.argv[2] + ".ready", "w").close()
            while not os.path.exists(sys.argv[2]): time.sleep(0.05)
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestNetwork.ip)
        p.arguments = ["netns", "exec", network.client, "/usr/bin/python3", "-c", script, network.serverAddress, flag]
        try p.run()
        defer {
            FileManager.default.createFile(atPath: flag, contents: nil)
            p.waitUntilExit()
        }
        XCTAssertTrue(waitForFile(flag + ".ready", timeout: 30))
        XCTAssertEqual(try daemon.ctl("list").status, 0, "the socket answers")
        let loopback = try network.inServer(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5", "http://127.0.0.1:15232/"])
        XCTAssertEqual(loopback.stdout, "200", "the loopback face answers")
        // A device reaching the LAN face from the server's own side is still served.
        let local = try network.inServer(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "--cacert", certificatePath, "-u",
                "phone:\(phone.password)", "\(base)/",
            ])
        XCTAssertEqual(local.stdout, "200", "another address is served while one floods")
    }

    func testTheUsersOwnCertificateIsTakenWhenItsKeyMatches() throws {
        let dir = daemon.home + "/own"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let made = try runProgram(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "30", "-subj", "/CN=desk",
                "-addext", "subjectAltName=IP:\(network.serverAddress)", "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem",
            ], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(made.status, 0, made.stderr)
        let other = try runProgram(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", dir + "/other.pem"],
            environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(other.status, 0)
        let mismatched = try daemon.ctl("serve", "certificate", "--use", dir + "/cert.pem", dir + "/other.pem")
        XCTAssertNotEqual(mismatched.status, 0, "a key that is not the certificate's is refused")
        let used = try daemon.ctl("serve", "certificate", "--use", dir + "/cert.pem", dir + "/key.pem")
        XCTAssertEqual(used.status, 0, used.stderr)
        let status = try daemon.ctl("serve", "status")
        XCTAssertTrue(status.stderr.contains("expires within 30 days"), "a certificate near its end is warned of: \(status.stderr)")
        let phone = try addDevice("phone")
        let r = try network.inClient(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "--cacert", dir + "/cert.pem", "-u",
                "phone:\(phone.password)", "\(base)/",
            ])
        XCTAssertEqual(r.stdout, "200", "served with the user's certificate\n\(daemon.log)")
        let qr = daemon.home + "/with-password.png"
        let renewed = try daemon.ctl("serve", "device", "password", "phone", "--qr", qr, "--qr-with-password", "--json")
        let password = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(renewed.stdout.utf8)) as? [String: Any])?["password"] as? String)
        let scanned = try runProgram("/usr/bin/zbarimg", ["-q", "--raw", qr], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(
            scanned.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "davx5://phone:\(password)@\(network.serverAddress):\(port)/")
    }

    func testTheLANFaceIsAnnouncedByDNSSDWhereAvahiRunsAndWithdrawnWhenItStops() throws {
        #if CONTACTSD_SANITIZED
            // Avahi's probing and the browse are timed for a daemon at full speed.
            throw XCTSkip("DNS-SD is tested without the sanitizer")
        #endif
        let avahi = try TestAvahi(network)
        defer { avahi.stop() }
        // The daemon again, finding the Avahi of its namespace through its system bus.
        daemon.stop()
        try daemon.start(extraEnvironment: ["DBUS_SYSTEM_BUS_ADDRESS": avahi.serverBus], namespace: network.server)
        var found = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && !found.contains(";\(network.serverAddress);\(port);") {
            found = try avahi.browse("_carddavs._tcp")
            if !found.contains(";\(network.serverAddress);\(port);") { usleep(300_000) }
        }
        XCTAssertTrue(found.contains("=;"), "resolved: \(found)\n\(daemon.log)")
        XCTAssertTrue(found.contains(";\(network.serverAddress);\(port);\"path=/\""), found)
        XCTAssertEqual(try daemon.ctl("serve", "lan", "disable").status, 0)
        let publishers = try runProgram(
            "/usr/bin/pgrep", ["-f", "avahi-publish -s contactsd"], environment: ProcessInfo.processInfo.environment)
        XCTAssertEqual(publishers.stdout, "", "the announcement is withdrawn with the face")
    }
}
