import CardDAV
import Foundation
import TestSupport
import XCTest

/// RFC 6764 discovery through the C library's real resolver, asking a DNS server of the
/// tests' own (`Tests/fakes/dns_fake.py`) on 127.0.0.1.
final class ServiceLocatorTests: XCTestCase {
    func testAnEmailDomainLeadsToItsServiceRecord() throws {
        let dir = NSTemporaryDirectory() + "dns-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
        {"_carddavs._tcp.example.test": {"srv": [[20, 0, 9443, "backup.example.test"], [10, 5, 8443, "dav.example.test"],
                                                 [10, 60, 8444, "dav2.example.test"]],
                                         "txt": ["other=1", "path=/remote.php/dav"]},
         "_carddavs._tcp.bare.test": {"srv": [[0, 0, 443, "bare.test"]]},
         "_carddavs._tcp.none.test": {"srv": [[0, 0, 0, "."]]}}
        """.write(toFile: dir + "/records.json", atomically: true, encoding: .utf8)
        let port = try DAVServer.freePort()
        let server = Process()
        server.executableURL = DAVServer.venv.appendingPathComponent("bin/python3")
        server.arguments = [
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("fakes/dns_fake.py").path,
            String(port), dir + "/records.json",
        ]
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let locator = ServiceLocator(nameServer: ("127.0.0.1", port))
        var found: URL?
        for _ in 0..<50 where found == nil {
            found = locator.carddavURL(for: "example.test")
            if found == nil { usleep(100_000) }
        }
        XCTAssertEqual(found?.absoluteString, "https://dav2.example.test:8444/remote.php/dav", "lowest priority, then most weight")
        XCTAssertEqual(locator.carddavURL(for: "bare.test")?.absoluteString, "https://bare.test/")
        XCTAssertNil(locator.carddavURL(for: "none.test"), "'.' says there is no service")
        XCTAssertNil(locator.carddavURL(for: "unknown.test"))
        XCTAssertEqual(
            try Discovery.startURL("kate@example.test", locator: locator).absoluteString, "https://dav2.example.test:8444/remote.php/dav")
        XCTAssertEqual(try Discovery.startURL("kate@unknown.test", locator: locator).absoluteString, "https://unknown.test/")
        XCTAssertEqual(
            try Discovery.startURL("https://cloud.example.test/dav/", locator: locator).absoluteString, "https://cloud.example.test/dav/")
    }
}
