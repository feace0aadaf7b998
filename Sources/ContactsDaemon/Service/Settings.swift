import BaseDirectories
import ContactsCore
import ContactsSupport
import Foundation
import HTTPServer
import JSONCore
import PhoneNumbers

/// The daemon's effective settings: the command line over the configuration file over the
/// defaults.
public struct Settings: Sendable, Equatable {
    public var socketPath: String
    public var dataDirectory: String
    /// The drop folder; nil means `DATA/inbox`.
    public var inbox: String?
    public var logLevel: Logger.Level = .info
    public var maxLineBytes = 64 << 20
    public var maxConnections = 256
    /// Thumbnail sizes made ahead, in the background, when a photo is set.
    public var thumbnailSizes: [Int] = [64, 128, 256, 512]
    /// The largest photo accepted, in bytes and in pixels (from its header).
    public var maxPhotoBytes = 20 << 20
    public var maxPhotoPixels = 100_000_000
    /// How long the history keeps a change (0 keeps none), and how large it may grow.
    public var historyDays = 30
    public var historyMaxBytes = 256 << 20
    /// The sync account new contacts go to (`contacts.create` without an `account`).
    public var defaultAccount: String?
    /// The region numbers written without a country code are read in: `defaultRegion` of the
    /// file, else the locale's (`LC_ALL`, `LC_TELEPHONE`, `LANG`), else none.
    public var defaultRegion: String?
    /// Where `defaultRegion` came from: "config", "locale", or nil when there is none.
    public var regionSource: String?
    /// Where the store is served over CardDAV (`carddav.listen`); nil: it is not.
    public var cardDAVListen: LoopbackAddress?
    /// Where the store is served over CardDAV with TLS to devices (`carddav.lan`); nil: it is not.
    public var cardDAVLAN: LANSettings?
    /// A directory kept as a calendar of the contacts' birthdays and dates (`birthdayCalendar`);
    /// nil: none is kept.
    public var birthdayCalendar: String?
    /// The user's own addresses (`mail.me`): never collected; a message from one of them is
    /// the user's, and its recipients are written to.
    public var mailMe: [String] = []
    /// Mail folders (maildirs) whose new messages are harvested as they land (`mail.watch`).
    public var mailWatch: [String] = []

    static let lineLimitRange = 1024...(1 << 40)
    static let connectionRange = 1...65536
    static let photoBytesRange = 1024...(1 << 30)
    static let photoPixelsRange = 1...10_000_000_000
    static let historyDaysRange = 0...36500
    static let historyBytesRange = (1 << 20)...(1 << 40)

    /// Why a configuration file was refused: which file, which key, and why.
    public struct FileError: Error, CustomStringConvertible {
        public var path: String
        public var key: String?
        public var message: String
        public var description: String {
            key.map { "\(path): '\($0)' \(message)" } ?? "\(path): \(message)"
        }
    }

    /// The drop folder in force.
    public var inboxPath: String { inbox ?? dataDirectory + "/inbox" }

    public static let knownKeys = [
        "socket", "dataDir", "inbox", "logLevel", "maxLineBytes", "maxConnections", "thumbnailSizes", "maxPhotoBytes", "maxPhotoPixels",
        "historyDays", "historyMaxBytes", "defaultAccount", "defaultRegion", "carddav", "birthdayCalendar", "mail",
    ]

