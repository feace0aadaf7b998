import Foundation
import JSONCore
import XCTest

/// `contactsctl watch` and the README's Python example, through the real binaries: the list,
/// then each change to it, line by line into a pipe.
final class WatchTests: DaemonTestCase {
    /// A program started with the daemon's environment whose output is read line by line.
    final class Running: @unchecked Sendable {
        let process = Process()
        private let lock = NSCondition()
        private var text = ""
        private var taken = 0

        init(_ path: String, _ arguments: [String], environment: [String: String]) throws {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.environment = environment
            let out = Pipe()
            process.standardOutput = out
            process.standardError = out
            out.fileHandleForReading.readabilityHandler = { [weak self] h in
                guard let self else { return }
                let chunk = h.availableData
                self.lock.lock()
                self.text += String(decoding: chunk, as: UTF8.self)
                self.lock.broadcast()
                self.lock.unlock()
                if chunk.isEmpty { h.readabilityHandler = nil }
            }
            try process.run()
        }

        /// The lines after those taken before, until one contains `marker` (all of them, up to it).
        func lines(until marker: String, timeout: Double = 10) -> [String] {
            let deadline = Date().addingTimeInterval(timeout)
            lock.lock()
            defer { lock.unlock() }
            while true {
                let all = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
                if let k = all.dropFirst(taken).firstIndex(where: { $0.contains(marker) }) {
                    defer { taken = k + 1 }
                    return Array(all[taken...k])
                }
                if !lock.wait(until: deadline) {
                    XCTFail("no line with '\(marker)' in: \(text)")
                    return []
                }
            }
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    func watch(_ args: String...) throws -> Running {
        try Running(try Products.path("contactsctl"), ["watch"] + args, environment: daemon.environment)
    }

    func testWatchPrintsTheListThenEachChangeToIt() throws {
        _ = try daemon.ctl("add", "Anna Haro", "--email", "anna@example.org")
        _ = try daemon.ctl("add", "Kate Bell")
        _ = try daemon.ctl("add", "Dan Smith")
        let w = try watch("a")  // Anna Haro, Kate Bell, Dan Smith all have an "a"
        defer { w.stop() }
        let table = w.lines(until: "contacts")
        XCTAssertEqual(table.first?.hasPrefix("NAME"), true, "\(table)")
        XCTAssertEqual(
            table.dropFirst().map { $0.split(separator: " ").prefix(2).joined(separator: " ") }.dropLast(),
            ["Anna Haro", "Dan Smith", "Kate Bell"])
        XCTAssertEqual(table.last, "3 contacts")

        _ = try daemon.ctl("add", "Carla Quinn")
        XCTAssertTrue(w.lines(until: "Carla").last?.hasSuffix(" + Carla Quinn (2 of 4)") == true)
        _ = try daemon.ctl("add", "Otto Zeller")  // no "a": not in the list, nothing printed
        _ = try daemon.ctl("edit", "Kate Bell", "--name", "Aaron Bell")
        let moved = w.lines(until: "Aaron")
        XCTAssertEqual(moved.count, 1, "the contact outside the list printed nothing: \(moved)")
        XCTAssertTrue(
            moved.last?.hasSuffix(" ↕ Aaron Bell (from 4 to 1)") == true, "a rename that moves it: one line, the new name: \(moved)")
        _ = try daemon.ctl("edit", "Aaron Bell", "--email", "aaron@example.org")
        XCTAssertTrue(w.lines(until: "~").last?.hasSuffix(" ~ Aaron Bell") == true)
        _ = try daemon.ctl("rm", "Dan Smith")
        XCTAssertTrue(w.lines(until: "Dan").last?.hasSuffix(" - Dan Smith (3 left)") == true)
        // Twenty more: each comes in, in its place.
        let cards = (0..<20).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Alma \($0 + 10)\r\nEND:VCARD\r\n" }.joined()
        XCTAssertEqual(try daemon.ctl("import", "-", stdin: cards).status, 0)
        let added = w.lines(until: "Alma 29")
        XCTAssertEqual(added.filter { $0.contains(" + Alma ") }.count, 20, "\(added)")
        XCTAssertTrue(added.last?.hasSuffix(" + Alma 29 (21 of 23)") == true, "\(added)")
    }

    func testWatchOfTheFirstFewPrintsTheListAgainAfterAChangeLargerThanIt() throws {
        for name in ["Anna Haro", "Kate Bell", "Dan Smith", "Zoë Zeller"] { _ = try daemon.ctl("add", name) }
        let w = try watch("--limit", "3")
        defer { w.stop() }
        let table = w.lines(until: "contacts")
        XCTAssertEqual(table.last, "3 of 4 contacts")
        let cards = (0..<20).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Aaron \($0 + 10)\r\nEND:VCARD\r\n" }.joined()
        XCTAssertEqual(try daemon.ctl("import", "-", stdin: cards).status, 0)
        let again = w.lines(until: "of 24 contacts")
        XCTAssertTrue(again.first?.hasSuffix(" the list changed as a whole:") == true, "\(again)")
        XCTAssertEqual(
            again.dropFirst(2).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }.dropLast(),
            ["Aaron 10", "Aaron 11", "Aaron 12"])
        XCTAssertEqual(again.last, "3 of 24 contacts")
    }

