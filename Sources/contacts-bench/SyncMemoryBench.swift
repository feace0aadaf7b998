import CardDAV
import ContactsCore
import Foundation
import JSONCore
import JSONRPC
import VCard

extension SyncBench {
    /// A real contactsd's memory while its first sync brings a book of `count` cards, each
    /// with a photo: at rest before, and at its peak (`VmHWM`) after.
    static func daemonMemory(count: Int, server: HTTPClient, root: URL, scratch dir: String) throws -> [(String, String)] {
        guard let bookURL = URL(string: "bench/photos/", relativeTo: root)?.absoluteURL else { return [] }
        var text = ""
        for i in 0..<count {
            let jpeg = Corpus.photos[i % Corpus.photos.count]
            var c = Contact(name: "Photo Person \(i)")
            c.uid = "photo-\(i)"
            let photo = VCardProperty(
                name: "PHOTO", parameters: [VCardParameter("ENCODING", ["b"]), VCardParameter("TYPE", ["JPEG"])],
                value: .raw(Data(jpeg).base64EncodedString()))
            VCardWriter.write(VCard(properties: VCardMapping.properties(for: c) + [photo]), version: .v3, into: &text)
        }
        let put = try server.send(HTTPRequest("PUT", bookURL, headers: ["Content-Type": "text/vcard"], body: Data(text.utf8)))
        guard put.status < 300 else { return [("sync: daemon memory with photos", "skipped: the book's PUT answered \(put.status)")] }
        let megabytes = Double(text.utf8.count) / 1_048_576
        text = ""
        let book = AddressBookClient(url: bookURL, http: server)
        _ = try book.listing()
        _ = try book.properties()

        let daemon = try DaemonRun(home: dir + "/sync-daemon")
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        let c = try RPCClient(path: daemon.socket)
        usleep(500_000)
        let rest = ServiceBench.rssMiB(pid)
        let t = Date()
        _ = try c.call("accounts.add", ["name": "photos", "url": .string(bookURL.absoluteString), "username": "bench"])
        let report = try c.call("sync.run", ["account": "photos"])
        let seconds = Date().timeIntervalSince(t)
        let stored = try c.call("contacts.query", ["limit": 0])["total"]?.intValue ?? 0
        let peak = ServiceBench.rssMiB(pid, field: "VmHWM")
        _ = report
        return [
            (
                "sync: daemon RSS, first sync of \(count) cards with photos (\(String(format: "%.0f", megabytes)) MiB)",
                String(
                    format: "%.1f MiB at rest, %.1f MiB at the peak (+%.1f MiB; goal: +100 MiB at most); %d stored in %.1f s", rest, peak,
                    peak - rest, stored, seconds)
            )
        ]
    }
}
