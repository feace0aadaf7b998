import CardDAV
import Foundation

/// A real Radicale on loopback (from the project's `.venv`), with no authentication, its
/// storage in the scratch directory; with `tls`, serving HTTPS only with a certificate of the
/// kind the LAN face makes (ECDSA P-256, self-signed, 825 days, made there by openssl);
/// stopped by `stop`.
final class RadicaleRun {
    let process = Process()
    let root: URL
    let http: HTTPClient
    /// The certificate's SHA-256 fingerprint, when it serves TLS.
    private(set) var fingerprint: String?

    static var venv: String {
        ProcessInfo.processInfo.environment["CONTACTS_BENCH_VENV"] ?? FileManager.default.currentDirectoryPath + "/.venv"
    }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: venv + "/bin/radicale") }

    init(storage: String, tls: String? = nil) throws {
        let port = try SyncBench.freePort()
        process.executableURL = URL(fileURLWithPath: Self.venv + "/bin/radicale")
        var secure: [String] = []
        var caFile: String?
        if let tls {
            try FileManager.default.createDirectory(atPath: tls, withIntermediateDirectories: true)
            let (cert, key) = (tls + "/cert.pem", tls + "/key.pem")
            _ = try SyncBench.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "825", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-addext", "extendedKeyUsage=serverAuth", "-keyout", key,
                    "-out", cert,
                ])
            let shown = ServiceBench.output(
                "/usr/bin/openssl", ["x509", "-in", cert, "-noout", "-fingerprint", "-sha256"], environment: [:])
            fingerprint = shown.split(separator: "=", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            secure = ["--server-ssl", "True", "--server-certificate", cert, "--server-key", key]
            caFile = cert
        }
        process.arguments =
            secure + [
                "--server-hosts", "127.0.0.1:\(port)", "--storage-filesystem-folder", storage, "--auth-type", "none",
                // The book with a photo on every card is one PUT of more than Radicale's default 100 MB.
                "--server-max-content-length", "1000000000",
                "--logging-level", "warning",
            ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard let root = URL(string: "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)/") else {
            throw NSError(domain: "bench", code: 7, userInfo: [NSLocalizedDescriptionKey: "no URL for port \(port)"])
        }
        self.root = root
        http = HTTPClient(credentials: .basic(user: "bench", password: "x"), for: root, timeout: 600, caFile: caFile)
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
