import ContactsCore
import ContactsStore
import Foundation
import VCard

/// What the dates, related people, messaging addresses and readings cost an import: the
/// corpus as vCard 3.0, and the same with those on a third of its cards (as their producers
/// write them: Apple's labelled items, vCard 4.0's properties, the older X- handles), each
/// parsed, mapped and stored in a fresh store, in turns; the best of two of each. Then both
/// files through the drop folder of a real contactsd, as a person imports them, in turns; and,
/// when `BENCH_BASELINE_CONTACTSD` names an earlier build (one from before these were fields,
/// which keeps them as lines of the card), the file with them through its drop folder too.
enum TypedFieldsBench {
    static func measure(_ contacts: [Contact], scratch dir: String, into report: inout Report) throws {
        let plain = text(contacts.map { VCardMapping.properties(for: $0) })
        let typed = text(contacts.enumerated().map { i, c in i % 3 == 0 ? withFields(c, i) : VCardMapping.properties(for: c) })
        var best = (plain: Phases.none, typed: Phases.none)
        var typedCards = 0
        for round in 0..<2 {
            best.plain = best.plain.best(try importTime(plain, path: dir + "/typed-\(round)-plain.sqlite3").phases)
            let typedRun = try importTime(typed, path: dir + "/typed-\(round)-typed.sqlite3")
            best.typed = best.typed.best(typedRun.phases)
            typedCards = typedRun.withFields
        }
        report.row(
            "import with dates, relations, IM, readings on a third: without / with",
            String(
                format: "%.2f s / %.2f s (%+.1f%%; %.1f / %.1f MB of vCard, %d with the fields)", best.plain.total, best.typed.total,
                (best.typed.total / best.plain.total - 1) * 100, Double(plain.count) / 1e6, Double(typed.count) / 1e6, typedCards))
        report.row(
            "  its phases without / with: parse, map, store",
            String(
                format: "%.2f / %.2f, %.2f / %.2f, %.2f / %.2f s", best.plain.parse, best.typed.parse, best.plain.map, best.typed.map,
                best.plain.store, best.typed.store))
        report.figures["importTypedFieldsPlainSeconds"] = best.plain.total
        report.figures["importTypedFieldsSeconds"] = best.typed.total
        do {
            let baseline = ProcessInfo.processInfo.environment["BENCH_BASELINE_CONTACTSD"]
            var drop = (plain: Double.infinity, typed: Double.infinity, baseline: Double.infinity)
            for round in 0..<3 {
                drop.plain = min(drop.plain, try dropImportSeconds(plain, home: dir + "/typed-drop-\(round)-plain"))
                drop.typed = min(drop.typed, try dropImportSeconds(typed, home: dir + "/typed-drop-\(round)-typed"))
                if let baseline {
                    drop.baseline = min(
                        drop.baseline, try dropImportSeconds(typed, home: dir + "/typed-drop-\(round)-baseline", binary: baseline))
                }
            }
            report.row(
                "  the same through a contactsd's drop folder: without / with",
                String(format: "%.2f s / %.2f s (%+.1f%%)", drop.plain, drop.typed, (drop.typed / drop.plain - 1) * 100))
            report.figures["dropImportTypedFieldsPlainSeconds"] = drop.plain
            report.figures["dropImportTypedFieldsSeconds"] = drop.typed
            if baseline != nil {
                report.row(
                    "  with them: this contactsd / the earlier one",
                    String(format: "%.2f s / %.2f s (%+.1f%%)", drop.typed, drop.baseline, (drop.typed / drop.baseline - 1) * 100))
                report.figures["dropImportTypedFieldsBaselineSeconds"] = drop.baseline
            }
        } catch {
            report.row("  the same through a contactsd's drop folder", "skipped: \(error.localizedDescription)")
        }
    }

    /// Seconds from a vCard file's arrival in the inbox of a fresh contactsd to its move to
    /// `imported/`.
    static func dropImportSeconds(_ bytes: [UInt8], home: String, binary: String? = nil) throws -> Double {
        let daemon = try DaemonRun(home: home, binary: binary)
        defer {
            daemon.stop()
            try? FileManager.default.removeItem(atPath: home)
        }
        return try daemon.importThroughInbox(bytes, name: "typed.vcf")
    }

