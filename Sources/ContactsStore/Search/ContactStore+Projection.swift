import ContactsCore
import ContactsSupport
import JSONCore

/// A query's page as the API's JSON text, with only the fields a client asked for, written
/// straight from the stored rows: the members of each stored body that the API shows as they
/// are stored are copied, not read and written again. (A mail client asking for every
/// address that matches "smith" in a million contacts gets 40,000 of them.)
extension ContactStore {
    /// The query's total and its page's contacts, `fields` of each (and the id), as the text
    /// of a JSON array.
    public func queryText(_ q: ContactQuery, fields: Contact.Fields) throws -> (total: Int, contacts: String) {
        noteRead()
        var out = JSONTextBuilder(capacity: 4096)
        out.beginArray(nil)
        let total: Int
        switch try read({ db in try matches(db, q, withCard: false) }) {
        case .listed(let result):
            total = result.total
            for c in result.contacts { c.build(into: &out, .only(fields)) }
        case .page(let count, let rowids):
            total = count
            try writeProjected(rowids: rowids, fields: fields, into: &out)
        }
        out.endArray()
        return (total, out.string)
    }

    /// The contacts of `rowids`, in that order: those in the cache from it, the rest from
    /// their rows, read in parts on every core (each part on a reader of its own, in the
    /// order SQLite reads them) and then put in order. Rowids deleted meanwhile are left out.
    func writeProjected(rowids: [Int64], fields: Contact.Fields, into out: inout JSONTextBuilder) throws {
        let cached = rowids.map { cache.get(rowid: $0) }
        let missing = rowids.indices.filter { cached[$0] == nil }.map { rowids[$0] }
        let parts = try Parallel.chunks(missing.count, minimum: 2_000) { range in
            Result { try self.read { db in try Self.projectedRows(db, missing[range], fields: fields) } }
        }.map { try $0.get() }
        var part = 0, taken = 0
        for (k, rowid) in rowids.enumerated() {
            if let c = cached[k] {
                c.build(into: &out, .only(fields))
                continue
            }
            while taken == parts[part].count {
                part += 1
                taken = 0
            }
            taken += 1
            guard let span = parts[part].spans[rowid] else { continue }
            parts[part].text.withUnsafeBytes { out.encoded(nil, UnsafeRawBufferPointer(rebasing: $0[span])) }
        }
    }

    /// Contacts written from their rows, one after another in `text`.
    struct ProjectedRows: Sendable {
        /// How many rowids were asked for.
        var count = 0
        var text: [UInt8] = []
        var spans: [Int64: Range<Int>] = [:]
    }

    static func projectedRows(_ db: Database, _ rowids: ArraySlice<Int64>, fields: Contact.Fields) throws -> ProjectedRows {
        var rows = JSONTextBuilder(capacity: rowids.count * 160)
        var spans: [Int64: Range<Int>] = [:]
        spans.reserveCapacity(rowids.count)
        _ = try fetch(db, rowids: rowids, columns: fields.contains(.groups) ? contactColumns : projectedColumns) { s in
            let start = rows.writer.bytes.count
            writeRow(s, fields: fields, into: &rows)
            spans[s.int64(0)] = start..<rows.writer.bytes.count
        }
        return ProjectedRows(count: rowids.count, text: rows.writer.bytes, spans: spans)
    }

    /// One row of `contactColumns` or `projectedColumns` as the API's contact with `fields`.
    static func writeRow(_ s: Statement, fields: Contact.Fields, into out: inout JSONTextBuilder) {
        var c = RawRow.columns(s)
        if fields.contains(.groups), let g = s.optionalText(9), !g.isEmpty {
            c.groups = sortedGroupNames(g.split(separator: "\u{1F}").map(String.init))
        }
        s.withBytes(8) { body in
            // One walk over the body: the members shown as stored are copied, the others
            // (phones, shown with what each number is) read and built.
            let spans = StoredBody.spans(body, only: fields)
            StoredBody.decode(body, spans.filter { !Contact.Fields.storedAsShown.contains($0.field) }, into: &c)
            c.build(into: &out, .only(fields)) { f in
                spans.first { $0.field == f }.map { UnsafeRawBufferPointer(rebasing: body[$0.span]) }
            }
        }
    }
}

extension ContactStore {
    /// Each of these contacts as the API's JSON text with `fields` (and the id), by rowid;
    /// rowids deleted meanwhile are left out. (What a live view sends of the contacts that
    /// entered it or changed.)
    public func contactTexts(rowids: [Int64], fields: Contact.Fields) throws -> [Int64: String] {
        var out: [Int64: String] = [:]
        var missing: [Int64] = []
        for rowid in rowids {
            if let c = cache.get(rowid: rowid) {
                var one = JSONTextBuilder(capacity: 512)
                c.build(into: &one, .only(fields))
                out[rowid] = one.string
            } else {
                missing.append(rowid)
            }
        }
        guard !missing.isEmpty else { return out }
        let rows = try read { db in try Self.projectedRows(db, missing[...], fields: fields) }
        for (rowid, span) in rows.spans { out[rowid] = String(decoding: rows.text[span], as: UTF8.self) }
        return out
    }
}
