import Foundation

/// vdirsyncer 0.21 (from the project's `.venv`) syncing a CardDAV book into a vdir, as its
/// users run it: `discover`, then `sync`.
enum Vdirsyncer {
    static var path: String { RadicaleRun.venv + "/bin/vdirsyncer" }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Who signs in, and the certificate's SHA-256 fingerprint it pins (TLS), if any.
    struct Account {
        var username = "bench"
        var password = "x"
        var fingerprint: String?
    }

    /// A configuration pairing the book at `url` (the server wins a conflict) with an empty
    /// vdir at `vdir`, its status kept in `status`.
    static func config(url: URL, vdir: String, status: String, account: Account = Account()) -> String {
        """
        [general]
        status_path = "\(status)/"

        [pair bench]
        a = "bench_remote"
        b = "bench_local"
        collections = null
        conflict_resolution = "a wins"

        [storage bench_remote]
        type = "carddav"
        url = "\(url.absoluteString)"
        username = "\(account.username)"
        password = "\(account.password)"
        \(account.fingerprint.map { "verify_fingerprint = \"\($0)\"" } ?? "")

        [storage bench_local]
        type = "filesystem"
        path = "\(vdir)/"
        fileext = ".vcf"
        """
    }

    /// Writes the configuration to `file` and runs `discover`, answering its questions.
    static func prepare(_ file: String, url: URL, vdir: String, status: String, account: Account = Account()) throws {
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try config(url: url, vdir: vdir, status: status, account: account).write(toFile: file, atomically: true, encoding: .utf8)
        _ = try SyncBench.run(path, ["-c", file, "discover"], stdin: "y\ny\n")
    }

    /// Where the vdirs go: in memory where there is some (/dev/shm). vdirsyncer writes each
    /// card to a file of its own and fsyncs it, for whichever server it syncs from; on this
    /// machine's disk those 10k fsyncs took 0.5 s to 4 s of the client's time from one sync to
    /// the next, which then fell on one server or the other and swung their ratio.
    static var vdirPrefix: String? {
        FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm/contacts-bench-\(getpid())-" : nil
    }

    /// Seconds of a first sync of the book at `url` into a new vdir (removed after), or nil
    /// when it failed.
    static func firstSync(of url: URL, scratch dir: String, account: Account = Account()) throws -> Double? {
        let name = UUID().uuidString.prefix(8)
        let file = "\(dir)/vdirsyncer-\(name).conf"
        let prefix = vdirPrefix ?? dir + "/"
        let (vdir, status) = ("\(prefix)vdir-\(name)", "\(prefix)vdirsyncer-status-\(name)")
        defer {
            try? FileManager.default.removeItem(atPath: vdir)
            try? FileManager.default.removeItem(atPath: status)
        }
        try prepare(file, url: url, vdir: vdir, status: status, account: account)
        let t = Date()
        guard try SyncBench.run(path, ["-c", file, "sync"]) == 0 else { return nil }
        return Date().timeIntervalSince(t)
    }
}
