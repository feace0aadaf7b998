import Foundation
import XCTest

/// vdirsyncer's own CardDAV storage tests (tests/storage/dav/test_carddav.py of its 0.21.0
/// sdist, fetched by scripts/install-deps.sh) run against the real contactsd, through the
/// server fixture in Tests/peers/vdirsyncer, as vdirsyncer's CI runs them against Radicale.
final class ServeVdirsyncerSuiteTests: XCTestCase {
    func testVdirsyncersCardDAVStorageTestsPassAgainstTheServedBook() throws {
        let venv = Products.repository.appendingPathComponent(".venv").path
        let source = venv + "/src/vdirsyncer-0.21.0"
        guard FileManager.default.fileExists(atPath: source + "/tests/storage/dav/test_carddav.py"),
            FileManager.default.isExecutableFile(atPath: venv + "/bin/python")
        else { throw XCTSkip("vdirsyncer's source is not in .venv/src (scripts/install-deps.sh fetches it)") }
        let contactsd = try Products.path("contactsd")
        // A copy of its tests with the fixture beside the other servers'.
        let work = NSTemporaryDirectory() + "vdirsyncer-suite-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source + "/tests", toPath: work + "/tests")
        let server = work + "/tests/storage/servers/contactsd"
        try FileManager.default.createDirectory(atPath: server, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Products.repository.appendingPathComponent("Tests/peers/vdirsyncer/contactsd_server.py").path,
            toPath: server + "/__init__.py")
        var env = ProcessInfo.processInfo.environment
        env["CONTACTSD"] = contactsd
        env["DAV_SERVER"] = "contactsd"
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        let r = try runProgram(
            "/bin/sh",
            [
                "-c", "cd \"$0\" && exec \"$1\" -m pytest -q -rs -p no:cacheprovider -o addopts= tests/storage/dav/test_carddav.py", work,
                venv + "/bin/python",
            ], environment: env, timeout: 300)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        // 29 of its 36 pass; the others create collections, or are not for CardDAV.
        let summary = r.stdout.split(separator: "\n").last { $0.contains("passed") }.map(String.init) ?? ""
        let passed = Int(summary.split(separator: " ").first { Int($0) != nil } ?? "") ?? 0
        XCTAssertGreaterThanOrEqual(passed, 29, r.stdout)
        XCTAssertFalse(summary.contains("failed"), r.stdout)
    }
}
