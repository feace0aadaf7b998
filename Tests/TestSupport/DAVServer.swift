import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real CardDAV server on 127.0.0.1 for a test: Radicale or Xandikos from the project's
/// virtual environment (`scripts/install-deps.sh` makes it), with a storage folder of its own,
/// started on a free port and stopped by its pid. Each has one address book for the user
/// `kate` (password `secret`; Xandikos takes any).
///
/// For the services that cannot run here, `Tests/fakes/carddav_fake.py` plays them as they
/// are documented to behave (`google`, `icloud`: its header says how); Google takes the
/// bearer token `good-token`, and Basic as `kate` for the test's own requests.
public final class DAVServer: @unchecked Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case radicale, xandikos, google, icloud

        /// The servers that run here for real: every sync test runs against both.
        public static let real: [Kind] = [.radicale, .xandikos]
    }

    /// The bearer token the Google fake takes.
    public let token = "good-token"

    public let kind: Kind
    public let port: Int
    public let folder: String
    public let user = "kate"
    public let password = "secret"
    private let process: Process

    /// Served over TLS with a certificate of a CA made for the test (`caFile`).
    public let tls: Bool
    /// The test CA's certificate, when `tls`.
    public var caFile: String { folder + "/ca.pem" }

    /// The server's root.
    public var root: URL { URL(fileURLWithPath: "/").url(port: port, path: "/", tls: tls) }

    /// The address book's URL.
    public var addressBook: URL {
        switch kind {
        case .radicale: root.url(port: port, path: "/kate/contacts/", tls: tls)
        case .xandikos: root.url(port: port, path: "/user/contacts/addressbook/", tls: tls)
        case .google: root.url(port: port, path: "/home/kate/lists/default/", tls: tls)
        case .icloud: root.url(port: port, path: "/home/kate/card/", tls: tls)
        }
    }

    /// `.venv` at the repository's root, as the install script makes it.
    public static var venv: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".venv")
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `fakeOptions` go to the fake server (`--max-card-bytes N`, `--no-sync-collection`);
    /// `tls` (Radicale only) serves https with a certificate of a CA made for the test.
    public init(_ kind: Kind, fakeOptions: [String] = [], tls: Bool = false) throws {
        self.kind = kind
        self.tls = tls
        let fake = kind == .google || kind == .icloud
        let python = Self.venv.appendingPathComponent("bin/python3").path
        let program = fake ? python : Self.venv.appendingPathComponent("bin/\(kind.rawValue)").path
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw Failure(description: "\(program) is missing: run scripts/install-deps.sh (it installs Radicale and Xandikos)")
        }
        folder = NSTemporaryDirectory() + "dav-\(kind.rawValue)-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        switch kind {
        case .radicale:
            try "kate:secret\n".write(toFile: folder + "/users", atomically: true, encoding: .utf8)
            process.arguments = [
                "--server-hosts", "127.0.0.1:\(port)", "--storage-filesystem-folder", folder + "/collections", "--auth-type", "htpasswd",
                "--auth-htpasswd-filename", folder + "/users", "--auth-htpasswd-encryption", "plain", "--logging-level", "warning",
            ]
            if tls {
                try makeCertificates()
                process.arguments? += [
                    "--server-ssl", "--server-certificate", folder + "/server.pem", "--server-key", folder + "/server.key",
                ]
                // The book is made on disk: no client here trusts the test CA before the server is up.
                let book = folder + "/collections/collection-root/kate/contacts"
                try FileManager.default.createDirectory(atPath: book, withIntermediateDirectories: true)
                try #"{"tag": "VADDRESSBOOK", "D:displayname": "Contacts"}"#.write(
                    toFile: book + "/.Radicale.props", atomically: true, encoding: .utf8)
            }
        case .xandikos:
            process.arguments = ["--defaults", "-d", folder + "/data", "-l", "127.0.0.1", "-p", String(port)]
        case .google, .icloud:
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("fakes/carddav_fake.py").path
            process.arguments = [script, kind.rawValue, String(port)] + fakeOptions
        }
        FileManager.default.createFile(atPath: folder + "/server.log", contents: nil)
        let log = FileHandle(forWritingAtPath: folder + "/server.log")
        process.standardOutput = log
        process.standardError = log
        try process.run()
        do {
            try waitUntilListening()
            if kind == .radicale && !tls { try makeAddressBook() }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Stops the server (SIGTERM, then SIGKILL after three seconds) and removes its folder.
    public func stop() {
        guard process.isRunning else {
            try? FileManager.default.removeItem(atPath: folder)
            return
        }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// What the server logged, for a failing test's message.
    public var log: String { (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? "" }

    /// A plain HTTP request to the server, as another client would send it (Basic credentials).
    @discardableResult
    public func request(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) throws -> (
        status: Int, headers: [String: String], body: Data
    ) {
        var r = URLRequest(url: url)
        r.httpMethod = method
        r.httpBody = body
        for (k, v) in headers { r.setValue(v, forHTTPHeaderField: k) }
        r.setValue("Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var out: (Int, [String: String], Data)?
        nonisolated(unsafe) var failure: Error?
        URLSession.shared.dataTask(with: r) { data, response, error in
            if let http = response as? HTTPURLResponse {
                var h: [String: String] = [:]
                for (k, v) in http.allHeaderFields { if let k = k as? String, let v = v as? String { h[k.lowercased()] = v } }
                out = (http.statusCode, h, data ?? Data())
            }
            failure = error
            done.signal()
        }.resume()
        done.wait()
        if let failure { throw failure }
        guard let out else { throw Failure(description: "no answer from \(url)") }
        return out
    }

    /// Puts a card at `name` in the address book, as another device would.
    @discardableResult
    public func put(_ name: String, _ card: String, headers: [String: String] = [:]) throws -> (status: Int, etag: String?) {
        let r = try request(
            "PUT", addressBook.appendingPathComponent(name), headers: ["Content-Type": "text/vcard; charset=utf-8"].merging(headers) { $1 },
            body: Data(card.utf8))
        return (r.status, r.headers["etag"])
    }

    /// Fills the address book with `cards` (one vCard file) in one request: Radicale takes a
    /// whole book by a PUT to the collection; Xandikos gets one PUT per card.
    public func putAll(_ cards: [(uid: String, text: String)]) throws {
        switch kind {
        case .radicale:
            let r = try request(
                "PUT", addressBook, headers: ["Content-Type": "text/vcard; charset=utf-8"], body: Data(cards.map(\.text).joined().utf8))
            guard r.status < 300 else { throw Failure(description: "PUT of the whole book answered \(r.status)") }
        case .xandikos, .google, .icloud:
            for c in cards { try put("\(c.uid).vcf", c.text) }
        }
    }

    /// A CA and a certificate it signed for 127.0.0.1, made with openssl.
    private func makeCertificates() throws {
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: folder + "/ext", atomically: true, encoding: .utf8)
        for args in [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj",
                "/CN=contactsd test CA",
            ],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"],
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days",
                "2",
                "-extfile", "ext",
            ],
        ] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            p.arguments = args
            p.currentDirectoryURL = URL(fileURLWithPath: folder)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else { throw Failure(description: "openssl \(args[0]) failed") }
        }
    }

    private func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            guard process.isRunning else { throw Failure(description: "\(kind.rawValue) stopped at start: \(log)") }
            if tls {
                if Self.accepts(port) { return }
                usleep(100_000)
                continue
            }
            if let r = try? request("PROPFIND", root, headers: ["Depth": "0", "Content-Type": "application/xml"]), r.status < 500 {
                return
            }
            usleep(100_000)
        }
        throw Failure(description: "\(kind.rawValue) did not answer on port \(port) within 30 s: \(log)")
    }

    private func makeAddressBook() throws {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>
            <D:resourcetype><D:collection/><C:addressbook/></D:resourcetype><D:displayname>Contacts</D:displayname>
            </D:prop></D:set></D:mkcol>
            """
        let r = try request("MKCOL", addressBook, headers: ["Content-Type": "application/xml"], body: Data(body.utf8))
        guard r.status == 201 else { throw Failure(description: "MKCOL of the address book answered \(r.status)") }
    }

    /// Whether something listens on the loopback port.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A port free on 127.0.0.1 now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "no socket") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard bound else { throw Failure(description: "cannot find a free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

extension URL {
    /// `http://127.0.0.1:PORT` (https with `tls`) and `path`.
    fileprivate func url(port: Int, path: String, tls: Bool = false) -> URL {
        var c = URLComponents()
        c.scheme = tls ? "https" : "http"
        c.host = "127.0.0.1"
        c.port = port
        c.path = path
        return c.url ?? self
    }
}
