import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real CardDAV server on 127.0.0.1 for a test: Radicale or Xandikos from the project's
/// virtual environment (`scripts/install-deps.sh` makes it), with a storage folder of its own,
/// started on a free port and stopped by its pid. Each has one address book for the user
/// `kate` (password `secret`; Xandikos takes any).
public final class DAVServer: @unchecked Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case radicale, xandikos
    }

    public let kind: Kind
    public let port: Int
    public let folder: String
    public let user = "kate"
    public let password = "secret"
    private let process: Process

    /// The server's root.
    public var root: URL { URL(fileURLWithPath: "/").url(port: port, path: "/") }

    /// The address book's URL.
    public var addressBook: URL {
        switch kind {
        case .radicale: root.url(port: port, path: "/kate/contacts/")
        case .xandikos: root.url(port: port, path: "/user/contacts/addressbook/")
        }
    }

    /// `.venv` at the repository's root, as the install script makes it.
    public static var venv: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".venv")
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    public init(_ kind: Kind) throws {
        self.kind = kind
        let program = Self.venv.appendingPathComponent("bin/\(kind.rawValue)").path
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
        case .xandikos:
            process.arguments = ["--defaults", "-d", folder + "/data", "-l", "127.0.0.1", "-p", String(port)]
        }
        FileManager.default.createFile(atPath: folder + "/server.log", contents: nil)
        let log = FileHandle(forWritingAtPath: folder + "/server.log")
        process.standardOutput = log
        process.standardError = log
        try process.run()
        do {
            try waitUntilListening()
            if kind == .radicale { try makeAddressBook() }
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
        case .xandikos:
            for c in cards { try put("\(c.uid).vcf", c.text) }
        }
    }

    private func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            guard process.isRunning else { throw Failure(description: "\(kind.rawValue) stopped at start: \(log)") }
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

    private static func freePort() throws -> Int {
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
    /// `http://127.0.0.1:PORT` and `path`.
    fileprivate func url(port: Int, path: String) -> URL {
        var c = URLComponents()
        c.scheme = "http"
        c.host = "127.0.0.1"
        c.port = port
        c.path = path
        return c.url ?? self
    }
}