    func testWatchJSONPrintsTheWindowAndEachChangeAsLines() throws {
        _ = try daemon.ctl("add", "Anna Haro")
        let w = try watch("--favorites", "--limit", "2", "--json")
        defer { w.stop() }
        let first = try JSONParser.parse(try XCTUnwrap(w.lines(until: "\"event\"").last))
        XCTAssertEqual(first["event"], "list")
        XCTAssertEqual(first["params"]?["total"], 0)
        _ = try daemon.ctl("fav", "Anna Haro")
        let change = try JSONParser.parse(try XCTUnwrap(w.lines(until: "view.changed").last))
        XCTAssertEqual(change["params"]?["added"]?.arrayValue?.first?["contact"]?["name"], "Anna Haro")
        XCTAssertEqual(change["params"]?["added"]?.arrayValue?.first?["index"], 0)
        XCTAssertEqual(change["params"]?["total"], 1)
        XCTAssertEqual(try daemon.ctl("watch", "--limit", "0").status, 64, "a limit out of range is a usage error")
    }

    func testTheREADMEsPythonExampleKeepsTheFavoritesInOrder() throws {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { throw XCTSkip("python3 is not installed") }
        _ = try daemon.ctl("add", "Kate Bell", "--favorite")
        _ = try daemon.ctl("add", "Anna Haro")
        _ = try daemon.ctl("add", "Zoë Zeller", "--favorite")
        let example = Products.repository.appendingPathComponent("examples/favorites-view.py").path
        let p = try Running(python, [example, "1"], environment: daemon.environment)
        defer { p.stop() }
        XCTAssertEqual(p.lines(until: "favorites:"), ["favorites: Kate Bell, Zoë Zeller"])
        _ = try daemon.ctl("fav", "Anna Haro")
        XCTAssertEqual(p.lines(until: "favorites:"), ["favorites: Anna Haro, Kate Bell, Zoë Zeller"])
        _ = try daemon.ctl("edit", "Anna Haro", "--name", "Ulla Haro")
        XCTAssertEqual(p.lines(until: "favorites:"), ["favorites: Kate Bell, Ulla Haro, Zoë Zeller"])
        _ = try daemon.ctl("unfav", "Kate Bell")
        _ = try daemon.ctl("rm", "Zoë Zeller")
        XCTAssertEqual(p.lines(until: "favorites:"), ["favorites: Ulla Haro, Zoë Zeller"])
        XCTAssertEqual(p.lines(until: "favorites:"), ["favorites: Ulla Haro"])
        p.process.waitUntilExit()
        XCTAssertEqual(p.process.terminationStatus, 0, "it stops once one favorite is left, as asked")
    }
}
