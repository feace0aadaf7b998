import ContactsCore

extension ContactStore {
    /// The contacts with exactly these names, by name (the sort key's index finds each): for
    /// an import of rows without a UID of their own to find the people they are already.
    public func contacts(named names: Set<String>) throws -> [String: [Contact]] {
        try read { db in
            let s = try db.prepare("SELECT \(Self.contactColumns) FROM contacts c WHERE c.sort_key = ? AND c.name = ?")
            var out: [String: [Contact]] = [:]
            for name in names {
                try s.bind([.text(SearchFolding.sortKey(name)), .text(name)])
                while try s.step() { out[name, default: []].append(Self.readContact(s)) }
                s.reset()
            }
            return out
        }
    }
}
