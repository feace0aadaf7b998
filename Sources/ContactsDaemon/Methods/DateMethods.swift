import ContactsAPI
import ContactsCore
import ContactsStore
import Foundation
import JSONCore
import JSONRPC

/// Birthdays and dates to come.
enum DateMethods {
    static func all(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(ContactsUpcoming.self) { request, _ in
                let days = request.days
                let from: CivilDate
                if let text = request.from {
                    guard let d = CivilDate(text) else { throw RPCError.invalidParams("'from' must be a date, YYYY-MM-DD", field: "from") }
                    from = d
                } else {
                    from = CivilDate.today()
                }
                let dates = upcoming(try store.datedContacts(), from: from, days: days)
                return [
                    "from": .string(from.description), "days": .int(days),
                    "dates": .array(
                        dates.map { u in
                            [
                                "date": .string(u.date.description), "inDays": .int(u.date.dayNumber - from.dayNumber),
                                "kind": .string(u.remembered.kind.rawValue), "label": u.remembered.label.map(JSONValue.string) ?? .null,
                                "value": .string(u.remembered.value), "years": u.years.map { .int($0) } ?? .null,
                                "id": .string(u.contact.id), "name": .string(u.contact.name),
                            ]
                        }),
                ]
            }
        ]
    }

    struct Upcoming {
        var date: CivilDate
        var years: Int?
        var remembered: RememberedDate
        var contact: Contact
    }

    /// The days of `contacts` that fall in `days` days from `from`, soonest first (then in the
    /// contacts' order, birthdays before dates).
    static func upcoming(_ contacts: [Contact], from: CivilDate, days: Int) -> [Upcoming] {
        let last = from.adding(days: days - 1)
        var out: [(order: Int, u: Upcoming)] = []
        for c in contacts {
            for r in c.rememberedDates {
                // A window of up to 366 days meets a date at most twice (29 February aside, once).
                var start = from
                while start <= last {
                    let (date, years) = r.next(onOrAfter: start)
                    guard date <= last else { break }
                    out.append((out.count, Upcoming(date: date, years: years, remembered: r, contact: c)))
                    start = date.adding(days: 1)
                }
            }
        }
        return out.sorted { ($0.u.date, $0.order) < ($1.u.date, $1.order) }.map(\.u)
    }
}
