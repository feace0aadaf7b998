import ContactsCore
import ContactsStore
import ContactsSupport
import Duplicates
import Foundation
import JSONRPC
import PhoneNumbers
import Thumbnails
import VCard
import VipsImages

/// contacts-bench: measures the store on a generated corpus and prints a table.
/// Usage: contacts-bench [--contacts N] [--json FILE]

var count = 100_000
var jsonOut: String?
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
    let a = args.removeFirst()
    switch a {
    case "--contacts": count = Int(args.isEmpty ? "" : args.removeFirst()) ?? count
    case "--json": jsonOut = args.isEmpty ? nil : args.removeFirst()
    default:
        print("usage: contacts-bench [--contacts N] [--json FILE]")
        exit(64)
    }
}

func now() -> Double { Date().timeIntervalSince1970 }

/// The median and 99th percentile, in milliseconds, of `rounds` runs of `body` over `inputs`.
func millisPercentiles<T>(rounds: Int, over inputs: [T], _ body: (T) throws -> Void) rethrows -> (p50: Double, p99: Double) {
    var samples: [Double] = []
    for _ in 0..<rounds {
        for x in inputs {
            let s = now()
            try body(x)
            samples.append((now() - s) * 1000)
        }
    }
    samples.sort()
    guard !samples.isEmpty else { return (0, 0) }
    return (samples[samples.count / 2], samples[min(samples.count - 1, samples.count * 99 / 100)])
}

let dir = NSTemporaryDirectory() + "contacts-bench-" + UUID().uuidString.prefix(8)
try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: dir) }

var rows: [(String, String)] = []
var figures: [String: Double] = [:]

var corpus = Corpus()
let t0 = now()
let contacts = (0..<count).map { corpus.contact($0) }
let tGen = now() - t0
// Phones are numbers read in the US (the corpus's are +1 and national ones), here and in
// the daemons the bench starts.
PhoneRegion.current = "US"
// Whole numbers of the corpus written as other people write them: what caller ID asks and a
// search for a pasted number gives.
let corpusNumbers = [17, count / 2, count - 3].compactMap { i -> String? in
    let d = PhoneDigits.of(contacts[min(max(i, 0), count - 1)].phones.first?.value ?? "")
    return d.count == 11 ? String(d.dropFirst()) : nil
}
let numberForms = corpusNumbers.enumerated().map { k, d -> String in
    let (a, b, c) = (d.prefix(3), d.dropFirst(3).prefix(3), d.suffix(4))
    return ["(\(a)) \(b)-\(c)", "\(a).\(b).\(c)", "+1 \(a)\(b)\(c)"][k % 3]
}

let importOnly = ProcessInfo.processInfo.environment["BENCH_IMPORT_ONLY"] != nil
// Only the store-level figures (search and list), for profiling them.
let searchOnly = ProcessInfo.processInfo.environment["BENCH_SEARCH_ONLY"] != nil
// Only the drop-folder import of a real contactsd, for profiling it.
let dropOnly = ProcessInfo.processInfo.environment["BENCH_DROP_ONLY"] != nil
// Only the sync figures (Radicale and vdirsyncer), for profiling them.
let syncOnly = ProcessInfo.processInfo.environment["BENCH_SYNC_ONLY"] != nil
let store = try ContactStore(path: dir + "/contacts.sqlite3")
let t1 = now()
var i = importOnly || dropOnly || syncOnly ? contacts.count : 0
while i < contacts.count {
    try store.create(Array(contacts[i..<min(i + 10_000, contacts.count)]))
    i += 10_000
}
let tInsert = now() - t1
rows.append(("generate \(count) contacts", String(format: "%.2f s", tGen)))
rows.append(("store.create, batches of 10k", String(format: "%.2f s (%.0f contacts/s)", tInsert, Double(count) / tInsert)))
figures["storeInsertSeconds"] = tInsert
store.close()
let reopened = try ContactStore(path: dir + "/contacts.sqlite3")
let tw = now()
try reopened.warmUp()
let tWarm = now() - tw
rows.append(("search index load", String(format: "%.0f ms", tWarm * 1000)))
figures["indexLoadMs"] = tWarm * 1000

