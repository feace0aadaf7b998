import ContactsCore

/// Stored rows written again when what is derived from a contact changes its rules: the
/// search text and sort key after a change of folding, the body after a new field.
extension ContactStore {
    /// Folds again the text of the contacts and trash stored when the iteration mark 々 was
    /// read by the transliterator: their search text and sort key are written again.
    static func refoldIterationMarks(_ db: Database) throws {
        try rewriteRows(db, where: "instr(search, '\u{3005}') > 0") { _ in true }
    }

    /// Writes again the body, search text and sort key of each row of contacts and trash that
    /// `condition` selects and `change` says it changed.
    static func rewriteRows(_ db: Database, where condition: String, _ change: (inout Contact) -> Bool) throws {
        for table in ["contacts", "trash"] {
            let select = try db.prepare("SELECT rowid, body, vcard, name FROM \(table) WHERE \(condition)")
            var changed: [(rowid: Int64, row: PreparedRow)] = []
            while try select.step() {
                var c = Contact(name: "")
                select.withBytes(1) { StoredBody.decode($0, into: &c) }
                c.vcardProperties = select.withBytes(2) { StoredProperties.decode($0) }
                guard change(&c) else { continue }
                c.name = select.text(3)
                changed.append((select.int64(0), PreparedRow(c)))
            }
            select.reset()
            let update = try db.prepare("UPDATE \(table) SET body = ?, search = ?, sort_key = ? WHERE rowid = ?")
            for a in changed { try update.run([.text(a.row.body), .text(a.row.search), .text(a.row.sortKey), .int(a.rowid)]) }
        }
    }
}
