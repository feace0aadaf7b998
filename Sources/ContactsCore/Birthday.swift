/// Birthdays as `YYYY-MM-DD`, or `--MM-DD` when the year is unknown (vCard's notation).
public enum Birthday {
    /// Accepts `YYYY-MM-DD`, `YYYYMMDD`, `--MM-DD` and `--MMDD`; checks that the date exists.
    public static func normalize(_ text: String, field: String) throws(ContactError) -> String {
        let digits = text.filter { $0 != "-" }
        let noYear = text.hasPrefix("--")
        let valid = digits.allSatisfy { $0.isASCII && $0.isNumber }
        func fail() -> ContactError {
            ContactError(.invalidData, field: field, "'\(text)' is not a date (use YYYY-MM-DD, or --MM-DD without a year)")
        }
        guard valid else { throw fail() }
        let year: Int?
        let rest: Substring
        if noYear {
            guard digits.count == 4 else { throw fail() }
            year = nil
            rest = Substring(digits)
        } else {
            guard digits.count == 8, text.count == 8 || text.count == 10 else { throw fail() }
            if text.count == 10 {
                let chars = Array(text)
                guard chars[4] == "-", chars[7] == "-" else { throw fail() }
            }
            year = Int(digits.prefix(4))
            rest = digits.dropFirst(4)
        }
        guard let month = Int(rest.prefix(2)), let day = Int(rest.suffix(2)), (1...12).contains(month) else { throw fail() }
        // Without a year, 29 February is a day (of a leap year).
        guard (1...CivilDate.days(inMonth: month, of: year ?? 2000)).contains(day) else { throw fail() }
        let md = "\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
        if let year {
            guard year >= 1 else { throw fail() }
            return "\(String(repeating: "0", count: max(0, 4 - String(year).count)))\(year)-\(md)"
        }
        return "--\(md)"
    }
}
