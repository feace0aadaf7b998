import ContactsCore
import ContactsStore
import ContactsSupport
import Duplicates
import Foundation
import StoredDuplicates

/// Duplicates on an address book with real name frequencies: many different people share
/// a common name, and copies are planted as other sources make them. Every planted copy
/// must be found; namesakes who share nothing but a common name must not be proposed.
enum DuplicatesRealisticBench {
    /// A copy of every 24th person (about 4 %), in four kinds, each as a person would call
    /// it the same contact: another export (words the other way round, emails in capitals,
    /// numbers in another form); a phone's card (the name and one number); a mail client's
    /// (the name with a typo and one email); the same card with its name typed again (accents
    /// dropped).
    static func plant(_ people: [Contact]) -> [(copy: Contact, of: Int)] {
        stride(from: 0, to: people.count, by: 24).enumerated().compactMap { k, i in
            let p = people[i]
            var d = Contact(name: p.name)
            switch k % 4 {
            case 0:
                d = p
                d.name = p.name.split(separator: " ").reversed().joined(separator: " ")
                d.structuredName = nil
                d.emails = p.emails.map { LabeledValue(value: $0.value.uppercased(), label: $0.label) }
                d.phones = p.phones.map { LabeledValue(value: $0.value.filter(\.isNumber), label: $0.label) }
            case 1:
                guard let phone = p.phones.first else { return nil }
                d.phones = [LabeledValue(value: phone.value.replacingOccurrences(of: " ", with: ""), label: "mobile")]
            case 2:
                guard let email = p.emails.first else {
                    d.phones = Array(p.phones.prefix(1))
                    break
                }
                d.name = typo(p.name)
                d.emails = [email]
            default:
                d = p
                d.name = SearchFolding.fold(p.name).capitalized
            }
            d.id = ""
            d.uid = ""
            return (d, i)
        }
    }

    /// One letter of the family name doubled: "Garcia" as "Garrcia".
    static func typo(_ name: String) -> String {
        var chars = Array(name)
        guard chars.count >= 4 else { return name }
        let at = chars.count - 3
        chars.insert(chars[at], at: at)
        return String(chars)
    }

    /// `namesakes`: on the namesake-heavy corpus instead (`BENCH_CORPUS=namesakes`).
    static func measure(count: Int, scratch dir: String, namesakes: Bool = false, into report: inout Report) throws {
        var realistic = RealisticCorpus()
        var heavy = NamesakeCorpus()
        let people = (0..<count).map { namesakes ? heavy.contact($0) : realistic.contact($0) }
        let planted = plant(people)
        let store = try ContactStore(path: dir + "/namesakes.sqlite3")
        defer { store.close() }
        let stored = try store.create(people) + store.create(planted.map(\.copy))
        while try store.phonesWaitingForKeys() > 0 { usleep(100_000) }
        let t = now()
        let groups = try store.duplicates(limit: 1_000_000)
        let seconds = now() - t
        // Which group each contact fell in; a copy is found when it shares one with its original.
        var groupOf: [String: Int] = [:]
        for (g, group) in groups.enumerated() { for id in group.group.ids { groupOf[id] = g } }
        let copyIDs = stored[people.count...].map(\.id)
        var found = 0
        var plantedGroups = Set<Int>()
        for (k, (_, original)) in planted.enumerated() {
            if let g = groupOf[copyIDs[k]], g == groupOf[stored[original].id] {
                found += 1
                plantedGroups.insert(g)
            } else if ProcessInfo.processInfo.environment["BENCH_SHOW_MISSED"] != nil {
                print(
                    "  missed: \(planted[k].copy.name) \(planted[k].copy.phones.map(\.value)) \(planted[k].copy.emails.map(\.value)) of \(people[original].name) \(people[original].phones.map(\.value)) \(people[original].emails.map(\.value))"
                )
            }
        }
        let others = groups.indices.filter { !plantedGroups.contains($0) }.count
        report.row(
            "duplicates, \(namesakes ? "namesakes" : "real name frequencies"): \(count) + \(planted.count) copies: time / copies found / other groups",
            String(format: "%.2f s / %d of %d / %d", seconds, found, planted.count, others))
        report.figures["realisticDuplicatesSeconds"] = seconds
        report.figures["realisticDuplicatesMissed"] = Double(planted.count - found)
        report.figures["realisticDuplicatesOtherGroups"] = Double(others)
        if ProcessInfo.processInfo.environment["BENCH_SHOW_NAMESAKES"] != nil {
            for g in groups.indices where !plantedGroups.contains(g) {
                print("  \(groups[g].group.score) \(groups[g].names) \(groups[g].group.reasons)")
            }
        }
    }
}
