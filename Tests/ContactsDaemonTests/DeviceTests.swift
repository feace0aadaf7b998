import ContactsSupport
import Foundation
import JSONCore
import XCTest

@testable import ContactsDaemon

/// Devices of the LAN face: their passwords, the file that keeps their hashes, the setting.
final class DeviceTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "devices-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testAPasswordHasMoreThan128BitsAndIsTypedWithoutDoubt() {
        let passwords = (0..<200).map { _ in DevicePassword.make() }
        XCTAssertEqual(Set(passwords).count, passwords.count)
        for p in passwords {
            let bare = DevicePassword.normalized(p)
            XCTAssertEqual(bare.count, DevicePassword.length)
            XCTAssertTrue(bare.allSatisfy { DevicePassword.alphabet.contains($0) }, p)
            XCTAssertTrue(p.split(separator: "-").allSatisfy { $0.count == 4 }, "grouped in fours: \(p)")
        }
        XCTAssertGreaterThanOrEqual(Double(DevicePassword.length) * log2(Double(DevicePassword.alphabet.count)), 128)
        XCTAssertFalse(
            DevicePassword.alphabet.contains("0") || DevicePassword.alphabet.contains("o") || DevicePassword.alphabet.contains("l"))
        let p = passwords[0]
        XCTAssertEqual(DevicePassword.hash(p), DevicePassword.hash(p.uppercased().replacingOccurrences(of: "-", with: " ")))
        XCTAssertFalse(DevicePassword.same(DevicePassword.hash(p), DevicePassword.hash(passwords[1])))
    }

    func testTheRegistryKeepsHashesAndSignsInOnlyWithTheRightPassword() throws {
        let path = dir + "/lan/devices.json"
        let registry = try DeviceRegistry(path: path)
        let password = try registry.add("phone", books: ["local"], readOnly: true, now: 1000)
        XCTAssertEqual(registry.signIn("phone", password)?.name, "phone")
        XCTAssertNil(registry.signIn("phone", password + "x"))
        XCTAssertNil(registry.signIn("tablet", password), "an unknown name signs in as nothing")
        XCTAssertThrowsError(try registry.add("phone", books: [], readOnly: false, now: 1)) { e in
            XCTAssertEqual(e as? DeviceRegistry.Failure, .exists("phone"))
        }
        XCTAssertThrowsError(try registry.add("my:phone", books: [], readOnly: false, now: 1))
        XCTAssertThrowsError(try registry.add("", books: [], readOnly: false, now: 1))

        let file = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertFalse(file.contains(password) || file.contains(DevicePassword.normalized(password)), "only its hash is kept")
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)

        // Another start reads the same devices; a new password replaces the old at once.
        let again = try DeviceRegistry(path: path)
        XCTAssertEqual(again.devices.map(\.books), [["local"]])
        XCTAssertEqual(again.devices.first?.readOnly, true)
        XCTAssertEqual(again.signIn("phone", password)?.name, "phone", "a password given before a restart signs in after it")
        let fresh = try again.renewPassword("phone")
        XCTAssertNil(again.signIn("phone", password))
        XCTAssertNotNil(again.signIn("phone", fresh))
        again.seen("phone", from: "198.18.0.2", now: 5000)
        again.failedSignIn("phone", from: "198.18.0.2", now: 5001)
        again.flush()
        let third = try DeviceRegistry(path: path)
        XCTAssertEqual(third.devices.first?.lastSeenFrom, "198.18.0.2")
        XCTAssertEqual(third.devices.first?.failedSignIns, 1)
        XCTAssertNotNil(third.signIn("phone", fresh), "the new password, read back from the file")
        XCTAssertNil(third.signIn("phone", password))
        try third.remove("phone")
        XCTAssertThrowsError(try third.remove("phone")) { e in XCTAssertEqual(e as? DeviceRegistry.Failure, .notFound("phone")) }
        XCTAssertTrue(try DeviceRegistry(path: path).devices.isEmpty)

        try "[1, 2".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try DeviceRegistry(path: path), "a damaged list is not taken for an empty one")
    }

    func testTheLANSettingTakesAnyAddressAndAHostName() throws {
        let fail = { (m: String) in Settings.FileError(path: "config.json", key: "carddav", message: m) }
        let s = try Settings.lan(["listen": "0.0.0.0:5233", "host": "desk.example"], fail)
        XCTAssertEqual(s?.listen.description, "0.0.0.0:5233")
        XCTAssertEqual(s?.host, "desk.example")
        XCTAssertNil(try Settings.lan(nil, fail))
        for bad: JSONValue in [
            ["listen": "desk:5233"], ["listen": 5233], ["port": 1], "0.0.0.0:5233", ["listen": "0.0.0.0:5233", "host": ""],
        ] {
            XCTAssertThrowsError(try Settings.lan(bad, fail), "\(bad)")
        }
    }
}
