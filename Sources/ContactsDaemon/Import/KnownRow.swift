import ContactsCore

/// A CSV row (which carries no UID) that adds nothing to a contact stored under its name: the
/// contactsd's own CSV export read back, say. Such a row is that contact, unchanged, not a new
/// one (a re-imported export of 40,000 would otherwise be 40,000 duplicates). A row that adds
/// anything is imported as before, and `duplicates` finds it.
enum KnownRow {
    /// Whether every value of `row` is one `stored` has (each list's values as `ValueKind`
    /// compares them, addresses by their street, the rest as written).
    static func addsNothing(_ row: Contact, to stored: Contact) -> Bool {
        func within(_ a: [LabeledValue], _ b: [LabeledValue], _ key: (String) -> String) -> Bool {
            let have = Set(b.map { key($0.value) })
            return a.allSatisfy { have.contains(key($0.value)) }
        }
        func same(_ a: String?, _ b: String?) -> Bool { a == nil || a == b }
        return row.name == stored.name
            && within(row.phones, stored.phones, ValueKind.phone.key) && within(row.emails, stored.emails, ValueKind.email.key)
            && within(row.urls, stored.urls, ValueKind.url.key) && within(row.impp, stored.impp, ValueKind.impp.key)
            && within(row.dates, stored.dates, ValueKind.date.key) && within(row.related, stored.related, ValueKind.related.key)
            && Set(row.addresses.map(\.street)).isSubset(of: Set(stored.addresses.map(\.street)))
            && Set(row.groups.map { $0.lowercased() }).isSubset(of: Set(stored.groups.map { $0.lowercased() }))
            && same(row.organization, stored.organization) && same(row.title, stored.title)
            && same(row.department, stored.department) && same(row.nickname, stored.nickname)
            && same(row.birthday, stored.birthday) && same(row.note, stored.note)
    }
}
