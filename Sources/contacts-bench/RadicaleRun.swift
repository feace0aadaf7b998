import CardDAV
import Foundation

/// A real Radicale on loopback (from the project's `.venv`), with no authentication, its
/// storage in the scratch directory; stopped by `stop`.
final class RadicaleRun {
    let process = Process()
    let root: URL
    let http: HTTPClient

    static var venv: String {
        ProcessInfo.processInfo.environment["CONTACTS_BENCH_VENV"] ?? FileManager.default.currentDirectoryPath + "/.venv"
    }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: venv + "/bin/radicale") }

    init(storage: String) throws {
        let port = try SyncBench.freePort()
        process.executableURL = URL(fileURLWithPath: Self.venv + "/bin/radicale")
        process.arguments = [
            "--server-hosts", "127.0.0.1:\(port)", "--storage-filesystem-folder", storage, "--auth-type", "none",
            // The book with a photo on every card is one PUT of more than Radicale's default 100 MB.
            "--server-max-content-length", "1000000000",
            "--logging-level", "warning",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard let root = URL(string: "http://127.0.0.1:\(port)/") else {
            throw NSError(domain: "bench", code: 7, userInfo: [NSLocalizedDescriptionKey: "no URL for port \(port)"])
        }
        self.root = root
        http = HTTPClient(credentials: .basic(user: "bench", password: "x"), for: root, timeout: 600)
        try process.run()
        var up = false
        for _ in 0..<100 where !up {
            up = (try? http.send(HTTPRequest("OPTIONS", root))) != nil
            if !up { usleep(100_000) }
        }
    }

    /// A book at `/bench/NAME/` holding these cards, put in one request as a whole collection.
    func book(_ name: String, cards text: String) throws -> URL {
        let url = root.appendingPathComponent("bench/\(name)/")
        _ = try http.send(HTTPRequest("PUT", url, headers: ["Content-Type": "text/vcard"], body: Data(text.utf8)))
        return url
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
