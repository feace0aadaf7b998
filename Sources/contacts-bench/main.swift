import ContactsCore
import ContactsStore
import Foundation
import PhoneNumbers

/// contacts-bench: measures the store on a generated corpus and prints a table.
/// Usage: contacts-bench [--contacts N] [--json FILE]
/// The corpus is shaped like people's address books (`RealisticCorpus`); `BENCH_CORPUS=uniform`
/// takes the first, evenly drawn one (`Corpus`) instead, for comparisons with figures of before.

let options = Options(Array(CommandLine.arguments.dropFirst()))
let count = options.count

let dir = NSTemporaryDirectory() + "contacts-bench-" + UUID().uuidString.prefix(8)
try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)

/// Ends a run that measured one part: its scratch directory goes first (`exit` skips `defer`).
func finish() -> Never {
    try? FileManager.default.removeItem(atPath: dir)
    exit(0)
}
defer { try? FileManager.default.removeItem(atPath: dir) }

var report = Report()
// Phones are numbers read in the US (the corpus's are +1 and national ones), here and in
// the daemons the bench starts.
PhoneRegion.current = "US"
if options.duplicatesOnly {
    try DuplicatesRealisticBench.measure(count: count, scratch: dir, namesakes: options.namesakeCorpus, into: &report)
    report.print(title: "contacts-bench: duplicates, \(count) contacts")
    finish()
}
let t0 = now()
let contacts: [Contact]
if options.uniformCorpus {
    var corpus = Corpus()
    contacts = (0..<count).map { corpus.contact($0) }
} else if options.namesakeCorpus {
    var corpus = NamesakeCorpus()
    contacts = (0..<count).map { corpus.contact($0) }
} else {
    var corpus = RealisticCorpus()
    contacts = (0..<count).map { corpus.contact($0) }
}
report.row("generate \(count) contacts", String(format: "%.2f s", now() - t0))
report.row("corpus", CorpusShape(contacts, uniform: options.uniformCorpus, namesakes: options.namesakeCorpus).description)
let queries = QueryClasses(contacts, uniform: options.uniformCorpus)
if options.corpusOnly {
    // BENCH_CORPUS_ONLY=FILE: the corpus as the vCard 3.0 file the imports read, to look at.
    if let file = options.environment["BENCH_CORPUS_ONLY"], !file.isEmpty, file != "1" {
        try vCard3(contacts).write(toFile: file, atomically: false, encoding: .utf8)
    }
    report.print(title: "contacts-bench: the corpus of \(count) contacts")
    finish()
}
if options.typedOnly {
    try TypedFieldsBench.measure(contacts, scratch: dir, into: &report)
    report.print(title: "contacts-bench: dates, relations, IM and readings in an import, \(count) contacts")
    finish()
}
if options.googleOnly {
    report.merge(try GoogleBench.measure(contacts, scratch: dir))
    report.print(title: "contacts-bench: a Google account, \(count) contacts")
    finish()
}
if options.mailOnly {
    let messages = options.mailMessages ?? count
    report.merge(try MailBench.measure(contacts, messages: messages, scratch: dir))
    report.print(title: "contacts-bench: mail, \(messages) messages, \(count) contacts")
    if let path = options.jsonOut { try report.writeJSON(to: path) }
    finish()
}
if options.viewsOnly {
    report.merge(try ViewsBench.measure(contacts, scratch: dir))
    report.print(title: "contacts-bench: live views, \(count) contacts")
    if let path = options.jsonOut { try report.writeJSON(to: path) }
    finish()
}

let store = options.daemonOnly ? nil : try StoreBench.fill(contacts, path: dir + "/contacts.sqlite3", options: options, into: &report)
if options.storeFigures, let store { try StoreBench.measure(store, queries: queries, options: options, into: &report) }

var historyItems: [ImportItem] = []
if options.importPhases {
    historyItems = try ImportBench.measure(contacts, scratch: dir, options: options, into: &report)
    try TypedFieldsBench.measure(contacts, scratch: dir, into: &report)
}

if options.daemonFigures {
    do {
        try DaemonBench.measure(contacts, queries: queries, scratch: dir, options: options, into: &report)
    } catch {
        report.row("drop-folder import", "skipped: \(error.localizedDescription)")
    }
}

if options.serveFigures {
    do {
        report.merge(try ServeBench.measure(contacts, scratch: dir))
    } catch {
        report.row("CardDAV serving", "skipped: \(error.localizedDescription)")
    }
}

if options.viewsFigures {
    do {
        report.merge(try ViewsBench.measure(contacts, scratch: dir))
    } catch {
        report.row("live views", "skipped: \(error)")
    }
}

if options.mailFigures {
    do {
        report.merge(try MailBench.measure(contacts, messages: count, scratch: dir))
    } catch {
        report.row("mail", "skipped: \(error)")
    }
}

if options.storeFigures {
    DuplicatesBench.inMemory(contacts, into: &report)
    try DuplicatesRealisticBench.measure(count: count, scratch: dir, namesakes: options.namesakeCorpus, into: &report)
}

// What keeping history costs the import and the store's size.
if !historyItems.isEmpty {
    do {
        report.merge(try HistoryBench.measure(historyItems, scratch: dir))
    } catch {
        report.row("history cost", "skipped: \(error.localizedDescription)")
    }
    historyItems = []
}

if options.syncFigures {
    do {
        report.merge(try SyncBench.measure(contacts, scratch: dir))
    } catch {
        report.row("sync with Radicale", "skipped: \(error)")
    }
}

if options.googleFigures {
    do {
        report.merge(try GoogleBench.measure(contacts, scratch: dir))
    } catch {
        report.row("Google (People API)", "skipped: \(error)")
    }
}

if options.storeFigures, let store { try DuplicatesBench.throughStore(store, contacts, into: &report) }

report.print(title: "contacts-bench: \(count) contacts (store level)")
if let path = options.jsonOut { try report.writeJSON(to: path) }
store?.close()
