import ContactsCore
import ContactsSupport
import JSONCore
import PhoneNumbers

/// Stored contacts as a search for duplicates reads them: every contact with the fields it
/// compares, in one pass over the contacts and one over their phone keys, both in rowid
/// order and merged as they go, the bodies decoded on every core a batch at a time while the
/// next is read (no more than a few batches of rows are held at once); and, for the few that
/// are grouped, each whole. What is made of them is the caller's (the Duplicates module's).
enum DuplicateCandidateReader {
    static let batchSize = 4096

    /// A contact's row as read: its body still JSON, its phones' stored E.164 keys by position.
    struct Row: Sendable {
        var rowid: Int64
        var id: String
        var name: String
        var body: [UInt8]
        var keys: [(position: Int, e164: String)]
        /// A large import left its phones without keys: they are parsed here.
        var unkeyed: Bool

        /// The contact's fields, and each phone's E.164 form where it has one.
        func decoded(region: String?) -> (Contact, [String?]) {
            var c = Contact(name: name)
            c.id = id
            body.withUnsafeBytes { StoredBody.decode($0, into: &c) }
            return (c, c.phones.enumerated().map { e164(at: $0, text: $1.value, region: region) })
        }

        /// The E.164 form of the phone at `position`: its stored key, or parsed when it has none yet.
        func e164(at position: Int, text: String, region: String?) -> String? {
            unkeyed ? PhoneNumber.parse(text, region: region, withType: false)?.e164 : keys.first { $0.position == position }?.e164
        }
    }

    /// Every contact in `nameOrder` (rowids; those missing from it come last, or are left out
    /// when `onlyThose`) with the fields duplicates compare, made into `T` by `make`, with its
    /// rowid.
    static func compared<T: Sendable>(
        _ db: Database, region: String?, nameOrder: [Int64], onlyThose: Bool = false,
        _ make: @escaping @Sendable (Contact, [String?]) -> T
    ) throws -> (values: [T], rowids: [Int64]) {
        // Each batch is decoded while the next is read.
        let decoding = Overlapped<[T]>(ahead: 2 * Parallel.cores)
        var rowids: [Int64] = []
        let taken = onlyThose ? Set(nameOrder) : nil
        try rows(db, where: nil) { all in
            let batch = taken.map { taken in all.filter { taken.contains($0.rowid) } } ?? all
            decoding.run {
                batch.map { row in
                    let (c, numbers) = comparedFields(row, region: region)
                    return make(c, numbers)
                }
            }
            rowids += batch.map(\.rowid)
        }
        let made = Array(decoding.results().joined())
        let order = nameOrdered(rowids, nameOrder: nameOrder)
        return (order.map { made[$0] }, order.map { rowids[$0] })
    }

    /// The places of `rowids` (ascending) in the order of `nameOrder`, those missing from it
    /// last in rowid order. Rowids are close to `1...count`: their ranks are an array, not a table.
    static func nameOrdered(_ rowids: [Int64], nameOrder: [Int64]) -> [Int] {
        let largest = max(rowids.max() ?? 0, nameOrder.max() ?? 0)
        let ranks: [Int]
        if largest < 4 * Int64(max(rowids.count, 1024)) && rowids.allSatisfy({ $0 >= 0 }) {
            var rank = [Int](repeating: Int.max, count: Int(largest) + 1)
            for (i, rowid) in nameOrder.enumerated() where rowid >= 0 { rank[Int(rowid)] = i }
            ranks = rowids.map { rank[Int($0)] }
        } else {
            var rank: [Int64: Int] = [:]
            for (i, rowid) in nameOrder.enumerated() { rank[rowid] = i }
            ranks = rowids.map { rank[$0] ?? Int.max }
        }
        var placed = [Int](repeating: -1, count: nameOrder.count), unranked: [Int] = []
        for (place, r) in ranks.enumerated() {
            if r == Int.max { unranked.append(place) } else { placed[r] = place }
        }
        return placed.filter { $0 >= 0 } + unranked
    }

