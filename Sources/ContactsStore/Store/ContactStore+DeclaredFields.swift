import ContactsCore

extension ContactStore {
    /// Gives the contacts stored before a field was declared the values their cards hold for
    /// it (an Apple card's `X-ABDATE`, a vCard 4.0 `RELATED`, the department in `ORG`): their
    /// body, search text and sort key are written again. Without it, the card would be
    /// written back with the field empty, as though the user had cleared it.
    static func adoptDeclaredFields(_ db: Database) throws {
        for table in ["contacts", "trash"] {
            let select = try db.prepare("SELECT rowid, body, vcard, name FROM \(table) WHERE vcard IS NOT NULL")
            var adopted: [(rowid: Int64, row: PreparedRow)] = []
            while try select.step() {
                var c = Contact(name: "")
                select.withBytes(1) { StoredBody.decode($0, into: &c) }
                c.vcardProperties = select.withBytes(2) { StoredProperties.decode($0) }
                guard VCardMapping.adoptDeclared(into: &c) else { continue }
                c.name = select.text(3)
                adopted.append((select.int64(0), PreparedRow(c)))
            }
            select.reset()
            let update = try db.prepare("UPDATE \(table) SET body = ?, search = ?, sort_key = ? WHERE rowid = ?")
            for a in adopted { try update.run([.text(a.row.body), .text(a.row.search), .text(a.row.sortKey), .int(a.rowid)]) }
        }
    }
}
