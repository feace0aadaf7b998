import ContactsStore
import Foundation
import Glibc

/// What keeping history costs: the import's store phase and the store's size, each with
/// history and without, on the bench's corpus.
enum HistoryBench {
    static func measure(_ items: [ImportItem], scratch dir: String) throws -> Report {
        var out = Report()
        // The same store phase into stores that keep history and stores that do not, in the
        // order with, without, without, with, then the other way round: each import's speed
        // depends on its place, and one order alone gave +8 % one way and -4 % the other. Each store in a
        // directory of its own, so that each writes its photo files.
        var withHistory: [Double] = []
        var withoutHistory: [Double] = []
        for (k, keeps) in [true, false, false, true, false, true, true, false].enumerated() {
            try FileManager.default.createDirectory(atPath: dir + "/import-\(k)", withIntermediateDirectories: true)
            let s = try ContactStore(path: dir + "/import-\(k)/contacts.sqlite3")
            s.keepsHistory = keeps
            // Each starts with nothing of the one before still on its way to disk.
            sync()
            let t0 = now()
            _ = try s.importContacts(items)
            if keeps { withHistory.append(now() - t0) } else { withoutHistory.append(now() - t0) }
            s.close()
            try? FileManager.default.removeItem(atPath: dir + "/import-\(k)")
        }
        let tWith = withHistory.reduce(0, +) / 4, tPlain = withoutHistory.reduce(0, +) / 4
        out.rows.append(
            (
                "import store phase: with history / without",
                String(format: "%.2f / %.2f s (%+.0f %%)", tWith, tPlain, (tWith / tPlain - 1) * 100)
            ))
        out.figures["importStoreWithHistorySeconds"] = tWith
        out.figures["importStoreWithoutHistorySeconds"] = tPlain
        // The store's size with history: the contacts imported, then each edited ten times (ten
        // imports of every card with a changed note), with history and without. 10k contacts
        // unless BENCH_HISTORY_SIZE=1 asks for the whole corpus (minutes at 100k).
        let editedCount = ProcessInfo.processInfo.environment["BENCH_HISTORY_SIZE"] != nil ? items.count : min(items.count, 10_000)
        var sizes: [Bool: Int] = [:]
        for keeps in [true, false] {
            let sub = dir + "/edited-\(keeps)"
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            let s = try ContactStore(path: sub + "/contacts.sqlite3")
            s.keepsHistory = keeps
            var round = Array(items.prefix(editedCount))
            _ = try s.importContacts(round)
            for edit in 1...10 {
                for k in round.indices { round[k].contact.note = "edited \(edit) times" }
                _ = try s.importContacts(round)
            }
            if keeps {
                // A contact's history, each with eleven changes.
                var ms: [Double] = []
                for item in round.prefix(200) {
                    guard let id = try s.query(ContactQuery(text: item.contact.name, limit: 1)).contacts.first?.id else { continue }
                    let t = now()
                    _ = try s.history(id: id)
                    ms.append((now() - t) * 1000)
                }
                ms.sort()
                if !ms.isEmpty {
                    let p99 = ms[min(ms.count - 1, ms.count * 99 / 100)]
                    out.rows.append(
                        ("contacts.history p50 / p99 (store level, 11 changes)", String(format: "%.2f / %.2f ms", ms[ms.count / 2], p99)))
                    out.figures["historyP99Ms"] = p99
                }
            }
            s.close()
            let attributes = try FileManager.default.attributesOfItem(atPath: sub + "/contacts.sqlite3")
            sizes[keeps] = (attributes[.size] as? Int) ?? 0
            try? FileManager.default.removeItem(atPath: sub)
        }
        let withSize = Double(sizes[true] ?? 0) / 1_048_576, withoutSize = Double(sizes[false] ?? 0) / 1_048_576
        out.rows.append(
            (
                "store after 10 edits of \(editedCount) contacts: with history / without",
                String(format: "%.1f / %.1f MiB (%.2fx)", withSize, withoutSize, withSize / max(withoutSize, 0.001))
            ))
        out.figures["historyStoreRatio"] = withSize / max(withoutSize, 0.001)
        return out
    }
}
