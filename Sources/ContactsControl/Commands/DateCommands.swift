import ContactsAPI
import Foundation
import JSONCore

/// `birthdays`: the coming days to remember, as a table or JSON.
enum DateCommands {
    static func birthdays(_ inv: inout Invocation) throws -> Int32 {
        var request = ContactsUpcoming(from: inv.value("from"))
        if let n = inv.value("days") {
            let range = ContactsUpcoming.days
            guard let days = Int(n), range.contains(days) else {
                throw UsageError(
                    message: "--days must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(n)'",
                    command: "contactsctl birthdays")
            }
            request.days = days
        }
        guard let result = try inv.callForPeople(request) else { return 0 }
        let dates = result["dates"]?.arrayValue ?? []
        guard !dates.isEmpty else {
            inv.output.line(inv.output.dim("No birthdays or dates in the next \(result["days"]?.intValue ?? 30) days."))
            return 0
        }
        var table = Table(headers: ["DATE", "WHEN", "NAME", "WHAT"], shrinkable: [2, 3])
        // WHEN counts from today, also for a list that starts on another day (--from).
        let shift = try inv.value("from").map { try daysFromToday(to: $0) } ?? 0
        for d in dates {
            table.add([d["date"]?.stringValue ?? "", when((d["inDays"]?.intValue ?? 0) + shift), d["name"]?.stringValue ?? "", what(d)])
        }
        for line in table.render(width: inv.output.width, header: inv.output.bold) { inv.output.line(line) }
        return 0
    }

    static func when(_ days: Int) -> String {
        switch days {
        case 0: "today"
        case 1: "tomorrow"
        case -1: "yesterday"
        case ..<0: "\(-days) days ago"
        default: "in \(days) days"
        }
    }

    /// Days from today (here) to `date` (`YYYY-MM-DD`).
    static func daysFromToday(to date: String) throws -> Int {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        guard parts.count == 3, let day = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else {
            throw UsageError(message: "--from must be a date as YYYY-MM-DD, not '\(date)'", command: "contactsctl birthdays")
        }
        return calendar.dateComponents([.day], from: calendar.startOfDay(for: Date()), to: day).day ?? 0
    }

    /// "birthday (turns 41)", "anniversary (12 years)", "first met".
    static func what(_ d: JSONValue) -> String {
        let birthday = d["kind"]?.stringValue == "birthday"
        let label = birthday ? "birthday" : d["label"]?.stringValue ?? "date"
        guard let years = d["years"]?.intValue else { return label }
        if birthday { return years == 0 ? "born" : "\(label) (turns \(years))" }
        return "\(label) (\(years) \(years == 1 ? "year" : "years"))"
    }
}
