import ContactsCore
import Foundation
import JSONRPC

/// The corpus through the drop folder of a real contactsd, as one vCard 3.0 file; then, on
/// that daemon, what a client sees through the socket: search, caller ID, gets, export, the
/// mail query beside abook's, memory and photos. Then the same file through
/// `contacts.import {path}` and the daemon's start with the store full.
enum DaemonBench {
    static func measure(_ contacts: [Contact], queries: QueryClasses, scratch dir: String, options: Options, into report: inout Report)
        throws
    {
        var inner = Report()
        let (seconds, withNumbers, bytes, lookups) = try measureDropFolderImport(contacts, scratch: dir, numbers: queries.numberForms) {
            daemon in
            if options.dropOnly {
                pauseIfAsked(daemon)
                return
            }
            let c = try RPCClient(path: daemon.socket)
            try search(c, queries: queries, into: &inner)
            let ids = (try c.call("contacts.query", ["limit": 5000]))["contacts"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            let calls = min(20_000, max(1000, contacts.count / 5))
            let g = try ServiceBench.getThroughput(socket: daemon.socket, ids: ids, calls: calls)
            inner.row("contacts.get calls/s: one connection", String(format: "%.0f sequential, %.0f pipelined", g.sequential, g.pipelined))
            inner.row("contacts.get calls/s: 4 connections", String(format: "%.0f", g.parallel))
            inner.figures["getSequentialPerSecond"] = g.sequential
            inner.figures["getPipelinedPerSecond"] = g.pipelined
            inner.figures["getParallelPerSecond"] = g.parallel
            let pid = daemon.process.processIdentifier
            let peakBeforeExport = ServiceBench.rssMiB(pid, field: "VmHWM")
            let exportPeak = try export(c, pid: pid, scratch: dir, into: &inner)
            try mailQuery(contacts, socket: daemon.socket, scratch: dir, into: &inner)
            let rssBusy = ServiceBench.rssMiB(pid)
            // At rest: what the daemon keeps once the work is done and its buffers are gone (it
            // gives memory back half a second after a large export).
            usleep(2_000_000)
            let rss = ServiceBench.rssMiB(pid)
            let peak = max(peakBeforeExport, exportPeak, ServiceBench.rssMiB(pid, field: "VmHWM"))
            inner.row(
                "daemon RSS after import, gets, export: at once / 2 s later / peak",
                String(format: "%.0f / %.0f / %.0f MiB", rssBusy, rss, peak))
            inner.figures["daemonRSSMiB"] = rss
            inner.figures["daemonRSSRightAfterExportMiB"] = rssBusy
            inner.figures["daemonPeakRSSMiB"] = peak
            // At rest, with nothing to do (no watchdog asked for): how often it wakes.
            let idle = Double(options.environment["BENCH_IDLE_SECONDS"] ?? "") ?? 30
            let before = ServiceBench.contextSwitches(pid)
            usleep(UInt32(idle * 1_000_000))
            let wakeups = ServiceBench.contextSwitches(pid) - before
            inner.row("daemon wakeups at rest, \(Int(idle)) s without a watchdog", "\(wakeups)")
            inner.figures["idleWakeups"] = Double(wakeups)
            // Duplicates as a client asks for them, on the store the drop folder filled.
            let td = now()
            let found = try c.call("contacts.duplicates")
            let duplicatesSeconds = now() - td
            inner.row(
                "contacts.duplicates through the socket",
                String(format: "%.2f s (%d groups)", duplicatesSeconds, found["groups"]?.arrayValue?.count ?? 0))
            inner.figures["duplicatesCallSeconds"] = duplicatesSeconds
            pauseIfAsked(daemon)
            if let id = ids.first { try photos(socket: daemon.socket, id: id, into: &inner) }
        }
        report.merge(inner)
        report.row(
            "drop-folder import, vCard 3.0 (\(bytes >> 20) MiB)",
            String(format: "%.2f s (%.0f cards/s)", seconds, Double(contacts.count) / seconds))
        report.figures["dropFolderImportSeconds"] = seconds
        report.row("drop-folder import until its numbers are read too", String(format: "%.2f s", withNumbers))
        report.figures["dropFolderImportWithNumbersSeconds"] = withNumbers
        if !lookups.isEmpty {
            let sorted = lookups.sorted()
            let (p50, p99) = (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
            report.row(
                "caller ID p50 / p99 while the import's numbers are read",
                String(format: "%.2f / %.2f ms (%d calls)", p50, p99, sorted.count))
            report.figures["lookupPhoneWhileKeying.p50"] = p50
            report.figures["lookupPhoneWhileKeying.p99"] = p99
        }
        if !options.dropOnly {
            // The same file through contacts.import {path}, into an empty store of a fresh daemon.
            let rpc = try measureImportCall(contacts, scratch: dir)
            report.row("contacts.import {path}, vCard 3.0", String(format: "%.2f s (%.0f cards/s)", rpc, Double(contacts.count) / rpc))
            report.figures["importCallSeconds"] = rpc
        }
        if let ready = readyAfterImport {
            report.row("READY=1 after start with \(contacts.count) contacts", String(format: "%.0f ms", ready * 1000))
            report.figures["readyMs"] = ready * 1000
        }
    }

    /// Search as a client sees it: a query and its first page of 50 contacts, each a call on
    /// one connection, the daemon's index warm; and caller ID.
    static func search(_ c: RPCClient, queries: QueryClasses, into report: inout Report) throws {
        _ = try c.call("contacts.query", ["text": "warm", "limit": 50])
        for (name, texts) in queries.classes {
            let (p50, p99) = try millisPercentiles(rounds: 20, over: texts) { q in
                _ = try c.call("contacts.query", ["text": .string(q), "limit": 50])
            }
            report.row("search p50 / p99 through the socket: \(name)", String(format: "%.2f / %.2f ms", p50, p99))
            report.figures["search.\(name).p50"] = p50
            report.figures["search.\(name).p99"] = p99
        }
        let (lp50, lp99) = try millisPercentiles(rounds: 50, over: queries.numberForms) { n in
            _ = try c.call("contacts.lookupPhone", ["number": .string(n)])
        }
        report.row("caller ID p50 / p99 through the socket (contacts.lookupPhone)", String(format: "%.3f / %.3f ms", lp50, lp99))
        report.figures["lookupPhone.p50"] = lp50
        report.figures["lookupPhone.p99"] = lp99
    }

    /// Everyone as vCard 4.0: through the socket (in export.chunk notifications), then into a
    /// file the daemon writes. The daemon's peak is measured from each start; the larger is
    /// returned.
    static func export(_ c: RPCClient, pid: Int32, scratch dir: String, into report: inout Report) throws -> Double {
        ServiceBench.resetPeakRSS(pid)
        var received = 0
        c.onNotification = { n in received += n["params"]?["data"]?.stringValue?.utf8.count ?? 0 }
        let te = now()
        let export = try c.call("contacts.export", ["format": "vcard4"])
        let tExport = now() - te
        c.onNotification = nil
        received += export["data"]?.stringValue?.utf8.count ?? 0
        let exportPeak = ServiceBench.rssMiB(pid, field: "VmHWM")
        report.row(
            "export all as vCard 4.0 through the socket: time / daemon peak",
            String(format: "%.2f s / %.0f MiB (%d MiB)", tExport, exportPeak, received >> 20))
        report.figures["exportSeconds"] = tExport
        report.figures["exportPeakRSSMiB"] = exportPeak
        ServiceBench.resetPeakRSS(pid)
        let tf = now()
        let file = try c.call("contacts.export", ["format": "vcard4", "path": .string(dir + "/export.vcf")])
        let tFile = now() - tf
        let filePeak = ServiceBench.rssMiB(pid, field: "VmHWM")
        unlink(dir + "/export.vcf")
        report.row(
            "export all as vCard 4.0 into a file (path): time / daemon peak",
            String(format: "%.2f s / %.0f MiB (%d MiB)", tFile, filePeak, (file["bytes"]?.intValue ?? 0) >> 20))
        report.figures["exportFileSeconds"] = tFile
        report.figures["exportFilePeakRSSMiB"] = filePeak
        return max(exportPeak, filePeak)
    }

    /// `contactsctl query-email`, and beside it abook's `--mutt-query` on the same people.
    static func mailQuery(_ contacts: [Contact], socket: String, scratch dir: String, into report: inout Report) throws {
        var env = ProcessInfo.processInfo.environment
        env["CONTACTSD_SOCKET"] = socket
        // The installed client (`make bench` names it), else the one built beside the bench.
        let ctl =
            ProcessInfo.processInfo.environment["CONTACTS_BENCH_CTL"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("contactsctl").path
        let q = ServiceBench.commandMillis(ctl, ["query-email", "smith"], environment: env, runs: 20)
        report.row("contactsctl query-email (best of 20)", String(format: "%.1f ms", q))
        report.figures["queryEmailMs"] = q
        guard let abook = ServiceBench.which("abook") else { return }
        // Its own HOME, so that no configuration of the user's is read.
        let book = dir + "/abook.addressbook"
        try ServiceBench.writeAbook(contacts, to: book)
        var abookEnv = env
        abookEnv["HOME"] = dir
        let args = ["--datafile", book, "--mutt-query", "smith"]
        let a = ServiceBench.commandMillis(abook, args, environment: abookEnv, runs: 5)
        // abook lists every match; query-email the first 100 contacts. Compared like for like,
        // contactsctl lists every match too.
        let all = ["query-email", "--limit", "\(contacts.count)", "smith"]
        let qAll = ServiceBench.commandMillis(ctl, all, environment: env, runs: 5)
        // Both print a first line, then one line an address.
        let ours = ServiceBench.output(ctl, all, environment: env).split(separator: "\n").count - 1
        let theirs = ServiceBench.output(abook, args, environment: abookEnv).split(separator: "\n").count - 1
        report.row(
            "every match for 'smith': contactsctl / abook --mutt-query",
            String(format: "%.1f / %.1f ms (best of 5; %d / %d addresses)", qAll, a, ours, theirs))
        report.row("abook / contactsctl, every match", String(format: "%.1fx", a / qAll))
        // As mutt asks: `query-email` with its default limit of 100 contacts, against abook's
        // every match (it has no limit). The floor of both is a process start and a read.
        report.row("abook / contactsctl query-email as mutt runs it", String(format: "%.1fx", a / q))
        report.figures["abookRatioDefault"] = a / q
        report.figures["queryEmailAllMs"] = qAll
        report.figures["abookQueryMs"] = a
        report.figures["abookRatio"] = a / qAll
    }

    static func photos(socket: String, id: String, into report: inout Report) throws {
        let p = try ServiceBench.photos(socket: socket, id: id)
        report.row("setPhoto, 12 MP JPEG (checked, first 256 px thumbnail)", String(format: "%.0f ms", p.set * 1000))
        report.row(
            "thumbnail 12 MP JPEG: cold / cached p50 / cached p99",
            String(format: "%.0f / %.2f / %.2f ms", p.cold * 1000, p.cachedP50 * 1000, p.cachedP99 * 1000))
        report.figures["setPhoto12MPMs"] = p.set * 1000
        report.figures["thumbnailColdMs"] = p.cold * 1000
        report.figures["thumbnailCachedP50Ms"] = p.cachedP50 * 1000
        report.figures["thumbnailCachedP99Ms"] = p.cachedP99 * 1000
    }
}
