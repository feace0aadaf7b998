import ContactsCore
import ContactsStore
import Foundation
import VCard

/// What the dates, related people, messaging addresses and readings cost an import: the
/// corpus as vCard 3.0, and the same with those on a third of its cards (as their producers
/// write them: Apple's labelled items, vCard 4.0's properties, the older X- handles), each
/// parsed, mapped and stored in a fresh store, in turns; the best of two of each.
enum TypedFieldsBench {
    static func measure(_ contacts: [Contact], scratch dir: String, into report: inout Report) throws {
        let plain = text(contacts)
        let typed = text(contacts.enumerated().map { i, c in i % 3 == 0 ? withFields(c, i) : c })
        var best = (plain: Double.infinity, typed: Double.infinity)
        for round in 0..<2 {
            best.plain = min(best.plain, try importTime(plain, path: dir + "/typed-\(round)-plain.sqlite3"))
            best.typed = min(best.typed, try importTime(typed, path: dir + "/typed-\(round)-typed.sqlite3"))
        }
        report.row(
            "import with dates, relations, IM, readings on a third: without / with",
            String(
                format: "%.2f s / %.2f s (%+.1f%%; %.1f / %.1f MB of vCard)", best.plain, best.typed, (best.typed / best.plain - 1) * 100,
                Double(plain.count) / 1e6, Double(typed.count) / 1e6))
        report.figures["importTypedFieldsPlainSeconds"] = best.plain
        report.figures["importTypedFieldsSeconds"] = best.typed
    }

    static func text(_ contacts: [Contact]) -> [UInt8] {
        var text = ""
        for c in contacts { VCardWriter.write(VCard(properties: VCardMapping.properties(for: c)), version: .v3, into: &text) }
        return Array(text.utf8)
    }

    /// `c` with the fields people type in, in one of three producers' spellings.
    static func withFields(_ c: Contact, _ i: Int) -> Contact {
        var c = c
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
        c.vcardProperties = props
        return c
    }

    static func importTime(_ bytes: [UInt8], path: String) throws -> Double {
        let t = now()
        let cards = VCardParser.parse(bytes).cards
        let items = cards.compactMap { card -> ImportItem? in
            guard let (c, photo) = try? VCardMapping.contactWithPhoto(from: card) else { return nil }
            return ImportItem(contact: c, carriesGroups: true, carriesFavorite: false, photo: photo)
        }
        let store = try ContactStore(path: path)
        _ = try store.importContacts(items)
        let seconds = now() - t
        store.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return seconds
    }
}
