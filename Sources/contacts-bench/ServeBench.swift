import ContactsCore
import Foundation
import Glibc
import JSONRPC

/// The store served over CardDAV by a real contactsd, asked as clients ask it (curl, best of
/// five): a book's listing with ETags (PROPFIND Depth 1, what Thunderbird and EDS send to
/// see what changed), a multiget of 100 cards, and an addressbook-query.
enum ServeBench {
    static let cards = 10_000

    static func measure(_ contacts: [Contact], scratch dir: String) throws -> Report {
        var out = Report()
        let port = try freePort()
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

    /// The fastest of five runs of curl with these arguments, in ms, and the body of the last.
    static func best(_ args: [String]) throws -> (Double, String) {
        var fastest = Double.infinity
        var body = ""
        for _ in 0..<5 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            p.arguments = ["-s", "-f", "--max-time", "60"] + args
            let pipe = Pipe()
            p.standardOutput = pipe
            let start = Date()
            try p.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            fastest = min(fastest, Date().timeIntervalSince(start) * 1000)
            guard p.terminationStatus == 0 else {
                throw NSError(
                    domain: "bench", code: 4,
                    userInfo: [NSLocalizedDescriptionKey: "curl \(args.first ?? "") failed (\(p.terminationStatus))"])
            }
            body = String(decoding: data, as: UTF8.self)
        }
        return (fastest, body)
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw NSError(domain: "bench", code: 5, userInfo: [NSLocalizedDescriptionKey: "no free port"]) }
        return Int(UInt16(bigEndian: a.sin_port))
    }
}
