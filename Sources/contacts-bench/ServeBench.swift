import CardDAV
import ContactsCore
import Foundation
import JSONRPC

/// The store served over CardDAV by a real contactsd, asked as clients ask it (curl, best of
/// five): a book's listing with ETags (PROPFIND Depth 1, what Thunderbird and EDS send to
/// see what changed), a multiget of 100 cards, an addressbook-query, a sync-collection with
/// nothing to tell (at 10k and at the whole corpus), and vdirsyncer's first sync of the book;
/// Radicale serving the same 10k cards beside it.
enum ServeBench {
    static let cards = 10_000

    static func measure(_ contacts: [Contact], scratch dir: String) throws -> Report {
        var out = Report()
        let port = try SyncBench.freePort()
        let lanPort = try SyncBench.freePort()
        let daemon = try DaemonRun(
            home: dir + "/serve", config: #"{"carddav": {"listen": "127.0.0.1:\#(port)", "lan": {"listen": "127.0.0.1:\#(lanPort)"}}}"#)
        defer { daemon.stop() }
        let some = Array(contacts.prefix(cards))
        let file = dir + "/serve/corpus.vcf"
        try vCard3(some).write(toFile: file, atomically: false, encoding: .utf8)
        _ = try RPCClient(path: daemon.socket).call("contacts.import", ["path": .string(file)])
        try daemon.waitUntilAtRest()
        let book = "http://127.0.0.1:\(port)/books/local/"
        let listing = [
            "-X", "PROPFIND", "-H", "Depth: 1", "--data", "<d:propfind xmlns:d='DAV:'><d:prop><d:getetag/></d:prop></d:propfind>", book,
        ]
        let (tList, body) = try best(listing)
        let hrefs = body.components(separatedBy: "<d:href>").dropFirst(2).compactMap { $0.components(separatedBy: "</d:href>").first }
        out.row(
            "CardDAV: PROPFIND Depth 1 getetag over \(some.count) cards (curl, best of 5)",
            String(format: "%.1f ms (%d cards)", tList, hrefs.count))
        out.figures["serveListingMs"] = tList
        let multiget =
            "<c:addressbook-multiget xmlns:d='DAV:' xmlns:c='urn:ietf:params:xml:ns:carddav'><d:prop><d:getetag/><c:address-data/></d:prop>"
            + hrefs.prefix(100).map { "<d:href>\($0)</d:href>" }.joined() + "</c:addressbook-multiget>"
        let (tMultiget, _) = try best(["-X", "REPORT", "-H", "Depth: 1", "--data", multiget, book])
        out.row("CardDAV: addressbook-multiget of 100 cards", String(format: "%.1f ms", tMultiget))
        out.figures["serveMultiget100Ms"] = tMultiget
        let query =
            "<c:addressbook-query xmlns:d='DAV:' xmlns:c='urn:ietf:params:xml:ns:carddav'><d:prop><d:getetag/></d:prop><c:filter><c:prop-filter name='FN'><c:text-match>smith</c:text-match></c:prop-filter></c:filter></c:addressbook-query>"
        let (tQuery, _) = try best(["-X", "REPORT", "-H", "Depth: 1", "--data", query, book])
        out.row("CardDAV: addressbook-query FN contains 'smith'", String(format: "%.1f ms", tQuery))
        out.figures["serveQueryMs"] = tQuery

        guard let bookURL = URL(string: book) else { return out }
        let http = HTTPClient(credentials: .none, for: bookURL, timeout: 60)
        let idle = try noOpSync(http, bookURL)
        out.row("CardDAV: sync-collection with nothing changed, \(some.count) cards (p50 of 20)", String(format: "%.2f ms", idle))
        out.figures["serveNoOpSyncMs"] = idle

        // The same 10k cards served by Radicale, and vdirsyncer's first sync from each.
        var tPeerList: Double?
        var tPeerSync: Double?
        var radicale: RadicaleRun?
        defer { radicale?.stop() }
        if RadicaleRun.isInstalled {
            let peer = try RadicaleRun(storage: dir + "/serve-radicale")
            radicale = peer
            let peerBook = try peer.book("contacts", cards: vCard3(some)).absoluteString
            var peerListing = listing
            peerListing[peerListing.count - 1] = peerBook
            // Warmed first: Radicale builds its cache of items on the first listing.
            _ = ServiceBench.output("/usr/bin/curl", ["-s", "-f", "--max-time", "600"] + peerListing, environment: [:])
            tPeerList = try best(peerListing, runs: 2).0
        }
        func ratio(_ peer: Double?, _ mine: Double?) -> String {
            guard let peer, let mine, mine > 0 else { return "" }
            return String(format: " (%.1fx)", peer / mine)
        }
        out.row(
            "CardDAV: PROPFIND Depth 1 getetag over \(some.count) cards: contactsd / Radicale",
            String(format: "%.1f ms / ", tList) + (tPeerList.map { String(format: "%.1f ms", $0) } ?? "n/a") + ratio(tPeerList, tList))
        if let tPeerList { out.figures["radicaleListingMs"] = tPeerList }
        if Vdirsyncer.isInstalled {
            // One sync first, not counted: the first vdirsyncer runs of a bench were seconds
            // slower against either server, whichever was asked first (the client's own start).
            _ = try Vdirsyncer.firstSync(of: bookURL, scratch: dir + "/serve")
            // In turns, so that a noisy moment of the machine falls on both alike.
            var ours: [Double] = []
            var theirs: [Double] = []
            for _ in 0..<3 {
                if let t = try Vdirsyncer.firstSync(of: bookURL, scratch: dir + "/serve") { ours.append(t) }
                if let radicale,
                    let t = try Vdirsyncer.firstSync(of: radicale.root.appendingPathComponent("bench/contacts/"), scratch: dir + "/serve")
                {
                    theirs.append(t)
                }
            }
            let mine = ours.min()
            tPeerSync = theirs.min()
            func seconds(_ v: Double?) -> String { v.map { String(format: "%.2f s", $0) } ?? "n/a" }
            out.row(
                "CardDAV: vdirsyncer's first sync of \(some.count) cards: from contactsd / from Radicale (best of 3, in turns)",
                "\(seconds(mine)) / \(seconds(tPeerSync))\(ratio(tPeerSync, mine))")
            if let mine { out.figures["vdirsyncerFromContactsdSeconds"] = mine }
            if let tPeerSync { out.figures["vdirsyncerFromRadicaleSeconds"] = tPeerSync }
        }

        // Over TLS once the daemon is at rest after the import, as the loopback figures above.
        try LANBench.measure(
            daemon, port: lanPort, cards: try vCard3(some), count: some.count, loopbackNoOpMs: idle, scratch: dir, into: &out)

        // The rest of the corpus in the same book: the no-op is the same two empty ranges.
        if contacts.count > some.count {
            let rest = dir + "/serve/rest.vcf"
            try vCard3(Array(contacts.dropFirst(cards))).write(toFile: rest, atomically: false, encoding: .utf8)
            _ = try RPCClient(path: daemon.socket).call("contacts.import", ["path": .string(rest)])
            try daemon.waitUntilAtRest()
            let large = try noOpSync(http, bookURL)
            out.row("CardDAV: sync-collection with nothing changed, \(contacts.count) cards (p50 of 20)", String(format: "%.2f ms", large))
            out.figures["serveNoOpSyncLargeMs"] = large
        }
        try LANBench.devicesAtOnce(daemon, port: lanPort, count: contacts.count, into: &out)
        daemon.stop()
        try LANBench.memoryAtRest(home: dir + "/serve", loopbackPort: port, lanPort: lanPort, into: &out)
        return out
    }

    /// The median time of 20 sync-collection requests from the book's current token, on one
    /// kept-alive connection, in ms.
    static func noOpSync(_ http: HTTPClient, _ url: URL) throws -> Double {
        // The first one opens the connection.
        try noOpSyncTimes(http, url, requests: 20).sorted()[10]
    }

    /// The times of `requests` no-op sync-collection requests on one kept-alive connection,
    /// in ms, after one that opens it (and the PROPFIND that reads the token).
    static func noOpSyncTimes(_ http: HTTPClient, _ url: URL, requests: Int) throws -> [Double] {
        let depth0 = HTTPRequest(
            "PROPFIND", url, headers: ["Depth": "0", "Content-Type": "application/xml"],
            body: Data("<d:propfind xmlns:d='DAV:'><d:prop><d:sync-token/></d:prop></d:propfind>".utf8))
        let props = String(decoding: try http.send(depth0).body, as: UTF8.self)
        guard let start = props.range(of: "<d:sync-token>"), let end = props.range(of: "</d:sync-token>") else {
            throw NSError(domain: "bench", code: 5, userInfo: [NSLocalizedDescriptionKey: "the book has no sync-token"])
        }
        let token = props[start.upperBound..<end.lowerBound]
        let report = HTTPRequest(
            "REPORT", url, headers: ["Depth": "1", "Content-Type": "application/xml"],
            body: Data(
                "<d:sync-collection xmlns:d='DAV:'><d:sync-token>\(token)</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"
                    .utf8))
        var times: [Double] = []
        for _ in 0...requests {
            let t = Date()
            let r = try http.send(report)
            guard r.status == 207, !String(decoding: r.body, as: UTF8.self).contains("<d:response>") else {
                throw NSError(
                    domain: "bench", code: 6, userInfo: [NSLocalizedDescriptionKey: "a no-op sync-collection answered \(r.status)"])
            }
            times.append(Date().timeIntervalSince(t) * 1000)
        }
        return Array(times.dropFirst())
    }

    /// The fastest of five runs of curl with these arguments, in ms (spawned as the other
    /// command figures are: `ServiceBench.commandMillis`), and its answer.
    static func best(_ args: [String], runs: Int = 5) throws -> (Double, String) {
        let argv = ["-s", "-f", "--max-time", "60"] + args
        let env = ProcessInfo.processInfo.environment
        let body = ServiceBench.output("/usr/bin/curl", argv, environment: env)
        guard !body.isEmpty else {
            throw NSError(domain: "bench", code: 4, userInfo: [NSLocalizedDescriptionKey: "curl \(args.first ?? "") got no answer"])
        }
        return (ServiceBench.commandMillis("/usr/bin/curl", argv, environment: env, runs: runs), body)
    }
}
