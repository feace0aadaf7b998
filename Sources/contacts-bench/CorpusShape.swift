import ContactsCore
import VCard

/// What the corpus is like as the files it is imported from: cards, their mean size and
/// their long tail, and how many carry a photo.
struct CorpusShape: CustomStringConvertible {
    let description: String

    init(_ contacts: [Contact], uniform: Bool, namesakes: Bool = false) {
        var sizes: [Int] = []
        sizes.reserveCapacity(contacts.count)
        var photos = 0
        for c in contacts {
            if c.photo != nil {
                photos += 1
                continue
            }
            var text = ""
            VCardWriter.write(VCard(properties: VCardMapping.properties(for: c)), version: .v3, into: &text)
            sizes.append(text.utf8.count)
        }
        let (mean, median, p99) = Self.summary(sizes)
        let kind = uniform ? "uniform (BENCH_CORPUS=uniform)" : namesakes ? "namesakes (BENCH_CORPUS=namesakes)" : "realistic"
        description =
            "\(kind): vCard 3.0 cards without a photo \(mean) bytes mean, \(median) median, \(p99) p99; \(photos) with a photo"
    }

    static func summary(_ sizes: [Int]) -> (mean: Int, median: Int, p99: Int) {
        if sizes.isEmpty { return (0, 0, 0) }
        let sorted = sizes.sorted()
        return (sorted.reduce(0, +) / sorted.count, sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
    }
}
