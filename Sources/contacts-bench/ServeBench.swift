import ContactsCore
import Foundation
import JSONRPC

/// The store served over CardDAV by a real contactsd, asked as clients ask it (curl, best of
/// five): a book's listing with ETags (PROPFIND Depth 1, what Thunderbird and EDS send to
/// see what changed), a multiget of 100 cards, and an addressbook-query.
enum ServeBench {
    static let cards = 10_000

    static func measure(_ contacts: [Contact], scratch dir: String) throws -> Report {
        var out = Report()
        let port = try SyncBench.freePort()
        let daemon = try DaemonRun(home: dir + "/serve", config: #"{"carddav": {"listen": "127.0.0.1:\#(port)"}}"#)
        defer { daemon.stop() }
        let some = Array(contacts.prefix(cards))
        let file = dir + "/serve/corpus.vcf"
        try vCard3(some).write(toFile: file, atomically: false, encoding: .utf8)
        _ = try RPCClient(path: daemon.socket).call("contacts.import", ["path": .string(file)])
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
        return out
    }

    /// The fastest of five runs of curl with these arguments, in ms (spawned as the other
    /// command figures are: `ServiceBench.commandMillis`), and its answer.
    static func best(_ args: [String]) throws -> (Double, String) {
        let argv = ["-s", "-f", "--max-time", "60"] + args
        let env = ProcessInfo.processInfo.environment
        let body = ServiceBench.output("/usr/bin/curl", argv, environment: env)
        guard !body.isEmpty else {
            throw NSError(domain: "bench", code: 4, userInfo: [NSLocalizedDescriptionKey: "curl \(args.first ?? "") got no answer"])
        }
        return (ServiceBench.commandMillis("/usr/bin/curl", argv, environment: env, runs: 5), body)
    }
}
