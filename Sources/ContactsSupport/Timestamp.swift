import Glibc

/// Timestamps as milliseconds since 1970 (UTC), formatted as RFC 3339 (`2026-11-30T10:00:00Z`).
public enum Timestamp {
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Milliseconds of a clock that only goes forward (for how long something took or waited).
    public static func monotonicMillis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    public static func format(_ millis: Int64) -> String {
        var seconds = time_t(millis / 1000)
        var t = tm()
        gmtime_r(&seconds, &t)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return "\(pad(t.tm_year + 1900, 4))-\(pad(t.tm_mon + 1, 2))-\(pad(t.tm_mday, 2))T"
            + "\(pad(t.tm_hour, 2)):\(pad(t.tm_min, 2)):\(pad(t.tm_sec, 2))Z"
    }

    /// A vCard `REV` or an RFC 3339 time in UTC (`20261201T120000Z`, `2026-12-01T12:00:00Z`,
    /// with or without the time) as milliseconds; nil when it is neither.
    public static func parseRevision(_ text: String) -> Int64? {
        let digits = text.filter(\.isNumber)
        guard digits.count >= 8, text.uppercased().hasSuffix("Z") || digits.count == 8 else { return nil }
        let d = Array(digits)
        func number(_ from: Int, _ count: Int) -> Int32? { from + count <= d.count ? Int32(String(d[from..<(from + count)])) : 0 }
        guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2), let hour = number(8, 2),
            let minute = number(10, 2),
            let second = number(12, 2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var t = tm()
        t.tm_year = year - 1900
        t.tm_mon = month - 1
        t.tm_mday = day
        t.tm_hour = hour
        t.tm_min = minute
        t.tm_sec = second
        return Int64(timegm(&t)) * 1000
    }
}
