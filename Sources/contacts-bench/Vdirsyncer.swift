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

    /// Seconds of a first sync of the book at `url` into a new vdir under `dir`, or nil when
    /// it failed.
    static func firstSync(of url: URL, scratch dir: String, account: Account = Account()) throws -> Double? {
        let name = UUID().uuidString.prefix(8)
        let file = "\(dir)/vdirsyncer-\(name).conf"
        try prepare(file, url: url, vdir: "\(dir)/vdir-\(name)", status: "\(dir)/vdirsyncer-status-\(name)", account: account)
        let t = Date()
        guard try SyncBench.run(path, ["-c", file, "sync"]) == 0 else { return nil }
        return Date().timeIntervalSince(t)
    }
}
