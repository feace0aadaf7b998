/// Birthdays as `YYYY-MM-DD`, or `--MM-DD` when the year is unknown (vCard's notation).
public enum Birthday {
    /// Accepts `YYYY-MM-DD`, `YYYYMMDD`, `--MM-DD` and `--MMDD`; checks that the date exists.
    /// Read as bytes: every card's birthday and dates come through here on an import.
    public static func normalize(_ text: String, field: String) throws(ContactError) -> String {
        func fail() -> ContactError {
            ContactError(.invalidData, field: field, "'\(text)' is not a date (use YYYY-MM-DD, or --MM-DD without a year)")
        }
        let utf8 = text.utf8
        let noYear = utf8.starts(with: "--".utf8)
        // The digits without the dashes, as one number, and how many there were.
        var value = 0
        var digits = 0
        for b in utf8 where b != UInt8(ascii: "-") {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b), digits < 8 else { throw fail() }
            value = value * 10 + Int(b - UInt8(ascii: "0"))
            digits += 1
        }
        let year: Int?
        if noYear {
            guard digits == 4 else { throw fail() }
            year = nil
        } else {
            guard digits == 8, utf8.count == 8 || utf8.count == 10 else { throw fail() }
            if utf8.count == 10 {
                let dash = { (k: Int) in utf8[utf8.index(utf8.startIndex, offsetBy: k)] == UInt8(ascii: "-") }
                guard dash(4), dash(7) else { throw fail() }
            }
            year = value / 10_000
        }
        let month = value / 100 % 100, day = value % 100
        guard (1...12).contains(month) else { throw fail() }
        // Without a year, 29 February is a day (of a leap year).
        guard (1...CivilDate.days(inMonth: month, of: year ?? 2000)).contains(day) else { throw fail() }
        if let year, year < 1 { throw fail() }
        return String(unsafeUninitializedCapacity: 10) { out in
            var n = 0
            func put(_ v: Int, width: Int) {
                var divisor = 1
                for _ in 1..<width { divisor *= 10 }
                while divisor > 0 {
                    out[n] = UInt8(ascii: "0") + UInt8(v / divisor % 10)
                    n += 1
                    divisor /= 10
                }
            }
            func dash() {
                out[n] = UInt8(ascii: "-")
                n += 1
            }
            if let year {
                put(year, width: 4)
            } else {
                dash()
            }
            dash()
            put(month, width: 2)
            dash()
            put(day, width: 2)
            return n
        }
    }
}
