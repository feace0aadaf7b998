import Foundation
import Glibc
import XCTest

/// Birthdays and dates through the real binaries: `contactsctl birthdays`, an ics export, and
/// the calendar the daemon keeps (`birthdayCalendar`) as real khal reads it.
final class BirthdayTests: FixtureTestCase {
    var calendarDir: String { daemon.home + "/calendars/birthdays" }

    func startWithCalendar() throws {
        let config = daemon.home + "/config/contactsd"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try #"{"birthdayCalendar": "~/calendars/birthdays"}"#.write(toFile: config + "/config.json", atomically: true, encoding: .utf8)
        try daemon.start(extraEnvironment: ["TZ": "UTC"])
    }

    func calendarFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: calendarDir)) ?? []).filter { $0.hasSuffix(".ics") }.sorted()
    }

    /// Waits until the calendar's files satisfy `done`.
    func waitForCalendar(_ what: String, _ done: ([String]) -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !done(calendarFiles()) && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(done(calendarFiles()), "\(what): \(calendarFiles())")
    }

    func text(ofFileContaining marker: String) -> String {
        calendarFiles().lazy.compactMap { try? String(contentsOfFile: self.calendarDir + "/" + $0, encoding: .utf8) }
            .first { $0.contains(marker) } ?? ""
    }

    func testAReloadStartsMovesAndEndsTheCalendarAndNamesWhatWaitsForARestart() throws {
        try daemon.start(extraEnvironment: ["TZ": "UTC"])
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell", "--birthday", "1980-05-14").status, 0)
        let config = daemon.home + "/config/contactsd"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        func reload(_ json: String, count: Int) throws {
            try json.write(toFile: config + "/config.json", atomically: true, encoding: .utf8)
            kill(daemon.process!.processIdentifier, SIGHUP)
            XCTAssertTrue(daemon.notify?.wait(for: "READY=1", count: count) ?? false)
        }
        try reload(#"{"birthdayCalendar": "~/calendars/birthdays"}"#, count: 2)
        waitForCalendar("the calendar a reload started") { $0.count == 1 }
        XCTAssertTrue(daemon.log.contains("birthday calendar: kept in"), daemon.log)
        // A contact added after the reload is in it too.
        XCTAssertEqual(try daemon.ctl("add", "Anna Haro", "--birthday", "1985-08-29").status, 0)
        waitForCalendar("a birthday added after the reload") { $0.count == 2 }
        try reload(#"{"inbox": "~/elsewhere"}"#, count: 3)
        XCTAssertTrue(daemon.log.contains("birthday calendar: no longer kept"), daemon.log)
        XCTAssertTrue(daemon.log.contains("inbox changed: it takes effect when contactsd restarts"), daemon.log)
        XCTAssertEqual(try daemon.ctl("add", "John Appleseed", "--birthday", "1980-06-22").status, 0)
        usleep(500_000)
        XCTAssertEqual(calendarFiles().count, 2, "a calendar given up is left as it was")
    }

    func testKhalShowsTheBirthdaysTheDaemonKeepsAndTheirEdits() throws {
        let venv = Products.repository.appendingPathComponent(".venv/bin").path
        guard FileManager.default.isExecutableFile(atPath: venv + "/khal") else {
            throw XCTSkip("khal is not in .venv (scripts/install-deps.sh installs it)")
        }
        // A card kept in the calendar directory by someone else is never touched.
        try FileManager.default.createDirectory(atPath: calendarDir, withIntermediateDirectories: true)
        try "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".write(toFile: calendarDir + "/mine.ics", atomically: true, encoding: .utf8)
        try startWithCalendar()
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell", "--birthday", "1980-05-14", "--date", "anniversary:2010-06-12").status, 0)
        XCTAssertEqual(try daemon.ctl("add", "Anna Haro", "-e", "anna@example.com").status, 0)
        waitForCalendar("Kate's two dates") { $0.count == 3 }

        let khalConfig = daemon.home + "/khal.conf"
        try """
        [calendars]
        [[birthdays]]
        path = \(calendarDir)
        type = calendar
        [locale]
        timeformat = %H:%M
        dateformat = %Y-%m-%d
        longdateformat = %Y-%m-%d
        datetimeformat = %Y-%m-%d %H:%M
        longdatetimeformat = %Y-%m-%d %H:%M
        default_timezone = UTC
        local_timezone = UTC
        [sqlite]
        path = \(daemon.home)/khal.db
        """.write(toFile: khalConfig, atomically: true, encoding: .utf8)
        var env = daemon.environment
        env["TZ"] = "UTC"
        func khal(_ args: String...) throws -> String {
            let r = try runProgram(venv + "/khal", ["-c", khalConfig] + args, environment: env, timeout: 60)
            XCTAssertEqual(r.status, 0, "khal \(args): \(r.stdout)\(r.stderr)")
            return r.stdout
        }
        let may = try khal("list", "--format", "{start-date} {title}", "2027-05-01", "60d")
        XCTAssertTrue(may.contains("2027-05-14 Kate Bell — birthday"), may)
        XCTAssertTrue(may.contains("2027-06-12 Kate Bell — anniversary"), may)
        XCTAssertFalse(may.contains("Anna"), may)

        // An edited birthday: its file rewritten, khal shows the new day and not the old.
        XCTAssertEqual(try daemon.ctl("edit", "Kate Bell", "--birthday", "1980-05-20").status, 0)
        waitForCalendar("the edited birthday") { _ in self.text(ofFileContaining: "birthday").contains("DTSTART;VALUE=DATE:19800520") }
        let edited = try khal("list", "--format", "{start-date} {title}", "2027-05-01", "60d")
        XCTAssertTrue(edited.contains("2027-05-20 Kate Bell — birthday"), edited)
        XCTAssertFalse(edited.contains("2027-05-14"), edited)

        // The verb and the export agree.
        let soon = try daemon.ctl("birthdays", "--from", "2027-05-01", "--days", "60")
        XCTAssertEqual(soon.status, 0, soon.stderr)
        XCTAssertTrue(soon.stdout.contains("Kate Bell"), soon.stdout)
        XCTAssertTrue(soon.stdout.contains("birthday (turns 47)"), soon.stdout)
        XCTAssertTrue(soon.stdout.contains("anniversary (17 years)"), soon.stdout)
        // WHEN counts from today, not from --from.
        let daysAway = try XCTUnwrap(
            Calendar(identifier: .gregorian).dateComponents(
                [.day], from: Calendar(identifier: .gregorian).startOfDay(for: Date()),
                to: try XCTUnwrap(DateComponents(calendar: Calendar(identifier: .gregorian), year: 2027, month: 5, day: 20).date)
            ).day)
        if abs(daysAway) > 1 {
            XCTAssertTrue(soon.stdout.contains(daysAway > 0 ? "in \(daysAway) days" : "\(-daysAway) days ago"), soon.stdout)
        }
        let ics = try daemon.ctl("export", "--format", "ics")
        XCTAssertEqual(ics.stdout.components(separatedBy: "BEGIN:VEVENT").count - 1, 2, ics.stdout)
        let exported = daemon.home + "/all.ics"
        try ics.stdout.write(toFile: exported, atomically: true, encoding: .utf8)
        let printed = try khal("printics", exported)
        XCTAssertTrue(printed.contains("2 events found"), printed)

        // Removed by hand while the daemon is away, a file is back when it starts.
        XCTAssertEqual(daemon.stop(), 0)
        let birthdayFile = try XCTUnwrap(calendarFiles().first { $0.hasSuffix("-birthday.ics") })
        try FileManager.default.removeItem(atPath: calendarDir + "/" + birthdayFile)
        try daemon.start(extraEnvironment: ["TZ": "UTC"])
        waitForCalendar("the removed file written again") { $0.contains(birthdayFile) }

        // A deleted contact's dates go; the other file stays.
        XCTAssertEqual(try daemon.ctl("rm", "Kate Bell").status, 0)
        waitForCalendar("Kate's files removed") { $0 == ["mine.ics"] }
        XCTAssertEqual(try String(contentsOfFile: calendarDir + "/mine.ics", encoding: .utf8), "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
    }
}
