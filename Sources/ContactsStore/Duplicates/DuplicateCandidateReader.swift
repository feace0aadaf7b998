import ContactsCore
import ContactsSupport
import Duplicates
import JSONCore
import PhoneNumbers

/// Stored contacts as duplicates see them. Every contact as a candidate: one pass over the
/// contacts and one over their phone keys, both in rowid order and merged as they go, the
/// bodies decoded on every core a batch at a time while the next is read (no more than a few
/// batches of rows are held at once). And, for the few that are grouped, the key of what a merge compares.
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

    /// Every candidate in `nameOrder` (rowids; those missing from it come last), with its rowid.
    static func candidates(_ db: Database, region: String?, nameOrder: [Int64]) throws -> (
        candidates: [DuplicateCandidate], rowids: [Int64]
    ) {
        // Each batch is decoded while the next is read.
        let decoding = Overlapped<[DuplicateCandidate]>(ahead: 2 * Parallel.cores)
        var rowids: [Int64] = []
        try rows(db, where: nil) { batch in
            decoding.run { batch.map { candidate($0, region: region) } }
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

    /// `ContactMerge.contentKey` of the contacts with these rowids.
    static func contentKeys(_ db: Database, rowids: [Int64], region: String?) throws -> [Int64: Int] {
        let keying = Overlapped<[(Int64, Int)]>(ahead: 2 * Parallel.cores)
        try rows(db, where: rowids) { batch in
            keying.run {
                batch.map { row in
                    let (c, numbers) = row.decoded(region: region)
                    let phoneKeys = zip(c.phones, numbers).map { ContactMerge.phoneKey($0.value, e164: $1) }
                    return (row.rowid, ContactMerge.contentKey(c, phoneKeys: phoneKeys))
                }
            }
        }
        return Dictionary(keying.results().joined(), uniquingKeysWith: { first, _ in first })
    }

    /// A row as a candidate: its name's parts, its emails, its phones as numbers and its
    /// messaging addresses. Only
    /// those members of the body are read (notes and addresses are stepped over).
    static func candidate(_ row: Row, region: String?) -> DuplicateCandidate {
        let members = row.body.withUnsafeBytes { try? JSONParser.members($0, ["structuredName", "emails", "phones", "impp"]) }
        var name: StructuredName? = nil
        if let n = members?[0]?.objectValue {
            let given = n["given"]?.stringValue ?? "", family = n["family"]?.stringValue ?? ""
            if !given.isEmpty || !family.isEmpty {
                name = StructuredName(family: family, given: given, additional: n["additional"]?.stringValue ?? "")
            }
        }
        let emails = (members?[1]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue }
        var phones: [String] = []
        for (position, phone) in (members?[2]?.arrayValue ?? []).enumerated() {
            guard let text = phone["value"]?.stringValue else { continue }
            if let key = DuplicateCandidate.phoneKey(e164: row.e164(at: position, text: text, region: region), text: text) {
                phones.append(key)
            }
        }
        let messaging = (members?[3]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue }
        return DuplicateCandidate(id: row.id, name: row.name, structuredName: name, emails: emails, phones: phones, messaging: messaging)
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
