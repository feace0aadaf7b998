import ContactsCore
import ContactsStore
import ContactsSupport
import Duplicates
import Foundation
import StoredDuplicates

/// Duplicates among the corpus and 5 % more: a copy of every twentieth contact as another
/// export has it (the name's words the other way round, emails in capitals).
enum DuplicatesBench {
    static func copies(of contacts: [Contact]) -> [Contact] {
        stride(from: 0, to: contacts.count, by: 20).map { i in
            var d = contacts[i]
            d.id = ""
            d.uid = ""
            d.name = d.name.split(separator: " ").reversed().joined(separator: " ")
            d.emails = d.emails.map { LabeledValue(value: $0.value.uppercased(), label: $0.label) }
            return d
        }
    }

    /// The finder alone, in memory: candidates made (phones parsed) on every core, then found.
    static func inMemory(_ contacts: [Contact], into report: inout Report) {
        var all = contacts + copies(of: contacts)
        for k in all.indices { all[k].id = "C\(k)" }
        let everyone = all
        let t = now()
        let candidates = Parallel.chunks(everyone.count, minimum: 4096) { r in everyone[r].map { DuplicateCandidate($0, region: "US") } }
            .flatMap { $0 }
        let tCandidates = now() - t
        let tf = now()
        let groups = DuplicateFinder.groups(candidates)
        let tFind = now() - tf
        report.row(
            "duplicates among \(everyone.count) contacts (5 % copies): candidates (phones parsed) / find",
            String(format: "%.2f / %.2f s (%d groups)", tCandidates, tFind, groups.count))
        report.figures["duplicatesFindSeconds"] = tFind
    }

    /// Through the store, last of all: its copies would change the other figures.
    static func throughStore(_ store: ContactStore, _ contacts: [Contact], into report: inout Report) throws {
        _ = try store.create(copies(of: contacts))
        // A large import leaves its phones to be read as numbers in the background, seconds
        // later; duplicates then parses them itself (the in-memory figure above). Measured here
        // as a store that has settled.
        let settle = now()
        while try store.phonesWaitingForKeys() > 0 && now() - settle < 120 { usleep(100_000) }
        let waited = now() - settle
        let t = now()
        let groups = try store.duplicates()
        let tStore = now() - t
        let settled = waited > 0.05 ? String(format: "; %.1f s for the phones' keys first", waited) : ""
        report.row(
            "store.duplicates(): \(contacts.count) contacts and 5 % copies",
            String(format: "%.2f s (%d groups", tStore, groups.count) + settled + ")")
        report.figures["storeDuplicatesSeconds"] = tStore
    }
}
