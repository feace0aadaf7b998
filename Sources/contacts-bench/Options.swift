import Foundation

/// The command line and the `BENCH_*` switches that run one part of the bench alone.
struct Options {
    var count = 100_000
    var jsonOut: String?
    let environment = ProcessInfo.processInfo.environment

    /// Only the drop-folder import's figures, in process (`BENCH_IMPORT_ONLY`).
    var importOnly: Bool { environment["BENCH_IMPORT_ONLY"] != nil }
    /// Only the import with and without dates, relations, IM and readings (`BENCH_TYPED_ONLY`).
    var typedOnly: Bool { environment["BENCH_TYPED_ONLY"] != nil }
    /// Only the store-level figures (search and list), for profiling them.
    var searchOnly: Bool { environment["BENCH_SEARCH_ONLY"] != nil }
    /// Only the drop-folder import of a real contactsd, for profiling it.
    var dropOnly: Bool { environment["BENCH_DROP_ONLY"] != nil }
    /// Only the sync figures (Radicale and vdirsyncer), for profiling them.
    var syncOnly: Bool { environment["BENCH_SYNC_ONLY"] != nil }
    /// Sync takes a quarter of an hour at 100k; `BENCH_NO_SYNC=1` leaves it out.
    var noSync: Bool { environment["BENCH_NO_SYNC"] != nil }
    /// Only the CardDAV serving figures (with Radicale and vdirsyncer beside them).
    var serveOnly: Bool { environment["BENCH_SERVE_ONLY"] != nil }
    /// Only the Google account's request counts (`BENCH_GOOGLE_ONLY`).
    var googleOnly: Bool { environment["BENCH_GOOGLE_ONLY"] != nil }
    /// Only the live views' figures.
    var viewsOnly: Bool { environment["BENCH_VIEWS_ONLY"] != nil }
    /// Only what a client of a real contactsd sees: the drop-folder import, search, export,
    /// the mail query, memory at rest, duplicates (`BENCH_DAEMON_ONLY`).
    var daemonOnly: Bool { environment["BENCH_DAEMON_ONLY"] != nil }
    /// Only the mail figures: a maildir harvested beside notmuch, query-email beside lbdbq and
    /// abook (`BENCH_MAIL_ONLY`).
    var mailOnly: Bool { environment["BENCH_MAIL_ONLY"] != nil }
    /// How many messages the mail figures harvest, when not as many as the contacts
    /// (`BENCH_MAIL_MESSAGES`: the query figures at 100k contacts without the harvest's minutes).
    var mailMessages: Int? { environment["BENCH_MAIL_MESSAGES"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } }
    /// Only the duplicates on real name frequencies.
    var duplicatesOnly: Bool { environment["BENCH_DUPLICATES_ONLY"] != nil }
    /// The evenly drawn corpus of the first figures instead of the realistic one.
    var uniformCorpus: Bool { environment["BENCH_CORPUS"] == "uniform" }
    /// The realistic corpus with names from small lists and a note on every card
    /// (`BENCH_CORPUS=namesakes`).
    var namesakeCorpus: Bool { environment["BENCH_CORPUS"] == "namesakes" }
    /// Only what the corpus is like (`BENCH_CORPUS_ONLY`).
    var corpusOnly: Bool { environment["BENCH_CORPUS_ONLY"] != nil }
    var breakdown: Bool { environment["BENCH_BREAKDOWN"] != nil }
    var perQuery: Bool { environment["BENCH_PER_QUERY"] != nil }

    var storeFigures: Bool { !viewsOnly && !importOnly && !dropOnly && !syncOnly && !serveOnly && !daemonOnly }
    var importPhases: Bool { !viewsOnly && !searchOnly && !dropOnly && !syncOnly && !serveOnly && !daemonOnly }
    var daemonFigures: Bool { !viewsOnly && !importOnly && !searchOnly && !syncOnly && !serveOnly }
    var serveFigures: Bool { (daemonFigures && !dropOnly && !daemonOnly) || serveOnly }
    var viewsFigures: Bool { daemonFigures && !dropOnly && !daemonOnly }
    var syncFigures: Bool { !viewsOnly && !importOnly && !searchOnly && !dropOnly && !noSync && !serveOnly && !daemonOnly }
    var googleFigures: Bool { syncFigures || googleOnly }
    var mailFigures: Bool { (daemonFigures && !dropOnly && !daemonOnly) || mailOnly }

    static let usage = "usage: contacts-bench [--contacts N] [--json FILE]"

    init(_ arguments: [String]) {
        var args = arguments
        while !args.isEmpty {
            let a = args.removeFirst()
            switch a {
            case "--contacts": count = Int(args.isEmpty ? "" : args.removeFirst()) ?? count
            case "--json": jsonOut = args.isEmpty ? nil : args.removeFirst()
            default:
                print(Self.usage)
                exit(64)
            }
        }
    }
}