let classes: [(String, [String])] = [
    ("word", ["appleseed", "garcia", "muller", "kowalski", "johansson"]),
    ("email fragment", ["bell.12", "@work.exa", "smith.99"]),
    ("phone digits", ["5551234", "555 12", "(012) 34"]),
    ("phone number", numberForms),
    ("one character", ["a", "z", "é"]),
    ("two characters", ["an", "zo", "ch"]),
    ("CJK", ["张", "小龙", "山田"]),
]
for (name, queries) in importOnly || dropOnly || syncOnly ? [] : classes {
    var samples: [Double] = []
    for _ in 0..<(searchOnly ? 200 : 20) {
        for q in queries {
            let s = now()
            _ = try reopened.query(ContactQuery(text: q, limit: 50))
            samples.append((now() - s) * 1000)
        }
    }
    if ProcessInfo.processInfo.environment["BENCH_PER_QUERY"] != nil {
        for (k, q) in queries.enumerated() {
            let mine = stride(from: k, to: samples.count, by: queries.count).map { samples[$0] }.sorted()
            print(
                "  \(q): p50 \(mine[mine.count / 2]) max \(mine.last ?? 0) total \((try? reopened.query(ContactQuery(text: q, limit: 0)).total) ?? -1)"
            )
        }
    }
    samples.sort()
    let p50 = samples[samples.count / 2]
    let p99 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))]
    rows.append(("store-level search p50 / p99: \(name)", String(format: "%.2f / %.2f ms", p50, p99)))
    figures["storeSearch.\(name).p50"] = p50
    figures["storeSearch.\(name).p99"] = p99
}
// Caller ID: a whole number to the contacts that have it, through the keys' index.
if !importOnly && !dropOnly && !syncOnly {
    var found = 0
    let (p50, p99) = try millisPercentiles(rounds: searchOnly ? 500 : 100, over: numberForms) { n in
        found += try reopened.lookupPhone(n).count
    }
    rows.append(("store-level caller ID (contacts.lookupPhone) p50 / p99", String(format: "%.3f / %.3f ms (%d found)", p50, p99, found)))
    figures["storeLookupPhone.p50"] = p50
    figures["storeLookupPhone.p99"] = p99
}
var list = [Double]()
for _ in 0..<20 {
    let s = now()
    _ = try reopened.query(ContactQuery(limit: 50))
    list.append((now() - s) * 1000)
}
list.sort()
rows.append(("store-level list first 50 p50", String(format: "%.2f ms", list[list.count / 2])))

