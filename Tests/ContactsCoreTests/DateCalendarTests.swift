import ContactsCore
import VCard
import XCTest

/// Days to remember: when they fall, how old, and as iCalendar.
final class DateCalendarTests: XCTestCase {
    func testDaysCountLikeTheCalendar() {
        for text in ["1970-01-01", "1969-12-31", "2000-02-29", "1900-03-01", "2026-12-04", "1604-06-30"] {
            let d = CivilDate(text)
            XCTAssertEqual(d.map { CivilDate(dayNumber: $0.dayNumber) }, d, text)
        }
        XCTAssertEqual(CivilDate("1970-01-02")?.dayNumber, 1)
        XCTAssertEqual(CivilDate("2026-12-31")?.adding(days: 1).description, "2027-01-01")
        XCTAssertNil(CivilDate("2027-02-29"))
        XCTAssertNil(CivilDate("--02-29"))
    }

    func testTheNextTimeADateFallsAndHowManyYears() throws {
        let leapling = try XCTUnwrap(RememberedDate("1992-02-29", kind: .birthday))
        // In a year without 29 February, the 28th; in a leap year, the 29th.
        XCTAssertEqual(leapling.next(onOrAfter: CivilDate(year: 2027, month: 1, day: 10)).date.description, "2027-02-28")
        XCTAssertEqual(leapling.next(onOrAfter: CivilDate(year: 2027, month: 1, day: 10)).years, 35)
        XCTAssertEqual(leapling.next(onOrAfter: CivilDate(year: 2028, month: 2, day: 29)).date.description, "2028-02-29")
        // Past this year's, next year's.
        let kate = try XCTUnwrap(RememberedDate("1980-05-14", kind: .birthday))
        XCTAssertEqual(kate.next(onOrAfter: CivilDate(year: 2026, month: 5, day: 15)).date.description, "2027-05-14")
        XCTAssertEqual(kate.next(onOrAfter: CivilDate(year: 2026, month: 5, day: 14)).years, 46)
        let noYear = try XCTUnwrap(RememberedDate("--12-24", kind: .date, label: "name day"))
        XCTAssertNil(noYear.next(onOrAfter: CivilDate(year: 2026, month: 12, day: 4)).years)
        XCTAssertNil(RememberedDate("--13-01", kind: .date))
        XCTAssertNil(RememberedDate("1999-02-30", kind: .date))
    }

    func testABirthdayWithThePlaceholderYearHasNoYear() throws {
        // CardBook's BDAY:16040101, Apple's X-APPLE-OMIT-YEAR=1604, vCard 4's --0415.
        let cards = [
            ("BDAY:16040101", "--01-01"), ("BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-15", "--04-15"), ("BDAY:--0415", "--04-15"),
            ("BDAY:1980-04-15", "1980-04-15"),
        ]
        for (line, birthday) in cards {
            let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Someone\r\n\(line)\r\nEND:VCARD\r\n"
            let c = try VCardMapping.contact(from: try XCTUnwrap(VCardParser.parse(text).cards.first))
            XCTAssertEqual(c.birthday, birthday, line)
            // Written back unedited, the card says what it said.
            let value = line.split(separator: ":", maxSplits: 1)[1]
            XCTAssertEqual(VCardMapping.properties(for: c).first { $0.name == "BDAY" }?.text, String(value), line)
        }
        // Stored before, with the year: no age, no year.
        let stored = try XCTUnwrap(RememberedDate("1604-01-01", kind: .birthday))
        XCTAssertNil(stored.year)
        XCTAssertNil(stored.next(onOrAfter: CivilDate(year: 2027, month: 1, day: 1)).years)
    }

    func testAContactsDatesAreYearlyEventsOfOneDay() throws {
        var c = Contact(name: "Zoë, \"the\"; Ångström and a name long enough to be folded over two lines of the calendar")
        c.id = "5D9F1C1E-0F7C-4C7B-9E1A-2B3C4D5E6F70"
        c.updatedAt = 1_796_032_800_000
        c.birthday = "1992-02-29"
        c.dates = [LabeledValue(value: "--06-12", label: "anniversary"), LabeledValue(value: "not a date")]
        let events = DateCalendar.events(for: c)
        XCTAssertEqual(events.map(\.name).first, "birthday")
        XCTAssertEqual(events.count, 2, "the value that is no date is left out")
        let birthday = events[0].text
        XCTAssertTrue(birthday.contains("DTSTART;VALUE=DATE:19920229\r\n"), birthday)
        XCTAssertTrue(birthday.contains("DTEND;VALUE=DATE:19920301\r\n"), birthday)
        XCTAssertTrue(birthday.contains("RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1\r\n"), birthday)
        XCTAssertTrue(birthday.contains("DTSTAMP:20261130T100000Z\r\n"), birthday)
        XCTAssertTrue(birthday.contains("UID:5D9F1C1E-0F7C-4C7B-9E1A-2B3C4D5E6F70-birthday@contactsd"), birthday)
        XCTAssertTrue(birthday.contains("SUMMARY:Zoë\\, \"the\"\\; Ångström"), birthday)
        // Folded at 75 octets: no line longer, the next one starting with a space.
        for line in birthday.components(separatedBy: "\r\n") { XCTAssertLessThanOrEqual(line.utf8.count, 75, line) }
        XCTAssertTrue(birthday.contains("\r\n "), birthday)
        let anniversary = events[1].text
        XCTAssertTrue(anniversary.contains("DTSTART;VALUE=DATE:19720612\r\n"), "a year is made up where none is known: \(anniversary)")
        XCTAssertTrue(anniversary.contains("RRULE:FREQ=YEARLY\r\n"), anniversary)
        XCTAssertFalse(anniversary.contains("DESCRIPTION"), anniversary)
        // The name of a date's event stays while it does.
        var edited = c
        edited.birthday = "1992-03-01"
        edited.note = "changed"
        XCTAssertEqual(DateCalendar.events(for: edited).map(\.name), events.map(\.name))
        let calendar = DateCalendar.calendar(events.map(\.text))
        XCTAssertTrue(calendar.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:"))
        XCTAssertTrue(calendar.hasSuffix("END:VEVENT\r\nEND:VCALENDAR\r\n"))
    }
}
