import BaseDirectories
import ContactsSupport
import Foundation
import XCTest

@testable import ContactsDaemon

/// The daemon's command line and configuration file, read without starting it.
final class SettingsTests: XCTestCase {
    var dir = ""
    var paths: XDGPaths { XDGPaths(environment: ["HOME": dir, "XDG_CONFIG_HOME": dir + "/config", "XDG_RUNTIME_DIR": dir + "/run"]) }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "settings-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir + "/config/contactsd", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func options(_ args: [String]) throws -> DaemonOptions {
        guard case .run(let o) = try DaemonOptions.parse(args) else { throw XCTSkip("not a run") }
        return o
    }

    func testTheCommandLineIsReadInBothSpellings() throws {
        let o = try options(["--socket", "/tmp/a.sock", "--data-dir=/tmp/d", "--log-level", "debug", "--max-connections", "8"])
        XCTAssertEqual(o.socketPath, "/tmp/a.sock")
        XCTAssertEqual(o.dataDirectory, "/tmp/d")
        XCTAssertEqual(o.logLevel, .debug)
        XCTAssertEqual(o.maxConnections, 8)
        if case .help = try DaemonOptions.parse(["--help"]) {} else { XCTFail("--help") }
        if case .version = try DaemonOptions.parse(["--version"]) {} else { XCTFail("--version") }
        XCTAssertThrowsError(try DaemonOptions.parse(["--socket"]))
        XCTAssertThrowsError(try DaemonOptions.parse(["--bogus"]))
        XCTAssertThrowsError(try DaemonOptions.parse(["--log-level", "loud"]))
    }

    func testTheFileIsReadTheCommandLineWinsAndDefaultsFillTheRest() throws {
        try #"{"maxPhotoBytes": 41943040, "logLevel": "warning", "maxConnections": 4, "defaultAccount": "cloud"}"#.write(
            toFile: dir + "/config/contactsd/config.json", atomically: true, encoding: .utf8)
        let s = try Settings.resolve(try options(["--max-connections", "9"]), paths: paths)
        XCTAssertEqual(s.maxPhotoBytes, 41_943_040, "a limit above the default is taken as given")
        XCTAssertEqual(s.logLevel, .warning)
        XCTAssertEqual(s.maxConnections, 9)
        XCTAssertEqual(s.maxPhotoPixels, 100_000_000)
        XCTAssertEqual([s.historyDays, s.historyMaxBytes], [30, 256 << 20])
        XCTAssertEqual(s.defaultAccount, "cloud")
        XCTAssertEqual(s.socketPath, dir + "/run/contactsd.sock")
        XCTAssertNil(s.cardDAVListen, "CardDAV is off until asked for")
        try #"{"carddav": {"listen": "[::1]:5232"}}"#.write(
            toFile: dir + "/config/contactsd/config.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(try Settings.resolve(DaemonOptions(), paths: paths).cardDAVListen?.description, "[::1]:5232")
        XCTAssertNil(try Settings.resolve(DaemonOptions(), paths: paths).birthdayCalendar, "no calendar is kept until asked for")
        try #"{"birthdayCalendar": "/srv/cal/birthdays/"}"#.write(
            toFile: dir + "/config/contactsd/config.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(try Settings.resolve(DaemonOptions(), paths: paths).birthdayCalendar, "/srv/cal/birthdays")
    }

    func testABrokenFileNamesTheFileTheKeyAndWhy() throws {
        let file = dir + "/config/contactsd/config.json"
        for (text, expected) in [
            (#"{"maxPhotoBytes": 12}"#, "'maxPhotoBytes'"), (#"{"historyDays": -1}"#, "'historyDays'"),
            (#"{"historyMaxBytes": 10}"#, "'historyMaxBytes'"), (#"{"logLevel": 3}"#, "'logLevel'"), ("[1]", "must hold a JSON object"),
            (#"{"defaultAccount": ""}"#, "'defaultAccount'"), (#"{"defaultRegion": "EU"}"#, "'defaultRegion' must be an ISO 3166"),
            (#"{"defaultRegion": "Germany"}"#, "'defaultRegion'"), (#"{"defaultRegion": 49}"#, "'defaultRegion'"),
            ("{", "is not valid JSON"), (#"{"colour": "blue"}"#, "'colour'"),
            (#"{"carddav": {"listen": "0.0.0.0:5232"}}"#, "'carddav' listen: '0.0.0.0' is not a loopback address"),
            (#"{"carddav": {"listen": 5232}}"#, "listen must be a string"), (#"{"carddav": {"port": 1}}"#, "has no setting 'port'"),
            (#"{"carddav": "127.0.0.1:5232"}"#, "must be an object"),
            (#"{"birthdayCalendar": "calendars/birthdays"}"#, "'birthdayCalendar' must be an absolute path"),
            (#"{"birthdayCalendar": 1}"#, "'birthdayCalendar' must be a non-empty string"),
        ] {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try Settings.resolve(DaemonOptions(), paths: paths), text) { e in
                XCTAssertTrue("\(e)".hasPrefix(file), "\(e)")
                XCTAssertTrue("\(e)".contains(expected), "\(e)")
            }
        }
        XCTAssertThrowsError(try Settings.resolve(try options(["--config", dir + "/missing.json"]), paths: paths)) { e in
            XCTAssertTrue("\(e)".contains("no such file"), "\(e)")
        }
    }

    func testThePhoneRegionComesFromTheFileElseTheLocaleElseNowhere() throws {
        let file = dir + "/config/contactsd/config.json"
        let german = ["LANG": "de_DE.UTF-8"]
        try #"{"defaultRegion": "gb"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        var s = try Settings.resolve(DaemonOptions(), paths: paths, environment: german)
        XCTAssertEqual([s.defaultRegion, s.regionSource], ["GB", "config"], "the file wins, in either case")
        try "{}".write(toFile: file, atomically: true, encoding: .utf8)
        s = try Settings.resolve(DaemonOptions(), paths: paths, environment: german)
        XCTAssertEqual([s.defaultRegion, s.regionSource], ["DE", "locale"])
        s = try Settings.resolve(DaemonOptions(), paths: paths, environment: ["LANG": "en_US.UTF-8", "LC_TELEPHONE": "fr_FR.UTF-8"])
        XCTAssertEqual(s.defaultRegion, "FR", "the telephone category over LANG")
        s = try Settings.resolve(DaemonOptions(), paths: paths, environment: ["LANG": "C.UTF-8"])
        XCTAssertNil(s.defaultRegion)
        XCTAssertNil(s.regionSource)
    }
}
