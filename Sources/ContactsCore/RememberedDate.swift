/// A day a contact's people remember each year: the birthday, or one of its dates.
public struct RememberedDate: Sendable, Equatable {
    public enum Kind: String, Sendable { case birthday, date }

    public var kind: Kind
    /// The date's label (`anniversary`); nil for the birthday and an unlabelled date.
    public var label: String?
    public var month: Int
    public var day: Int
    /// Nil when the year is not known (`--MM-DD`).
    public var year: Int?
    /// The value as the contact holds it.
    public var value: String

    /// `YYYY-MM-DD` or `--MM-DD`; nil for what is neither.
    public init?(_ value: String, kind: Kind, label: String? = nil) {
        self.kind = kind
        self.label = label
        self.value = value
        if value.hasPrefix("--") {
            let parts = value.dropFirst(2).split(separator: "-")
            guard parts.count == 2, let m = Int(parts[0]), let d = Int(parts[1]), (1...12).contains(m),
                (1...CivilDate.days(inMonth: m, of: 2000)).contains(d)
            else { return nil }
            (month, day, year) = (m, d, nil)
        } else {
            guard let date = CivilDate(value) else { return nil }
            (month, day, year) = (date.month, date.day, date.year == Self.placeholderYear ? nil : date.year)
        }
    }

    /// The year address books write for "no year" where their format needs one (CardBook's
    /// `BDAY:16040101`, Apple's `X-APPLE-OMIT-YEAR=1604`): a leap year long past.
    public static let placeholderYear = 1604

    /// The day it falls on in `year`: 29 February is 28 February in a year without one.
    public func day(in year: Int) -> CivilDate {
        CivilDate(year: year, month: month, day: min(day, CivilDate.days(inMonth: month, of: year)))
    }

    /// The next time it falls on or after `from`, and the age or number of years it is then
    /// (nil when the year is not known, or for a day before it first was).
    public func next(onOrAfter from: CivilDate) -> (date: CivilDate, years: Int?) {
        var y = from.year
        if day(in: y) < from { y += 1 }
        let years = year.map { y - $0 }
        return (day(in: y), years.flatMap { $0 >= 0 ? $0 : nil })
    }
}

extension Contact {
    /// The birthday and the dates, as days to remember (values that are no date left out).
    public var rememberedDates: [RememberedDate] {
        var out: [RememberedDate] = []
        if let b = birthday, let d = RememberedDate(b, kind: .birthday) { out.append(d) }
        for v in dates { if let d = RememberedDate(v.value, kind: .date, label: v.label) { out.append(d) } }
        return out
    }
}