    /// The settings for these options, reading the configuration file if there is one.
    public static func resolve(
        _ options: DaemonOptions, paths: XDGPaths, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(FileError) -> Settings {
        var s = Settings(socketPath: paths.defaultSocket, dataDirectory: paths.dataDirectory)
        let configPath = options.configPath ?? paths.configHome + "/contactsd/config.json"
        try s.apply(fileAt: configPath, required: options.configPath != nil)
        if s.defaultRegion != nil {
            s.regionSource = "config"
        } else if let r = PhoneRegion.fromLocale(environment) {
            (s.defaultRegion, s.regionSource) = (r, "locale")
        }
        if let v = options.socketPath { s.socketPath = v }
        if let v = options.dataDirectory { s.dataDirectory = v }
        if let v = options.inbox { s.inbox = v }
        if let v = options.logLevel { s.logLevel = v }
        if let v = options.maxLineBytes { s.maxLineBytes = v }
        if let v = options.maxConnections { s.maxConnections = v }
        return s
    }

    mutating func apply(fileAt path: String, required: Bool) throws(FileError) {
        guard FileManager.default.fileExists(atPath: path) else {
            if required { throw FileError(path: path, key: nil, message: "no such file") }
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(path: path, key: nil, message: "cannot be read")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(Array(data))
        } catch {
            throw FileError(path: path, key: nil, message: "is not valid JSON: \(error)")
        }
        guard case .object(let o) = root else { throw FileError(path: path, key: nil, message: "must hold a JSON object") }
        for m in o {
            func fail(_ message: String) -> FileError { FileError(path: path, key: m.key, message: message) }
            func text() throws(FileError) -> String {
                guard let s = m.value.stringValue, !s.isEmpty else { throw fail("must be a non-empty string") }
                return s
            }
            func number(_ range: ClosedRange<Int>) throws(FileError) -> Int {
                guard let n = m.value.intValue, range.contains(n) else {
                    throw fail("must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                return n
            }
            switch m.key {
            case "socket": socketPath = try text()
            case "dataDir": dataDirectory = try text()
            case "inbox": inbox = try text()
            case "logLevel":
                guard let l = Logger.Level(name: try text()) else { throw fail("must be debug, info, notice, warning or error") }
                logLevel = l
            case "maxLineBytes": maxLineBytes = try number(Self.lineLimitRange)
            case "maxConnections": maxConnections = try number(Self.connectionRange)
            case "thumbnailSizes":
                guard let list = m.value.arrayValue, !list.isEmpty,
                    case let sizes = list.compactMap(\.intValue), sizes.count == list.count, sizes.allSatisfy({ (16...1024).contains($0) })
                else { throw fail("must be a list of sizes from 16 to 1024") }
                thumbnailSizes = sizes
            case "maxPhotoBytes": maxPhotoBytes = try number(Self.photoBytesRange)
            case "maxPhotoPixels": maxPhotoPixels = try number(Self.photoPixelsRange)
            case "historyDays": historyDays = try number(Self.historyDaysRange)
            case "historyMaxBytes": historyMaxBytes = try number(Self.historyBytesRange)
            case "defaultAccount": defaultAccount = try text()
            case "mail": (mailMe, mailWatch) = try Self.mail(m.value, fail)
            case "birthdayCalendar":
                if m.value == .null {
                    birthdayCalendar = nil
                    continue
                }
                var dir = try text()
                if dir.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] { dir = home + dir.dropFirst(1) }
                guard dir.hasPrefix("/") else {
                    throw fail("must be an absolute path (or one under ~/), such as \"~/.calendars/birthdays\"")
                }
                while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
                birthdayCalendar = dir
            case "defaultRegion":
                let code = try text().uppercased()
                guard PhoneRegion.isKnown(code) else {
                    throw fail("must be an ISO 3166 region code that has phone numbers, such as \"DE\" or \"US\"")
                }
                defaultRegion = code
            case "carddav":
                guard case .object(let c) = m.value else { throw fail("must be an object such as {\"listen\": \"127.0.0.1:5232\"}") }
                for k in c where k.key != "listen" && k.key != "lan" { throw fail("has no setting '\(k.key)' (known: listen, lan)") }
                switch c["listen"] {
                case nil, .null?: cardDAVListen = nil
                case .string(let text)?:
                    switch LoopbackAddress.parse(text) {
                    case .success(let a): cardDAVListen = a
                    case .failure(let e): throw fail("listen: \(e)")
                    }
                default: throw fail("listen must be a string such as \"127.0.0.1:5232\"")
                }
                cardDAVLAN = try Self.lan(c["lan"], fail)
            default:
                throw fail("is not a setting (known: \(Self.knownKeys.joined(separator: ", ")))")
            }
        }
    }
}

extension Settings {
    /// `mail`: `{"me": ["ADDRESS", ...], "watch": ["~/Mail/Sent", ...]}`.
    static func mail(_ value: JSONValue, _ fail: (String) -> FileError) throws(FileError) -> (me: [String], watch: [String]) {
        guard case .object(let o) = value else {
            throw fail("must be an object such as {\"me\": [\"me@example.org\"], \"watch\": [\"~/Mail/Sent\"]}")
        }
        for k in o where k.key != "me" && k.key != "watch" { throw fail("has no setting '\(k.key)' (known: me, watch)") }
        func strings(_ key: String) throws(FileError) -> [String] {
            guard let v = o[key], !v.isNull else { return [] }
            guard let list = v.arrayValue, case let s = list.compactMap(\.stringValue), s.count == list.count, !s.contains(where: \.isEmpty)
            else { throw fail("\(key) must be a list of strings") }
            return s
        }
        let me = try strings("me")
        for a in me where !a.contains("@") { throw fail("me: '\(a)' is not a mail address") }
        var watch: [String] = []
        for var dir in try strings("watch") {
            if dir.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] { dir = home + dir.dropFirst(1) }
            guard dir.hasPrefix("/") else { throw fail("watch: '\(dir)' must be an absolute path (or one under ~/)") }
            while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
            watch.append(dir)
        }
        return (me, watch)
    }

    /// `carddav.lan`: `{"listen": "ADDR:PORT", "host": "NAME"}`, or nothing.
    static func lan(_ value: JSONValue?, _ fail: (String) -> FileError) throws(FileError) -> LANSettings? {
        guard let value, !value.isNull else { return nil }
        guard case .object(let o) = value else { throw fail("lan must be an object such as {\"listen\": \"0.0.0.0:5233\"}") }
        for k in o where k.key != "listen" && k.key != "host" { throw fail("lan has no setting '\(k.key)' (known: listen, host)") }
        guard let text = o["listen"]?.stringValue else { throw fail("lan.listen must be a string such as \"0.0.0.0:5233\"") }
        let address: ListenAddress
        switch ListenAddress.parse(text) {
        case .success(let a): address = a
        case .failure(let e): throw fail("lan.listen: \(e)")
        }
        var host: String?
        switch o["host"] {
        case nil, .null?: host = nil
        case .string(let h)? where !h.isEmpty && h.count <= 253 && !h.contains("/") && !h.contains(" "): host = h
        default: throw fail("lan.host must be a host name or address")
        }
        return LANSettings(listen: address, host: host)
    }
}