// The import pipeline in process, phase by phase, on the same corpus as vCard 3.0.
var historyItems: [ImportItem] = []
if !searchOnly && !dropOnly && !syncOnly {
    do {
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
        if ProcessInfo.processInfo.environment["BENCH_BREAKDOWN"] != nil {
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
        if ProcessInfo.processInfo.environment["BENCH_BREAKDOWN"] != nil {
            print(
                String(
                    format: "  store phase: %.2f s wall, %.2f s user, %.2f s system", tStore,
                    seconds(after.ru_utime) - seconds(before.ru_utime), seconds(after.ru_stime) - seconds(before.ru_stime)))
        }
        // The whole import undone (every contact to the trash) in one call.
        let tu = now()
        _ = try importStore.undo()
        let tUndo = now() - tu
        rows.append(("undo of the import", String(format: "%.2f s", tUndo)))
        figures["undoImportSeconds"] = tUndo
        importStore.close()
        // Kept for the history's cost, measured after the daemon's figures (its imports and
        // their writes would slow those).
        historyItems = zip(mapped, photos).map { ImportItem(contact: $0, carriesGroups: true, carriesFavorite: false, photo: $1) }
        rows.append(("import phases: parse / map (1 core) / store", String(format: "%.2f / %.2f / %.2f s", tParse, tMap, tStore)))
        figures["importParseSeconds"] = tParse
        figures["importMapSeconds"] = tMap
        figures["importStoreSeconds"] = tStore
    }
}

// The same corpus through the drop folder of a real contactsd, as one vCard 3.0 file.
if !importOnly && !searchOnly && !syncOnly {
    do {
        let (seconds, withNumbers, bytes) = try measureDropFolderImport(contacts, scratch: dir) { daemon in
            if dropOnly {
                pauseIfAsked(daemon)
                return
            }
            let c = try RPCClient(path: daemon.socket)
            // Search as a client sees it: a query and its first page of 50 contacts, each a call
            // on one connection, the daemon's index warm.
            _ = try c.call("contacts.query", ["text": "warm", "limit": 50])
            for (name, queries) in classes {
                let (p50, p99) = try millisPercentiles(rounds: 20, over: queries) { q in
                    _ = try c.call("contacts.query", ["text": .string(q), "limit": 50])
                }
                rows.append(("search p50 / p99 through the socket: \(name)", String(format: "%.2f / %.2f ms", p50, p99)))
                figures["search.\(name).p50"] = p50
                figures["search.\(name).p99"] = p99
            }
            let (lp50, lp99) = try millisPercentiles(rounds: 50, over: numberForms) { n in
                _ = try c.call("contacts.lookupPhone", ["number": .string(n)])
            }
            rows.append(("caller ID p50 / p99 through the socket (contacts.lookupPhone)", String(format: "%.3f / %.3f ms", lp50, lp99)))
            figures["lookupPhone.p50"] = lp50
            figures["lookupPhone.p99"] = lp99
            let ids = (try c.call("contacts.query", ["limit": 5000]))["contacts"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            let calls = min(20_000, max(1000, count / 5))
            let g = try ServiceBench.getThroughput(socket: daemon.socket, ids: ids, calls: calls)
            rows.append(
                ("contacts.get calls/s: one connection", String(format: "%.0f sequential, %.0f pipelined", g.sequential, g.pipelined)))
            rows.append(("contacts.get calls/s: 4 connections", String(format: "%.0f", g.parallel)))
            figures["getSequentialPerSecond"] = g.sequential
            figures["getPipelinedPerSecond"] = g.pipelined
            figures["getParallelPerSecond"] = g.parallel
            // Everyone as vCard 4.0: through the socket (in export.chunk notifications), then
            // into a file the daemon writes. The daemon's peak is measured from each start.
            let pid = daemon.process.processIdentifier
            let peakBeforeExport = ServiceBench.rssMiB(pid, field: "VmHWM")
            ServiceBench.resetPeakRSS(pid)
            var received = 0
            c.onNotification = { n in received += n["params"]?["data"]?.stringValue?.utf8.count ?? 0 }
            let te = now()
            let export = try c.call("contacts.export", ["format": "vcard4"])
            let tExport = now() - te
            c.onNotification = nil
            received += export["data"]?.stringValue?.utf8.count ?? 0
            let exportPeak = ServiceBench.rssMiB(pid, field: "VmHWM")
            rows.append(
                (
                    "export all as vCard 4.0 through the socket: time / daemon peak",
                    String(format: "%.2f s / %.0f MiB (%d MiB)", tExport, exportPeak, received >> 20)
                ))
            figures["exportSeconds"] = tExport
            figures["exportPeakRSSMiB"] = exportPeak
            ServiceBench.resetPeakRSS(pid)
            let tf = now()
            let file = try c.call("contacts.export", ["format": "vcard4", "path": .string(dir + "/export.vcf")])
            let tFile = now() - tf
            let filePeak = ServiceBench.rssMiB(pid, field: "VmHWM")
            unlink(dir + "/export.vcf")
            rows.append(
                (
                    "export all as vCard 4.0 into a file (path): time / daemon peak",
                    String(format: "%.2f s / %.0f MiB (%d MiB)", tFile, filePeak, (file["bytes"]?.intValue ?? 0) >> 20)
                ))
            figures["exportFileSeconds"] = tFile
            figures["exportFilePeakRSSMiB"] = filePeak
            var env = ProcessInfo.processInfo.environment
            env["CONTACTSD_SOCKET"] = daemon.socket
            // The installed client (`make bench` names it), else the one built beside the bench.
            let ctl =
                ProcessInfo.processInfo.environment["CONTACTS_BENCH_CTL"]
                ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("contactsctl").path
            let q = ServiceBench.commandMillis(ctl, ["query-email", "smith"], environment: env, runs: 20)
            rows.append(("contactsctl query-email (best of 20)", String(format: "%.1f ms", q)))
            figures["queryEmailMs"] = q
            if let abook = ServiceBench.which("abook") {
                // The same people and the same query through abook, as mutt would ask it; its
                // own HOME, so that no configuration of the user's is read.
                let book = dir + "/abook.addressbook"
                try ServiceBench.writeAbook(contacts, to: book)
                var abookEnv = env
                abookEnv["HOME"] = dir
                let args = ["--datafile", book, "--mutt-query", "smith"]
                let a = ServiceBench.commandMillis(abook, args, environment: abookEnv, runs: 5)
                // abook lists every match; query-email the first 100 contacts. Compared like for
                // like, contactsctl lists every match too.
                let all = ["query-email", "--limit", "\(count)", "smith"]
                let qAll = ServiceBench.commandMillis(ctl, all, environment: env, runs: 5)
                // Both print a first line, then one line an address.
                let found = (
                    ours: ServiceBench.output(ctl, all, environment: env).split(separator: "\n").count - 1,
                    abook: ServiceBench.output(abook, args, environment: abookEnv).split(separator: "\n").count - 1
                )
                rows.append(
                    (
                        "every match for 'smith': contactsctl / abook --mutt-query",
                        String(format: "%.1f / %.1f ms (best of 5; %d / %d addresses)", qAll, a, found.ours, found.abook)
                    ))
                rows.append(("abook / contactsctl, every match", String(format: "%.1fx", a / qAll)))
                figures["queryEmailAllMs"] = qAll
                figures["abookQueryMs"] = a
                figures["abookRatio"] = a / qAll
            }
            let rssBusy = ServiceBench.rssMiB(pid)
            // At rest: what the daemon keeps once the work is done and its buffers are gone (it
            // gives memory back half a second after a large export).
            usleep(2_000_000)
            let rss = ServiceBench.rssMiB(pid)
            let peak = max(peakBeforeExport, exportPeak, ServiceBench.rssMiB(pid, field: "VmHWM"))
            rows.append(
                (
                    "daemon RSS after import, gets, export: at once / 2 s later / peak",
                    String(format: "%.0f / %.0f / %.0f MiB", rssBusy, rss, peak)
                ))
            figures["daemonRSSMiB"] = rss
            figures["daemonRSSRightAfterExportMiB"] = rssBusy
            figures["daemonPeakRSSMiB"] = peak
            pauseIfAsked(daemon)
            if let id = ids.first {
                let p = try ServiceBench.photos(socket: daemon.socket, id: id)
                rows.append(("setPhoto, 12 MP JPEG (checked, first 256 px thumbnail)", String(format: "%.0f ms", p.set * 1000)))
                rows.append(
                    (
                        "thumbnail 12 MP JPEG: cold / cached p50 / cached p99",
                        String(format: "%.0f / %.2f / %.2f ms", p.cold * 1000, p.cachedP50 * 1000, p.cachedP99 * 1000)
                    ))
                figures["setPhoto12MPMs"] = p.set * 1000
                figures["thumbnailColdMs"] = p.cold * 1000
                figures["thumbnailCachedP50Ms"] = p.cachedP50 * 1000
                figures["thumbnailCachedP99Ms"] = p.cachedP99 * 1000
            }
        }
        rows.append(
            (
                "drop-folder import, vCard 3.0 (\(bytes >> 20) MiB)",
                String(format: "%.2f s (%.0f cards/s)", seconds, Double(count) / seconds)
            ))
        figures["dropFolderImportSeconds"] = seconds
        rows.append(("drop-folder import until its numbers are read too", String(format: "%.2f s", withNumbers)))
        figures["dropFolderImportWithNumbersSeconds"] = withNumbers
        if !dropOnly {
            // The same file through contacts.import {path}, into an empty store of a fresh daemon.
            let rpc = try measureImportCall(contacts, scratch: dir)
            rows.append(("contacts.import {path}, vCard 3.0", String(format: "%.2f s (%.0f cards/s)", rpc, Double(count) / rpc)))
            figures["importCallSeconds"] = rpc
        }
        if let ready = readyAfterImport {
            rows.append(("READY=1 after start with \(count) contacts", String(format: "%.0f ms", ready * 1000)))
            figures["readyMs"] = ready * 1000
        }
    } catch {
        rows.append(("drop-folder import", "skipped: \(error.localizedDescription)"))
    }
}

// Duplicates among the corpus and 5 % more: a copy of every twentieth contact as another
// export has it (the name's words the other way round, emails in capitals). Store-level:
// with BENCH_SEARCH_ONLY too.
if !importOnly && !dropOnly && !syncOnly {
    var all = contacts
    for i in stride(from: 0, to: contacts.count, by: 20) {
        var d = contacts[i]
        d.name = d.name.split(separator: " ").reversed().joined(separator: " ")
        d.emails = d.emails.map { LabeledValue(value: $0.value.uppercased(), label: $0.label) }
        all.append(d)
    }
    for k in all.indices { all[k].id = "C\(k)" }
    let copies = all
    let t = now()
    let candidates = Parallel.chunks(copies.count, minimum: 4096) { r in copies[r].map { DuplicateCandidate($0, region: "US") } }.flatMap {
        $0
    }
    let tCandidates = now() - t
    let tf = now()
    let groups = DuplicateFinder.groups(candidates)
    let tFind = now() - tf
    rows.append(
        (
            "duplicates among \(copies.count) contacts (5 % copies): candidates (phones parsed) / find",
            String(format: "%.2f / %.2f s (%d groups)", tCandidates, tFind, groups.count)
        ))
    figures["duplicatesFindSeconds"] = tFind
}

// What keeping history costs the import and the store's size.
if !historyItems.isEmpty {
    do {
        let cost = try HistoryBench.measure(historyItems, scratch: dir)
        rows += cost.rows
        figures.merge(cost.figures) { $1 }
    } catch {
        rows.append(("history cost", "skipped: \(error.localizedDescription)"))
    }
    historyItems = []
}

// Sync with a real Radicale, beside vdirsyncer on the same server (BENCH_NO_SYNC=1 leaves
// it out: it takes a quarter of an hour).
if !importOnly && !searchOnly && !dropOnly && ProcessInfo.processInfo.environment["BENCH_NO_SYNC"] == nil {
    do {
        let sync = try SyncBench.measure(contacts, scratch: dir)
        rows += sync.rows
        figures.merge(sync.figures) { $1 }
    } catch {
        rows.append(("sync with Radicale", "skipped: \(error)"))
    }
}

// Duplicates through the store, last: its copies would change the other figures.
if !importOnly && !dropOnly && !syncOnly {
    var copies: [Contact] = []
    for i in stride(from: 0, to: contacts.count, by: 20) {
        var d = contacts[i]
        d.id = ""
        d.uid = ""
        d.name = d.name.split(separator: " ").reversed().joined(separator: " ")
        d.emails = d.emails.map { LabeledValue(value: $0.value.uppercased(), label: $0.label) }
        copies.append(d)
    }
    _ = try reopened.create(copies)
    // A large import leaves its phones to be read as numbers in the background, seconds
    // later; duplicates then parses them itself (the in-memory figure above). Measured here as
    // a store that has settled.
    let settle = now()
    while try reopened.phonesWaitingForKeys() > 0 && now() - settle < 120 { usleep(100_000) }
    let waited = now() - settle
    let t = now()
    let groups = try reopened.duplicates()
    let tStore = now() - t
    let settled = waited > 0.05 ? String(format: "; %.1f s for the phones' keys first", waited) : ""
    rows.append(
        (
            "store.duplicates(): \(count) contacts and 5 % copies",
            String(format: "%.2f s (%d groups", tStore, groups.count) + settled + ")"
        ))
    figures["storeDuplicatesSeconds"] = tStore
}

let width = rows.map { $0.0.count }.max() ?? 0
print("contacts-bench: \(count) contacts (store level)")
for (k, v) in rows { print(k.padding(toLength: width + 2, withPad: " ", startingAt: 0) + v) }
if let jsonOut {
    let text = "{" + figures.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}\n"
    try text.write(toFile: jsonOut, atomically: true, encoding: .utf8)
}
reopened.close()

/// With BENCH_PAUSE=SECONDS, keeps the daemon running that long before it stops: for a look
/// at its memory (/proc/PID/smaps) or a profiler attached to it.
func pauseIfAsked(_ daemon: DaemonRun) {
    guard let pause = ProcessInfo.processInfo.environment["BENCH_PAUSE"].flatMap(Double.init) else { return }
    print("daemon pid \(daemon.process.processIdentifier) (socket \(daemon.socket)); pausing \(pause) s")
    fflush(nil)
    usleep(UInt32(pause * 1_000_000))
}
