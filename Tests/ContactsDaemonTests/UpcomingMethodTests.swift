import ContactsAPI
import ContactsCore
import JSONCore
import XCTest

@testable import ContactsDaemon

/// `contacts.upcoming`: the birthdays and dates of the coming days.
final class UpcomingMethodTests: MethodTestCase {
    func testTheComingDaysSoonestFirstWithAgesAndYears() throws {
        var kate = Contact(name: "Kate Bell")
        kate.birthday = "1980-01-03"
        kate.dates = [LabeledValue(value: "2010-12-30", label: "anniversary")]
        var leap = Contact(name: "Leap Ling")
        leap.birthday = "1992-02-29"
        var noYear = Contact(name: "Anna Haro")
        noYear.birthday = "--12-28"
        var later = Contact(name: "Later Person")
        later.birthday = "1990-06-01"
        for c in [kate, leap, noYear, later] { _ = try store.create(c) }

        let r = try call(ContactsAPI.Method.contactsUpcoming, ["from": "2026-12-27", "days": 10])
        XCTAssertEqual(r["from"], "2026-12-27")
        let dates = try XCTUnwrap(r["dates"]?.arrayValue)
        XCTAssertEqual(dates.map { $0["date"]?.stringValue ?? "" }, ["2026-12-28", "2026-12-30", "2027-01-03"])
        XCTAssertEqual(dates.map { $0["name"]?.stringValue ?? "" }, ["Anna Haro", "Kate Bell", "Kate Bell"])
        XCTAssertEqual(dates.map { $0["years"] ?? .null }, [.null, 16, 47])
        XCTAssertEqual(dates.map { $0["inDays"]?.intValue ?? -1 }, [1, 3, 7])
        XCTAssertEqual(dates[1]["kind"], "date")
        XCTAssertEqual(dates[1]["label"], "anniversary")
        XCTAssertEqual(dates[2]["kind"], "birthday")

        // 29 February falls on the 28th in 2027.
        let feb = try call(ContactsAPI.Method.contactsUpcoming, ["from": "2027-02-20"])
        XCTAssertEqual(feb["days"], 30)
        XCTAssertEqual(feb["dates"]?.arrayValue?.first?["date"], "2027-02-28")
        XCTAssertEqual(feb["dates"]?.arrayValue?.first?["years"], 35)

        // A whole year meets every date once.
        let year = try call(ContactsAPI.Method.contactsUpcoming, ["from": "2027-01-01", "days": 365])
        XCTAssertEqual(year["dates"]?.arrayValue?.count, 5)

        XCTAssertEqual(errorCode(ContactsAPI.Method.contactsUpcoming, ["days": 0]), -32602)
        XCTAssertEqual(errorCode(ContactsAPI.Method.contactsUpcoming, ["days": 367]), -32602)
        XCTAssertEqual(errorCode(ContactsAPI.Method.contactsUpcoming, ["from": "2027-02-29"]), -32602)
        // Without 'from': today.
        let today = try call(ContactsAPI.Method.contactsUpcoming)
        XCTAssertEqual(today["from"]?.stringValue, CivilDate.today().description)
    }
}
