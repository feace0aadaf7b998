import ContactsCore
import ContactsStore
import Foundation
import Glibc
import VCard

/// The import pipeline in process, phase by phase, on the corpus as vCard 3.0: parse, map
/// (one core), store; then the whole import undone in one call.
enum ImportBench {
    /// The mapped contacts, kept for the history's cost (measured after the daemon's figures:
    /// its imports and their writes would slow those).
    static func measure(_ contacts: [Contact], scratch dir: String, options: Options, into report: inout Report) throws -> [ImportItem] {
        var text = ""
        for c in contacts { VCardWriter.write(VCard(properties: VCardMapping.properties(for: c)), version: .v3, into: &text) }
        let bytes = Array(text.utf8)
        let tp = now()
        let parsed = VCardParser.parse(bytes)
        let tParse = now() - tp
        let tm = now()
        // As the daemon does: each photo leaves its card, to be stored by content.
        var photos: [PhotoData?] = []
        let mapped = parsed.cards.compactMap { card -> Contact? in
            guard let (c, photo) = try? VCardMapping.contactWithPhoto(from: card) else { return nil }
            photos.append(photo)
            return c
        }
        let tMap = now() - tm
        if options.breakdown { printMappingBreakdown(mapped) }
        let importStore = try ContactStore(path: dir + "/import.sqlite3")
        var before = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        let ts = now()
        _ = try importStore.importContacts(
            zip(mapped, photos).map { ImportItem(contact: $0, carriesGroups: true, carriesFavorite: false, photo: $1) })
        let tStore = now() - ts
        var after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &after)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        if options.breakdown {
            print(
                String(
                    format: "  store phase: %.2f s wall, %.2f s user, %.2f s system", tStore,
                    seconds(after.ru_utime) - seconds(before.ru_utime), seconds(after.ru_stime) - seconds(before.ru_stime)))
        }
        let tu = now()
        _ = try importStore.undo()
        let tUndo = now() - tu
        report.row("undo of the import", String(format: "%.2f s", tUndo))
        report.figures["undoImportSeconds"] = tUndo
        importStore.close()
        report.row("import phases: parse / map (1 core) / store", String(format: "%.2f / %.2f / %.2f s", tParse, tMap, tStore))
        report.figures["importParseSeconds"] = tParse
        report.figures["importMapSeconds"] = tMap
        report.figures["importStoreSeconds"] = tStore
        return zip(mapped, photos).map { ImportItem(contact: $0, carriesGroups: true, carriesFavorite: false, photo: $1) }
    }

    /// What the store derives from each contact, each part timed alone (`BENCH_BREAKDOWN`).
    static func printMappingBreakdown(_ mapped: [Contact]) {
        var t = now()
        var total = 0
        for c in mapped { total += SearchDocument.text(for: c).utf8.count }
        print(String(format: "  search text: %.2f s", now() - t))
        t = now()
        for c in mapped { total += SearchFolding.sortKey(c.name).utf8.count }
        print(String(format: "  sort keys: %.2f s", now() - t))
        t = now()
        for c in mapped { total += c.json.description.utf8.count }
        print(String(format: "  contact JSON: %.2f s (%d)", now() - t, total))
    }
}
