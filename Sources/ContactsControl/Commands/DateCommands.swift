import ContactsAPI
import JSONCore

/// `birthdays`: the coming days to remember, as a table or JSON.
enum DateCommands {
    static func birthdays(_ inv: inout Invocation) throws -> Int32 {
        var params: JSONObject = [:]
        if let n = inv.value("days") {
            guard let days = Int(n), (1...366).contains(days) else {
                throw UsageError(message: "--days must be a whole number from 1 to 366, not '\(n)'", command: "contactsctl birthdays")
            }
            params["days"] = .int(days)
        }
        if let from = inv.value("from") { params["from"] = .string(from) }
        let result = try inv.call(ContactsAPI.Method.contactsUpcoming, params)
        if inv.json {
            inv.output.json(result)
            return 0
        }
        let dates = result["dates"]?.arrayValue ?? []
        guard !dates.isEmpty else {
            inv.output.line(inv.output.dim("No birthdays or dates in the next \(result["days"]?.intValue ?? 30) days."))
            return 0
        }
        var table = Table(headers: ["DATE", "WHEN", "NAME", "WHAT"], shrinkable: [2, 3])
        for d in dates {
            table.add([d["date"]?.stringValue ?? "", when(d["inDays"]?.intValue ?? 0), d["name"]?.stringValue ?? "", what(d)])
        }
        for line in table.render(width: inv.output.width, header: inv.output.bold) { inv.output.line(line) }
        return 0
    }

    static func when(_ days: Int) -> String {
        switch days {
        case 0: "today"
        case 1: "tomorrow"
        default: "in \(days) days"
        }
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