    /// The contacts with these rowids, whole, with each phone's E.164 form, made into `T`.
    static func whole<T: Sendable>(
        _ db: Database, rowids: [Int64], region: String?, _ make: @escaping @Sendable (Contact, [String?]) -> T
    ) throws -> [Int64: T] {
        let making = Overlapped<[(Int64, T)]>(ahead: 2 * Parallel.cores)
        try rows(db, where: rowids) { batch in
            making.run {
                batch.map { row in
                    let (c, numbers) = row.decoded(region: region)
                    return (row.rowid, make(c, numbers))
                }
            }
        }
        return Dictionary(making.results().joined(), uniquingKeysWith: { first, _ in first })
    }

    /// A row with the fields duplicates compare: its name and the name's parts, its emails, its
    /// phones (with each one's E.164 form) and its messaging addresses. Only those members of
    /// the body are read (notes and addresses are stepped over).
    static func comparedFields(_ row: Row, region: String?) -> (Contact, [String?]) {
        let members = row.body.withUnsafeBytes { try? JSONParser.members($0, ["structuredName", "emails", "phones", "impp"]) }
        var c = Contact(name: row.name)
        c.id = row.id
        if let n = members?[0]?.objectValue {
            let given = n["given"]?.stringValue ?? "", family = n["family"]?.stringValue ?? ""
            if !given.isEmpty || !family.isEmpty {
                c.structuredName = StructuredName(family: family, given: given, additional: n["additional"]?.stringValue ?? "")
            }
        }
        c.emails = (members?[1]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue }.map { LabeledValue(value: $0) }
        var numbers: [String?] = []
        for (position, phone) in (members?[2]?.arrayValue ?? []).enumerated() {
            guard let text = phone["value"]?.stringValue else { continue }
            c.phones.append(LabeledValue(value: text))
            numbers.append(row.e164(at: position, text: text, region: region))
        }
        c.impp = (members?[3]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue }.map { LabeledValue(value: $0) }
        return (c, numbers)
    }

    /// The rows of every contact (`rowids` nil) or of those with these rowids, in rowid order,
    /// handed to `body` a batch at a time. The rowids go in as one bound JSON array: one statement each, whatever their number
    /// (the connection caches statements by their text).
    private static func rows(_ db: Database, where rowids: [Int64]?, _ body: ([Row]) throws -> Void) throws {
        let filter = rowids == nil ? "" : " WHERE rowid IN (SELECT value FROM json_each(?1))"
        let keyFilter = rowids == nil ? "" : " WHERE contact_rowid IN (SELECT value FROM json_each(?1))"
        let bound: [SQLValue] = rowids.map { [.text("[" + $0.map(String.init).joined(separator: ",") + "]")] } ?? []
        var unkeyed = Set<Int64>()
        let u = try db.prepare("SELECT contact_rowid FROM phones_unkeyed")
        while try u.step() { unkeyed.insert(u.int64(0)) }
        // In the primary key's order, which is the order asked for: no sort, and no index on
        // e164 (a condition on it would pick that index and sort every key).
        let k = try db.prepare("SELECT contact_rowid, position, e164 FROM phone_numbers\(keyFilter) ORDER BY contact_rowid, position")
        try k.bind(bound)
        var key: (rowid: Int64, position: Int, e164: String?)? = nil
        func nextKey() throws { key = try k.step() ? (k.int64(0), k.int(1), k.optionalText(2)) : nil }
        try nextKey()

        var batch: [Row] = []
        batch.reserveCapacity(min(batchSize, rowids?.count ?? batchSize))
        let s = try db.prepare("SELECT rowid, id, name, body FROM contacts\(filter) ORDER BY rowid")
        try s.bind(bound)
        while try s.step() {
            let rowid = s.int64(0)
            var keys: [(position: Int, e164: String)] = []
            while let found = key, found.rowid <= rowid {
                if found.rowid == rowid, let e164 = found.e164 { keys.append((found.position, e164)) }
                try nextKey()
            }
            batch.append(
                Row(
                    rowid: rowid, id: s.text(1), name: s.text(2), body: s.withBytes(3) { [UInt8]($0) }, keys: keys,
                    unkeyed: unkeyed.contains(rowid)))
            if batch.count == batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }
}
