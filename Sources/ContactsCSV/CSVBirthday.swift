import ContactsCore

/// Birthdays as CSV exports write them: `1980-05-14` and `--05-14` (Google), `5/14/1980`
/// (Outlook in English), `14.05.1980` (Outlook in German), `14/05/1980` where the day comes
/// first and shows it (a day above 12).
enum CSVBirthday {
    /// `YYYY-MM-DD` or `--MM-DD`; nil when the text is no date.
    static func parse(_ text: String) -> String? {
        if let iso = try? Birthday.normalize(text, field: "birthday") { return iso }
        let dotted = text.split(separator: ".").map(String.init)
        let slashed = text.split(separator: "/").map(String.init)
        var day: Int?, month: Int?, year: Int?
        if dotted.count == 3 {
            (day, month, year) = (Int(dotted[0]), Int(dotted[1]), Int(dotted[2]))
        } else if slashed.count == 3, let a = Int(slashed[0]), let b = Int(slashed[1]) {
            (month, day, year) = a > 12 ? (b, a, Int(slashed[2])) : (a, b, Int(slashed[2]))
        }
        guard let d = day, let m = month, var y = year else { return nil }
        // Two-digit years: the closest century that is not in the future.
        if y < 100 { y += y <= 30 ? 2000 : 1900 }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return try? Birthday.normalize("\(y)-\(two(m))-\(two(d))", field: "birthday")
    }
}
