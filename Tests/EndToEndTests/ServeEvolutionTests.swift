import Foundation
import XCTest

/// GNOME Contacts and Evolution, through evolution-data-server: the source file `contactsctl
/// serve setup-evolution` writes is read by EDS's own registry on a private session bus, and
/// an EBookClient lists, adds, edits and deletes through EDS's CardDAV backend; each change
/// is in the store and its history.
extension ServeTests {
    /// A private session bus (`dbus-daemon --session` on a socket in the scratch home), on
    /// which EDS's registry and book factory are started as they are on a desktop.
    func sessionBus() throws -> (address: String, process: Process) {
        let socket = daemon.home + "/run/bus"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        p.arguments = ["--session", "--nofork", "--nopidfile", "--address=unix:path=" + socket]
        p.environment = daemon.environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(20_000) }
        guard FileManager.default.fileExists(atPath: socket) else {
            p.terminate()
            throw XCTSkip("dbus-daemon did not listen on \(socket)")
        }
        return ("unix:path=" + socket, p)
    }

    func testEvolutionDataServerOpensTheSourceAndEditsTheBook() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/libexec/evolution-addressbook-factory"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon"),
            try runProgram(
                "/usr/bin/python3", ["-c", "import gi; gi.require_version('EBook', '1.2'); gi.require_version('EBookContacts', '1.2')"],
                environment: [:]
            ).status == 0
        else {
            throw XCTSkip("evolution-data-server, gir1.2-ebook-1.2 or dbus-daemon is missing (scripts/install-deps.sh installs them)")
        }
        try serve()
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell", "-e", "kate@example.com").status, 0)
        XCTAssertEqual(try daemon.ctl("add", "Anna Haro", "-p", "+1 555 522 8243").status, 0)
        let setup = try daemon.ctl("serve", "setup-evolution")
        XCTAssertEqual(setup.status, 0, setup.stderr)
        let source = daemon.home + "/config/evolution/sources/contactsd-local.source"
        XCTAssertTrue(setup.stdout.contains(source), setup.stdout)
        let text = try String(contentsOfFile: source, encoding: .utf8)
        XCTAssertTrue(text.contains("BackendName=carddav") && text.contains("Port=\(port)"), text)
        XCTAssertFalse(text.split(separator: "\n").contains { $0.hasPrefix("Password") }, "no password is written")

        let bus = try sessionBus()
        defer { bus.process.terminate() }
        var env = daemon.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let script = Products.repository.appendingPathComponent("Tests/peers/eds_client.py").path
        func eds(_ args: String...) throws -> [String: Any] {
            let r = try runProgram("/usr/bin/python3", [script, "contactsd-local"] + args, environment: env, timeout: 90)
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            let line = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        func history(_ who: String) throws -> String { try daemon.ctl("history", who).stdout }

        // GNOME Contacts lists the book.
        XCTAssertEqual(try eds("list", "2")["names"] as? [String], ["Anna Haro", "Kate Bell"])
        // A contact added there is a contact here, made by Evolution's CardDAV backend.
        _ = try eds("add", "Dora Maar", "dora@example.com")
        let dora = try daemon.ctl("show", "dora", "--json")
        XCTAssertTrue(dora.stdout.contains("dora@example.com"), dora.stdout + dora.stderr)
        let made = try history("dora")
        XCTAssertTrue(made.contains("carddav:Evolution"), made)
        // An edit there is an edit here, with only what changed.
        _ = try eds("retitle", "Kate Bell", "Producer")
        XCTAssertTrue(try daemon.ctl("show", "kate", "--json").stdout.contains("Producer"))
        let kate = try history("kate")
        XCTAssertTrue(kate.contains("carddav:Evolution") && kate.contains("title"), kate)
        // A deletion there is in the trash here, and comes back with undo.
        _ = try eds("remove", "Anna Haro")
        XCTAssertFalse(try daemon.ctl("list").stdout.contains("Anna Haro"))
        XCTAssertTrue(try daemon.ctl("trash").stdout.contains("Anna Haro"))
        XCTAssertEqual(try daemon.ctl("undo").status, 0)
        XCTAssertTrue(try daemon.ctl("list").stdout.contains("Anna Haro"))
        // And an edit here reaches GNOME Contacts at its next refresh.
        XCTAssertEqual(try daemon.ctl("add", "Carl Jung").status, 0)
        XCTAssertEqual(try eds("list", "4")["names"] as? [String], ["Anna Haro", "Carl Jung", "Dora Maar", "Kate Bell"])

        XCTAssertEqual(try daemon.ctl("serve", "setup-evolution", "--remove").status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: source))
    }
}
