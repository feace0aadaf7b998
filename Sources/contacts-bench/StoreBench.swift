import ContactsCore
import ContactsStore
import Foundation

/// The store in process: batched creates, the search index's load, search by query class,
/// caller ID and the first page of the list.
enum StoreBench {
    /// Creates the corpus in batches of 10k (unless only another part runs), then reopens the
    /// store and warms it: the store every later store-level figure reads.
    static func fill(_ contacts: [Contact], path: String, options: Options, into report: inout Report) throws -> ContactStore {
        let store = try ContactStore(path: path)
        let t1 = now()
        var i = options.importOnly || options.dropOnly || options.syncOnly ? contacts.count : 0
        while i < contacts.count {
            try store.create(Array(contacts[i..<min(i + 10_000, contacts.count)]))
            i += 10_000
        }
        let tInsert = now() - t1
        report.row("store.create, batches of 10k", String(format: "%.2f s (%.0f contacts/s)", tInsert, Double(contacts.count) / tInsert))
        report.figures["storeInsertSeconds"] = tInsert
        store.close()
        let reopened = try ContactStore(path: path)
        let tw = now()
        try reopened.warmUp()
        let tWarm = now() - tw
        report.row("search index load", String(format: "%.0f ms", tWarm * 1000))
        report.figures["indexLoadMs"] = tWarm * 1000
        return reopened
    }

    static func measure(_ store: ContactStore, queries: QueryClasses, options: Options, into report: inout Report) throws {
        for (name, texts) in queries.classes {
            var samples: [Double] = []
            for _ in 0..<(options.searchOnly ? 200 : 20) {
                for q in texts {
                    let s = now()
                    _ = try store.query(ContactQuery(text: q, limit: 50))
                    samples.append((now() - s) * 1000)
                }
            }
            if options.perQuery {
                for (k, q) in texts.enumerated() {
                    let mine = stride(from: k, to: samples.count, by: texts.count).map { samples[$0] }.sorted()
                    let total = (try? store.query(ContactQuery(text: q, limit: 0)).total) ?? -1
                    print("  \(q): p50 \(mine[mine.count / 2]) max \(mine.last ?? 0) total \(total)")
                }
            }
            samples.sort()
            let p50 = samples[samples.count / 2]
            let p99 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))]
            report.row("store-level search p50 / p99: \(name)", String(format: "%.2f / %.2f ms", p50, p99))
            report.figures["storeSearch.\(name).p50"] = p50
            report.figures["storeSearch.\(name).p99"] = p99
        }
        // Caller ID: a whole number to the contacts that have it, through the keys' index.
        var found = 0
        let (p50, p99) = try millisPercentiles(rounds: options.searchOnly ? 500 : 100, over: queries.numberForms) { n in
            found += try store.lookupPhone(n).count
        }
        report.row("store-level caller ID (contacts.lookupPhone) p50 / p99", String(format: "%.3f / %.3f ms (%d found)", p50, p99, found))
        report.figures["storeLookupPhone.p50"] = p50
        report.figures["storeLookupPhone.p99"] = p99
        var list = [Double]()
        for _ in 0..<20 {
            let s = now()
            _ = try store.query(ContactQuery(limit: 50))
            list.append((now() - s) * 1000)
        }
        list.sort()
        report.row("store-level list first 50 p50", String(format: "%.2f ms", list[list.count / 2]))
    }
}
