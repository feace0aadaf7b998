import ContactsCore
import ContactsSupport

extension ContactStore {
    /// Runs a search: case-, accent- and script-insensitive substring match over the search
    /// summary, filters combined with AND, sorted, paged, with the total before paging.
    ///
    /// Text queries are answered from the in-memory `SearchIndex`; listing without text uses
    /// the SQL indexes directly. (A projection, some fields of each contact: `queryText`.)
    public func query(_ q: ContactQuery) throws -> QueryResult {
        noteRead()
        return try query(q, withCard: false)
    }

    /// The matches of a query with their vCard properties, for export.
    public func exportContacts(matching q: ContactQuery) throws -> [Contact] { try query(q, withCard: true).contacts }

    func query(_ q: ContactQuery, withCard: Bool) throws -> QueryResult {
        // Contacts read for the page go to the cache, unless a write committed meanwhile.
        let generation = cache.currentGeneration
        var fromDatabase: [(rowid: Int64, contact: Contact)] = []
        defer { for (rowid, c) in fromDatabase { cache.put(c, rowid: rowid, readAt: generation) } }
        return try read { db in
            let page: (total: Int, rowids: [Int64])
            switch try matches(db, q, withCard: withCard) {
            case .listed(let result): return result
            case .page(let total, let rowids): page = (total, rowids)
            }
            if withCard { return QueryResult(total: page.total, contacts: try Self.fetch(db, rowids: page.rowids, withCard: true)) }
            // Contacts read lately (the first page of the query before, a contact just opened)
            // come from the cache; the rest from the database, in one statement.
            var contacts = page.rowids.map { cache.get(rowid: $0) }
            let missing = contacts.indices.filter { contacts[$0] == nil }
            if !missing.isEmpty {
                let read = try Self.fetch(db, rowids: missing.map { page.rowids[$0] }, withCard: false) { s in
                    (rowid: s.int64(0), contact: Self.readContact(s))
                }
                fromDatabase = read
                if read.count == missing.count {
                    // Read in the order asked for, none deleted meanwhile.
                    for (k, r) in zip(missing, read) { contacts[k] = r.contact }
                } else {
                    var byRowid: [Int64: Contact] = [:]
                    for (rowid, c) in read { byRowid[rowid] = c }
                    for k in missing { contacts[k] = byRowid[page.rowids[k]] }
                }
            }
            return QueryResult(total: page.total, contacts: contacts.compactMap { $0 })
        }
    }

    /// What a query matches: a page of rowids from the search index, or, for an order the
    /// index does not keep, the contacts themselves from SQL.
    enum Matches {
        case page(total: Int, rowids: [Int64])
        case listed(QueryResult)
    }

    func matches(_ db: Database, _ query: ContactQuery, withCard: Bool) throws -> Matches {
        var q = query
        // The collected book is the collected contacts.
        if q.account == .collected { q.collected = .only }
        let patterns = q.text.map(SearchDocument.patterns(for:)) ?? []
        if let text = q.text, !text.trimmingWhitespace().isEmpty, patterns.isEmpty { return .page(total: 0, rowids: []) }
        var groupRowid: Int64?
        if let group = q.group {
            let g = try Self.fetchGroup(db, group)
            groupRowid = try Self.groupRowid(db, id: g.id)
        }
        // Lists go through the index too (it counts without reading the table, and holds
        // the name order, which no SQL index does), except for orders it does not keep (a
        // second sort key).
        let byFrequency = q.sort.first?.field == .frequency
        if patterns.isEmpty && q.sort.count > 1 && !byFrequency {
            return .listed(try Self.listWithSQL(db, q, groupRowid: groupRowid, withCard: withCard))
        }
        try searchIndex.loadIfNeeded(db)
        var members: Set<Int64>?
        if let groupRowid { members = Set(try Self.memberRowids(db, groupRowid: groupRowid)) }
        if let scope = q.account {
            let inScope = Set(try Self.rowids(db, in: scope))
            members = members.map { $0.intersection(inScope) } ?? inScope
        }
        let first = q.sort.first ?? ContactQuery.Sort(.name)
        let needles = patterns.map { Array($0.utf8) }
        switch first.field {
        case .name:
            let page = searchIndex.search(
                patterns: needles, favoritesOnly: q.favoritesOnly, members: members, collected: q.collected, ascending: first.ascending,
                offset: q.offset, limit: q.limit)
            return .page(total: page.total, rowids: page.rowids)
        case .createdAt, .updatedAt:
            let all = searchIndex.search(
                patterns: needles, favoritesOnly: q.favoritesOnly, members: members, collected: q.collected, ascending: true, offset: 0,
                limit: nil)
            let rowids = try Self.timeOrdered(
                db, all.rowids, column: first.field == .createdAt ? .created : .updated, ascending: first.ascending, offset: q.offset,
                limit: q.limit)
            return .page(total: all.total, rowids: rowids)
        case .frequency:
            // Ranked in name order, so that equals stay in it.
            let all = searchIndex.search(
                patterns: needles, favoritesOnly: q.favoritesOnly, members: members, collected: q.collected, ascending: true, offset: 0,
                limit: nil)
            let ranks = try mailRanks(db).byRowid
            let ranked = all.rowids.enumerated().sorted { x, y in
                let (a, b) = (ranks[x.element] ?? 0, ranks[y.element] ?? 0)
                return a != b ? (first.ascending ? a < b : a > b) : x.offset < y.offset
            }
            let end = min(ranked.count, q.limit.map { q.offset + $0 } ?? ranked.count)
            return .page(total: all.total, rowids: q.offset < end ? ranked[q.offset..<end].map(\.element) : [])
        }
    }

