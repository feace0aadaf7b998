import ContactsCore
import JSONCore

extension ContactStore {
    /// The fields days to remember are in.
    static let dateFields: Contact.Fields = .birthday.union(DeclaredField.byName["dates"]?.field ?? [])

    /// The contacts with a birthday or a date, each with its id, uid, name, update time,
    /// birthday and dates alone: everyone's, or those of `ids` still in the store.
    public func datedContacts(ids: [String]? = nil) throws -> [Contact] {
        try read { db in
            let dated = "(instr(body, '\"birthday\"') > 0 OR instr(body, '\"dates\"') > 0)"
            let sql =
                ids == nil
                ? "SELECT id, uid, name, updated_at, body FROM contacts WHERE \(dated) ORDER BY sort_key, rowid"
                : "SELECT id, uid, name, updated_at, body FROM contacts WHERE \(dated) AND id IN (SELECT value FROM json_each(?))"
            let s = try db.prepare(sql)
            if let ids { try s.bind([.text(JSONWriter.string(.array(ids.map { .string($0) })))]) }
            var out: [Contact] = []
            while try s.step() {
                var c = Contact(name: s.text(2))
                c.id = s.text(0)
                c.uid = s.text(1)
                c.updatedAt = s.int64(3)
                s.withBytes(4) { bytes in
                    StoredBody.decode(bytes, StoredBody.spans(bytes, only: Self.dateFields), into: &c)
                }
                if !c.rememberedDates.isEmpty { out.append(c) }
            }
            s.reset()
            return out
        }
    }
}
