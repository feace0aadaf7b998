import ContactsCore

extension ContactStore {
    /// Runs a search: substring text match (through the trigram index when every pattern has
    /// three characters or more, by scanning the summary column otherwise), filters combined
    /// with AND, sorted, paged, with the total before paging.
    public func query(_ q: ContactQuery) throws -> QueryResult {
        try read { db in
            var conditions: [String] = []
            var args: [SQLValue] = []
            let patterns = q.text.map(SearchDocument.patterns(for:)) ?? []
            if let text = q.text, !text.trimmingWhitespace().isEmpty, patterns.isEmpty {
                return QueryResult(total: 0, contacts: [])
            }
            if !patterns.isEmpty {
                if patterns.allSatisfy({ $0.unicodeScalars.count >= 3 }) {
                    conditions.append("c.rowid IN (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ?)")
                    args.append(.text(patterns.map { "\"" + $0.replacingAll("\"", with: "\"\"") + "\"" }.joined(separator: " OR ")))
                } else {
                    conditions.append("(" + patterns.map { _ in "instr(c.search, ?) > 0" }.joined(separator: " OR ") + ")")
                    args.append(contentsOf: patterns.map { .text($0) })
                }
            }
            if q.favoritesOnly { conditions.append("c.favorite = 1") }
            if let group = q.group {
                let g = try Self.fetchGroup(db, group)
                conditions.append("c.rowid IN (SELECT contact_rowid FROM memberships WHERE group_rowid = ?)")
                args.append(.int(try Self.groupRowid(db, id: g.id)))
            }
            let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            let total = Int(try db.scalarInt("SELECT count(*) FROM contacts c" + whereClause, args))
            if total == 0 || q.limit == 0 || q.offset >= total { return QueryResult(total: total, contacts: []) }

            var order: [String] = []
            for s in q.sort {
                let dir = s.ascending ? "ASC" : "DESC"
                switch s.field {
                case .name: order.append("c.sort_key \(dir), c.name \(dir)")
                case .createdAt: order.append("c.created_at \(dir)")
                case .updatedAt: order.append("c.updated_at \(dir)")
                }
            }
            if !q.sort.contains(where: { $0.field == .name }) { order.append("c.sort_key, c.name") }
            order.append("c.id")
            let sql = "SELECT \(Self.contactColumns) FROM contacts c\(whereClause) ORDER BY \(order.joined(separator: ", ")) LIMIT ? OFFSET ?"
            let s = try db.prepare(sql)
            try s.bind(args + [.int(Int64(q.limit ?? -1)), .int(Int64(q.offset))])
            var contacts: [Contact] = []
            contacts.reserveCapacity(min(total, q.limit ?? total))
            while try s.step() { contacts.append(Self.readContact(s)) }
            return QueryResult(total: total, contacts: contacts)
        }
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