    static func text(_ cards: [[VCardProperty]]) -> [UInt8] {
        var text = ""
        for properties in cards { VCardWriter.write(VCard(properties: properties), version: .v3, into: &text) }
        return Array(text.utf8)
    }

    /// The card of `c` with the fields people type in, in one of three producers' spellings.
    static func withFields(_ c: Contact, _ i: Int) -> [VCardProperty] {
        let year = 1990 + i % 30
        let month = 1 + i % 12
        let day = 1 + i % 28
        var props = VCardMapping.properties(for: c)
        switch i % 9 {
        case 0:
            // Apple: labelled items, phonetic names, IMPP with its service.
            props += [
                VCardProperty(group: "item91", name: "X-ABDATE", value: .raw(String(format: "%04d-%02d-%02d", year, month, day))),
                VCardProperty(group: "item91", name: "X-ABLabel", text: "_$!<Anniversary>!$_"),
                VCardProperty(group: "item92", name: "X-ABRELATEDNAMES", text: "Sam \(c.name.split(separator: " ").last ?? "")"),
                VCardProperty(group: "item92", name: "X-ABLabel", text: "_$!<Spouse>!$_"),
                VCardProperty(
                    name: "IMPP", parameters: [VCardParameter("X-SERVICE-TYPE", ["Jabber"])], value: .raw("xmpp:user\(i)@jabber.example")),
                VCardProperty(name: "X-PHONETIC-FIRST-NAME", text: c.structuredName?.given.lowercased() ?? "reading"),
            ]
        case 3:
            // vCard 4.0 as a CardDAV server keeps it.
            props += [
                VCardProperty(name: "ANNIVERSARY", value: .raw(String(format: "%04d%02d%02d", year, month, day))),
                VCardProperty(
                    name: "RELATED", parameters: [VCardParameter("TYPE", ["child"]), VCardParameter("VALUE", ["text"])], text: "Kim"),
                VCardProperty(name: "IMPP", value: .raw("matrix:@user\(i):example.org")),
                VCardProperty(name: "PRONOUNS", text: "they/them"),
            ]
        default:
            // Google's and Evolution's older spellings.
            props += [
                VCardProperty(name: "X-EVOLUTION-ANNIVERSARY", value: .raw(String(format: "%04d-%02d-%02d", year, month, day))),
                VCardProperty(name: "X-SKYPE", text: "live:user\(i)"), VCardProperty(name: "X-JABBER", text: "user\(i)@gmail.com"),
            ]
        }
        return props
    }

    /// The seconds of an import's phases.
    struct Phases {
        var parse: Double
        var map: Double
        var store: Double
        static let none = Phases(parse: .infinity, map: .infinity, store: .infinity)
        var total: Double { parse + map + store }
        /// Each phase at its best of the two.
        func best(_ other: Phases) -> Phases {
            Phases(parse: min(parse, other.parse), map: min(map, other.map), store: min(store, other.store))
        }
    }

    /// The times of the import's phases, and how many contacts came with dates or messaging
    /// addresses.
    static func importTime(_ bytes: [UInt8], path: String) throws -> (phases: Phases, withFields: Int) {
        let t = now()
        let cards = VCardParser.parse(bytes).cards
        let parsed = now()
        let items = cards.compactMap { card -> ImportItem? in
            guard let (c, photo) = try? VCardMapping.contactWithPhoto(from: card) else { return nil }
            return ImportItem(contact: c, carriesGroups: true, carriesFavorite: false, photo: photo)
        }
        let mapped = now()
        let store = try ContactStore(path: path)
        _ = try store.importContacts(items)
        let phases = Phases(parse: parsed - t, map: mapped - parsed, store: now() - mapped)
        store.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return (phases, items.count { !$0.contact.dates.isEmpty || !$0.contact.impp.isEmpty })
    }
}
