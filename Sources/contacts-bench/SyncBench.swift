import CardDAV
import ContactsCore
import ContactsStore
import ContactsSync
import Foundation
import Glibc
import VCard

/// Sync against a real Radicale on loopback (from the project's `.venv`), beside vdirsyncer on
/// the same server in the same run: a first download (10,000 cards at most), a sync with
/// nothing changed, an upload of new contacts (1,000 at most).
enum SyncBench {
    static func measure(_ corpus: [Contact], scratch dir: String) throws -> Report {
        var out = Report()
        let venv = RadicaleRun.venv
        guard RadicaleRun.isInstalled else {
            out.rows.append(("sync with Radicale", "skipped: \(venv)/bin/radicale is missing (scripts/install-deps.sh installs it)"))
            return out
        }
        let count = min(corpus.count, 10_000)
        let radicale = try RadicaleRun(storage: dir + "/radicale")
        defer { radicale.stop() }
        let root = radicale.root
        let http = radicale.http
        let bookURL = root.appendingPathComponent("bench/contacts/")
        // BENCH_SYNC_MEMORY_ONLY=1: the daemon's memory while it syncs a book with photos, alone.
        if ProcessInfo.processInfo.environment["BENCH_SYNC_MEMORY_ONLY"] == "1" {
            out.rows += try daemonMemory(count: count, server: http, root: root, scratch: dir)
            return out
        }
        // The book: cards of about 250 bytes (no photos), in one PUT of the whole collection.
        var text = ""
        for var c in corpus.prefix(count) {
            c.photo = nil
            c.vcardProperties = nil
            VCardWriter.write(VCard(properties: VCardMapping.properties(for: c)), version: .v3, into: &text)
        }
        _ = try radicale.book("contacts", cards: text)
        // Warmed first, as SYNC.md says: Radicale builds its item cache and token state on the
        // first requests (about 30 s and 15 s for 10k cards).
        let book = AddressBookClient(url: bookURL, http: http)
        _ = try book.listing()
        _ = try book.properties()
        // What the server alone takes for the one request a first download sends (the changes
        // with the cards, read and dropped), and for the listing and multigets of 100 that
        // clients such as vdirsyncer and DAVx5 send instead.
        var t = now()
        var streamed = 0
        _ = try book.changes(since: nil) { _ in
            streamed += 1
            return true
        }
        let tStreamed = now() - t
        t = now()
        let listing = try book.changes(since: nil)
        let tListing = now() - t
        t = now()
        let hrefs = listing.changed.map(\.href)
        for start in stride(from: 0, to: hrefs.count, by: 100) {
            _ = try book.multiget(Array(hrefs[start..<min(hrefs.count, start + 100)]))
        }
        let tMultigets = now() - t

        // contactsd: a first download into an empty store, then a sync with nothing changed.
        // A first download into an empty store, then vdirsyncer 0.21 into an empty vdir, three
        // times over in turn (the server's own time for the same request varies by seconds
        // from one run to the next): the best of each is the figure.
        let vdirsyncer = venv + "/bin/vdirsyncer"
        let hasPeer = FileManager.default.isExecutableFile(atPath: vdirsyncer)
        var tFirsts: [Double] = []
        var tPeerFirsts: [Double] = []
        // contactsd's own work in each: the CPU time of this process (the server's is its own).
        var cpuFirsts: [Double] = []
        var first = SyncReport(account: "bench")
        var store: ContactStore?
        defer { store?.close() }
        for round in 0..<3 {
            let s = try ContactStore(path: dir + "/sync-bench-\(round).sqlite3")
            store?.close()
            store = s
            try s.addAccount(SyncAccount(name: "bench", url: bookURL.absoluteString, addressBookURL: bookURL.absoluteString))
            t = now()
            let cpuBefore = cpuSeconds()
            first = try SyncEngine(store: s).sync(try s.account(named: "bench"), with: book)
            tFirsts.append(now() - t)
            cpuFirsts.append(cpuSeconds() - cpuBefore)
            guard hasPeer else { continue }
            let roundConfig = dir + "/vdirsyncer-\(round).conf"
            try Vdirsyncer.prepare(roundConfig, url: bookURL, vdir: "\(dir)/vdir-\(round)", status: "\(dir)/vdirsyncer-status-\(round)")
            t = now()
            if try run(vdirsyncer, ["-c", roundConfig, "sync"]) == 0 { tPeerFirsts.append(now() - t) }
        }
        guard let store else { return out }
        let tFirst = tFirsts.min() ?? 0
        let tPeerFirst = tPeerFirsts.min()
        // A sync with nothing changed, and its one request alone, three times each in turn (the
        // server's answer time varies by a few hundred milliseconds): the best of each.
        let engine = SyncEngine(store: store)
        var idle = SyncReport(account: "bench")
        var tIdle = Double.infinity
        var tRequest = Double.infinity
        let token = try store.account(named: "bench").syncToken
        for _ in 0..<3 {
            t = now()
            idle = try engine.sync(try store.account(named: "bench"), with: book)
            tIdle = min(tIdle, now() - t)
            t = now()
            _ = try book.changes(since: token)
            tRequest = min(tRequest, now() - t)
        }
        var tPeerUpload: Double?

        // New contacts up into an empty book of their own, 1,000 of them (a hundredth of the
        // corpus when it is smaller: Radicale takes about a fifth of a second for each):
        // contactsd, then vdirsyncer (as many new files in an empty vdir of its own).
        // BENCH_SYNC_DOWNLOAD_ONLY=1 stops here (the uploads and the photo book take minutes).
        guard ProcessInfo.processInfo.environment["BENCH_SYNC_DOWNLOAD_ONLY"] != "1" else {
            out.rows.append(
                (
                    "sync: first download of \(count) cards: contactsd / vdirsyncer (each run)",
                    [tFirsts, tPeerFirsts].map { $0.map { String(format: "%.2f", $0) }.joined(separator: ", ") }.joined(separator: " / ")
                ))
            out.rows.append(("sync: Radicale alone for contactsd's one request", String(format: "%.2f s", tStreamed)))
            out.rows.append(
                (
                    "sync: contactsd's CPU time in each first download",
                    cpuFirsts.map { String(format: "%.2f s", $0) }.joined(separator: ", ")
                ))
            return out
        }
        let uploads = min(1000, max(10, corpus.count / 100))
        let uploadURL = root.appendingPathComponent("bench/upload/")
        let peerURL = root.appendingPathComponent("bench/upload-peer/")
        for url in [uploadURL, peerURL] {
            _ = try http.send(
                HTTPRequest(
                    "MKCOL", url, headers: ["Content-Type": "application/xml"],
                    body: Data(
                        ("<?xml version=\"1.0\"?><D:mkcol xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:carddav\"><D:set><D:prop>"
                            + "<D:resourcetype><D:collection/><C:addressbook/></D:resourcetype></D:prop></D:set></D:mkcol>").utf8)))
        }
        let uploadBook = AddressBookClient(url: uploadURL, http: http)
        try store.addAccount(SyncAccount(name: "upload", url: uploadURL.absoluteString, addressBookURL: uploadURL.absoluteString))
        let fresh = try (0..<uploads).map { i in try store.create(Contact(name: "Upload Person \(i)")) }
        _ = try store.addToAccount("upload", ids: fresh.map(\.id)) { uploadBook.hrefForNewCard(uid: $0.uid) }
        t = now()
        let upload = try engine.sync(try store.account(named: "upload"), with: uploadBook)
        let tUpload = now() - t
        if tPeerFirst != nil {
            let peerConfig = dir + "/vdirsyncer-upload.conf"
            try Vdirsyncer.prepare(peerConfig, url: peerURL, vdir: "\(dir)/vdir-upload", status: "\(dir)/vdirsyncer-upload-status")
            _ = try run(vdirsyncer, ["-c", peerConfig, "sync"])
            for i in 0..<uploads {
                let uid = "vdir-upload-\(i)"
                try "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:Vdir Person \(i)\r\nN:Person;Vdir;;;\r\nEND:VCARD\r\n".write(
                    toFile: "\(dir)/vdir-upload/\(uid).vcf", atomically: false, encoding: .utf8)
            }
            t = now()
            if try run(vdirsyncer, ["-c", peerConfig, "sync"]) == 0 { tPeerUpload = now() - t }
        }

        func ratio(_ peer: Double?, _ mine: Double) -> String { peer.map { String(format: " (%.1fx)", $0 / mine) } ?? "" }
        func seconds(_ v: Double?) -> String { v.map { String(format: "%.2f s", $0) } ?? "n/a" }
        out.rows.append(
            (
                "sync: first download of \(count) cards from Radicale: contactsd / vdirsyncer",
                "\(seconds(tFirst)) (\(first.requests) requests) / \(seconds(tPeerFirst))\(ratio(tPeerFirst, tFirst)); each run: "
                    + [tFirsts, tPeerFirsts].map { $0.map { String(format: "%.2f", $0) }.joined(separator: ", ") }.joined(separator: " / ")
            ))
        out.rows.append(
            (
                "sync: Radicale alone: the changes with the cards (contactsd's one request)",
                String(
                    format: "%.2f s (%d cards); contactsd's CPU time in each first download: %@", tStreamed, streamed,
                    cpuFirsts.map { String(format: "%.2f s", $0) }.joined(separator: ", "))
            ))
        out.rows.append(
            (
                "sync: Radicale alone: a listing / the multigets of 100 (what other clients send)",
                String(format: "%.2f s / %.2f s", tListing, tMultigets)
            ))
        out.rows.append(
            (
                "sync: nothing changed: contactsd / its one request alone",
                String(
                    format: "%.1f ms (%d request) / %.1f ms (+%.1f ms)", tIdle * 1000, idle.requests, tRequest * 1000,
                    (tIdle - tRequest) * 1000)
            ))
        out.rows.append(
            (
                "sync: upload of \(uploads) new contacts: contactsd / vdirsyncer",
                "\(seconds(tUpload)) (\(upload.uploaded.created) sent, \(upload.requests) requests) / \(seconds(tPeerUpload))\(ratio(tPeerUpload, tUpload))"
            ))
        out.figures["syncFirstDownloadSeconds"] = tFirst
        out.figures["syncIdleMs"] = tIdle * 1000
        out.figures["syncIdleRequests"] = Double(idle.requests)
        out.figures["syncUploadSeconds"] = tUpload
        if let tPeerFirst { out.figures["vdirsyncerFirstDownloadSeconds"] = tPeerFirst }
        if let tPeerUpload { out.figures["vdirsyncerUploadSeconds"] = tPeerUpload }
        out.rows += try daemonMemory(count: count, server: http, root: root, scratch: dir)
        return out
    }

    /// The CPU time (user and system) this process has used, in seconds.
    static func cpuSeconds() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }

    /// Runs a program to its end; its exit status.
    static func run(_ path: String, _ args: [String], stdin: String? = nil) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let input = Pipe()
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        p.waitUntilExit()
        return p.terminationStatus
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