    /// Contacts by rowid, in the order given; rowids deleted meanwhile are skipped.
    static func fetch(_ db: Database, rowids: [Int64], withCard: Bool = false) throws -> [Contact] {
        try fetch(db, rowids: rowids, withCard: withCard) { s in readContact(s, withCard: withCard) }
    }

    /// Rows by rowid made into `T` by `make`, in the order given; rowids deleted meanwhile
    /// are skipped. (SQLite reads each statement's 500 in rowid order.)
    static func fetch<T>(_ db: Database, rowids: some Collection<Int64>, withCard: Bool, _ make: (Statement) -> T) throws -> [T] {
        try fetch(db, rowids: rowids, columns: withCard ? contactColumnsWithCard : contactColumns, make)
    }

    static func fetch<T>(_ db: Database, rowids: some Collection<Int64>, columns: String, _ make: (Statement) -> T) throws -> [T] {
        guard !rowids.isEmpty else { return [] }
        var byRowid: [Int64: T] = [:]
        byRowid.reserveCapacity(rowids.count)
        var rest = rowids[...]
        while !rest.isEmpty {
            let chunk = rest.prefix(500)
            rest = rest.dropFirst(500)
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let s = try db.prepare(
                "SELECT \(columns) FROM contacts c WHERE c.rowid IN (\(placeholders))")
            try s.bind(chunk.map { .int($0) })
            while try s.step() { byRowid[s.int64(0)] = make(s) }
        }
        return rowids.compactMap { byRowid[$0] }
    }

    /// The rowids of the contacts in `scope`.
    static func rowids(_ db: Database, in scope: AccountScope) throws -> [Int64] {
        let s: Statement
        switch scope {
        case .account(let name):
            guard try db.scalarInt("SELECT count(*) FROM accounts WHERE name = ?", [.text(name)]) > 0 else {
                throw StoreError.notFound(kind: "account", id: name)
            }
            s = try db.prepare("SELECT c.rowid FROM contacts c JOIN sync_items i ON i.contact_id = c.id WHERE i.account = ?")
            try s.bind([.text(name)])
        case .local:
            s = try db.prepare(
                "SELECT rowid FROM contacts WHERE id NOT IN (SELECT contact_id FROM sync_items WHERE contact_id IS NOT NULL)")
        case .collected:
            s = try db.prepare("SELECT rowid FROM contacts WHERE collected = 1")
        }
        defer { s.reset() }
        var out: [Int64] = []
        while try s.step() { out.append(s.int64(0)) }
        return out
    }

    static func listWithSQL(_ db: Database, _ q: ContactQuery, groupRowid: Int64?, withCard: Bool) throws -> QueryResult {
        var conditions: [String] = []
        var args: [SQLValue] = []
        if q.favoritesOnly { conditions.append("c.favorite = 1") }
        switch q.collected {
        case .excluded: conditions.append("c.collected = 0")
        case .only: conditions.append("c.collected = 1")
        case .included: break
        }
        if let groupRowid {
            conditions.append("c.rowid IN (SELECT contact_rowid FROM memberships WHERE group_rowid = ?)")
            args.append(.int(groupRowid))
        }
        switch q.account {
        case .account(let name):
            conditions.append("c.id IN (SELECT contact_id FROM sync_items WHERE account = ?)")
            args.append(.text(name))
        case .local: conditions.append("c.id NOT IN (SELECT contact_id FROM sync_items WHERE contact_id IS NOT NULL)")
        case .collected: conditions.append("c.collected = 1")
        case nil: break
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let total = Int(try db.scalarInt("SELECT count(*) FROM contacts c" + whereClause, args))
        if total == 0 || q.limit == 0 || q.offset >= total { return QueryResult(total: total, contacts: []) }
        var order: [String] = []
        for s in q.sort {
            let dir = s.ascending ? "ASC" : "DESC"
            switch s.field {
            case .name: order.append("c.sort_key \(dir), c.rowid \(dir)")
            case .createdAt: order.append("c.created_at \(dir)")
            case .updatedAt: order.append("c.updated_at \(dir)")
            // A later key never orders by mail: only a first one does (above).
            case .frequency: continue
            }
        }
        if !q.sort.contains(where: { $0.field == .name }) { order.append("c.sort_key, c.rowid") }
        let sql =
            "SELECT \(withCard ? contactColumnsWithCard : contactColumns) FROM contacts c\(whereClause) ORDER BY \(order.joined(separator: ", ")) LIMIT ? OFFSET ?"
        let s = try db.prepare(sql)
        try s.bind(args + [.int(Int64(q.limit ?? -1)), .int(Int64(q.offset))])
        var contacts: [Contact] = []
        contacts.reserveCapacity(min(total, q.limit ?? total))
        while try s.step() { contacts.append(readContact(s, withCard: withCard)) }
        return QueryResult(total: total, contacts: contacts)
    }
}
