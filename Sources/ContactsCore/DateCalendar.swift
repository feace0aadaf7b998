import ContactsSupport

/// A contact's birthday and dates as iCalendar (RFC 5545): an all-day event for each, once a
/// year, which khal, Thunderbird, GNOME Calendar and vdirsyncer read.
public enum DateCalendar {
    public static let productID = "-//contactsd//Birthdays and dates//EN"
    /// The year an event starts in when the date's year is not known: a leap year, so that
    /// 29 February is a day of it.
    static let unknownYear = 1972

    /// One event of a contact: its name (stable while the date and its label stay) and text.
    public struct Event: Sendable, Equatable {
        public var name: String
        public var text: String
    }

    /// The events of `c`, one for each of its remembered dates (the same date twice once).
    public static func events(for c: Contact) -> [Event] {
        var out: [Event] = []
        for d in c.rememberedDates {
            let name =
                d.kind == .birthday
                ? "birthday" : "date-" + SHA256.hex(Array(((d.label ?? "") + "\u{1F}" + d.value).utf8)).prefix(16)
            guard !out.contains(where: { $0.name == name }) else { continue }
            out.append(Event(name: name, text: event(d, of: c, name: name)))
        }
        return out
    }

    /// A calendar's lines before its events, and after them.
    public static let opening = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:\(productID)\r\nCALSCALE:GREGORIAN\r\n"
    public static let closing = "END:VCALENDAR\r\n"

    /// A calendar holding `events` (the texts of `events(for:)`).
    public static func calendar(_ events: [String]) -> String { opening + events.joined() + closing }

    static func event(_ d: RememberedDate, of c: Contact, name: String) -> String {
        let start = CivilDate(year: d.year ?? unknownYear, month: d.month, day: d.day)
        let what = d.kind == .birthday ? "birthday" : d.label ?? "date"
        var lines = [
            "BEGIN:VEVENT",
            "UID:\(c.id)-\(name)@contactsd",
            "DTSTAMP:\(timestamp(c.updatedAt))",
            "DTSTART;VALUE=DATE:\(start.basic)",
            "DTEND;VALUE=DATE:\(start.adding(days: 1).basic)",
            // The last day of February: the 29th where there is one, else the 28th.
            d.month == 2 && d.day == 29 ? "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1" : "RRULE:FREQ=YEARLY",
            "SUMMARY:" + escaped("\(c.name) — \(what)"),
            "TRANSP:TRANSPARENT",
            "CATEGORIES:" + (d.kind == .birthday ? "BIRTHDAY" : "ANNIVERSARY"),
        ]
        if let year = d.year {
            lines.append("DESCRIPTION:" + escaped(d.kind == .birthday ? "Born \(year)" : "Since \(year)"))
        }
        lines.append("X-CONTACTSD-CONTACT:\(c.id)")
        lines.append("END:VEVENT")
        return lines.map(folded).joined()
    }

    /// A UTC time as iCalendar writes it (`20261130T100000Z`), from milliseconds since 1970.
    static func timestamp(_ millis: Int64) -> String { Timestamp.format(millis).filter { $0 != "-" && $0 != ":" } }

    /// TEXT as RFC 5545 escapes it.
    static func escaped(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            case "\r": continue
            default: out.append(ch)
            }
        }
        return out
    }

    /// A content line with its line end, folded at 75 octets without splitting a character.
    static func folded(_ line: String) -> String {
        var out = ""
        var width = 0
        for ch in line {
            let n = ch.utf8.count
            if width + n > 75 {
                out += "\r\n "
                width = 1
            }
            out.append(ch)
            width += n
        }
        return out + "\r\n"
    }
}
