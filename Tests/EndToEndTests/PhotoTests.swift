import ContactsCore
import ContactsSupport
import Foundation
import Glibc
import JSONCore
import JSONRPC
import TestSupport
import Thumbnails
import VipsImages
import XCTest

/// Photos and thumbnails through the real daemon: stored once by content, checked before
/// they are kept, thumbnails cached, photos carried through vCards and backups.
final class PhotoTests: DaemonTestCase {
    var c: RPCClient!

    override func setUpWithError() throws {
        try super.setUpWithError()
        c = try daemon.client()
    }

    func create(_ name: String) throws -> String {
        try c.call("contacts.create", ["contact": ["name": .string(name)]])["id"]?.stringValue ?? ""
    }

    func setPhoto(_ id: String, _ bytes: [UInt8]) throws -> JSONValue {
        try c.call("contacts.setPhoto", ["id": .string(id), "data": .string(Data(bytes).base64EncodedString())])
    }

    func errorCode(_ method: String, _ params: JSONObject) -> Int {
        do {
            _ = try c.call(method, params)
            return 0
        } catch let e as RPCError {
            return e.code.rawValue
        } catch {
            return -1
        }
    }

    func photoFile(_ hash: String) -> String {
        let hex = String(hash.dropFirst(7))
        return daemon.dataDir + "/photos/" + hex.prefix(2) + "/" + hex
    }

    func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    func testASetPhotoIsStoredByContentAndItsThumbnailIsMadeOnceThenServedFromTheCache() throws {
        let id = try create("Kate Bell")
        let jpeg = try Images.synthesize(width: 640, height: 480)
        let contact = try setPhoto(id, jpeg)
        let photo = contact["photo"]
        let hash = "sha256:" + SHA256.hex(jpeg)
        XCTAssertEqual(photo?["hash"]?.stringValue, hash)
        XCTAssertEqual(photo?["mimeType"]?.stringValue, "image/jpeg")
        XCTAssertEqual(photo?["width"]?.intValue, 640)
        XCTAssertEqual(photo?["height"]?.intValue, 480)
        XCTAssertEqual(contact["revision"]?.intValue, 2)
        // The photo was decoded by the helper: the daemon itself never maps libvips.
        let maps = try daemon.mappedFiles()
        XCTAssertTrue(maps.contains("libsqlite3"), "the maps are read whole")
        XCTAssertFalse(maps.contains("libvips"), "contactsd maps libvips")

        XCTAssertEqual(read(photoFile(hash)), jpeg, "the original bytes, stored under their hash")
        var st = stat()
        XCTAssertEqual(stat(photoFile(hash), &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)

        let t = try c.call("contacts.thumbnail", ["id": .string(id)])
        XCTAssertEqual(t["mimeType"]?.stringValue, "image/jpeg")
        XCTAssertEqual(t["width"]?.intValue, 256)
        XCTAssertEqual(t["height"]?.intValue, 192)
        let path = try XCTUnwrap(t["path"]?.stringValue)
        XCTAssertTrue(path.hasPrefix(daemon.home + "/cache/contactsd/thumbnails/"), path)
        let thumb = try XCTUnwrap(read(path))
        XCTAssertEqual(ImageFormat.sniff(thumb), .jpeg)
        XCTAssertEqual(ImageHeader.read(thumb)?.width, 256)

        // Cached: the same file, not made again.
        var before = stat()
        stat(path, &before)
        let again = try c.call("contacts.thumbnail", ["id": .string(id), "size": 256, "inline": true])
        XCTAssertEqual(again["path"]?.stringValue, path)
        var after = stat()
        stat(path, &after)
        XCTAssertEqual(before.st_ino, after.st_ino)
        XCTAssertEqual(again["data"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) }, thumb)

        let small = try c.call("contacts.thumbnail", ["id": .string(id), "size": 64, "crop": true])
        XCTAssertEqual([small["width"]?.intValue, small["height"]?.intValue], [64, 64])
        XCTAssertNotEqual(small["path"]?.stringValue, path)

        // A photo set through the API goes out in vCards too, and comes back unchanged.
        let card = try XCTUnwrap(try c.call("contacts.export", ["format": "vcard4"])["data"]?.stringValue)
        XCTAssertTrue(
            card.replacingOccurrences(of: "\r\n ", with: "").contains("PHOTO:data:image/jpeg;base64," + Data(jpeg).base64EncodedString()))
        XCTAssertEqual(try c.call("contacts.import", ["vcard": .string(card)])["unchanged"]?.intValue, 1)
    }

    /// With history kept, the history is a reference too (the store's tests cover that);
    /// here the daemon keeps none, and the last contact is the last reference.
    func keepNoHistory() throws {
        let config = daemon.home + "/config/contactsd/config.json"
        try FileManager.default.createDirectory(atPath: daemon.home + "/config/contactsd", withIntermediateDirectories: true)
        try #"{"historyDays": 0}"#.write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.process!.processIdentifier, SIGHUP)
        XCTAssertTrue(daemon.notify?.wait(for: "READY=1", count: 2) ?? false)
    }

    func testTheSamePhotoOnTwoContactsIsOneFileRemovedWithTheLastReference() throws {
        try keepNoHistory()
        let a = try create("Anna Haro")
        let b = try create("Daniel Higgins")
        let png = try Images.synthesize(width: 300, height: 300, format: .png)
        let hash = "sha256:" + SHA256.hex(png)
        _ = try setPhoto(a, png)
        _ = try setPhoto(b, png)
        let dir = photoFile(hash).components(separatedBy: "/").dropLast().joined(separator: "/")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [String(hash.dropFirst(7))])
        let thumb = try XCTUnwrap(try c.call("contacts.thumbnail", ["id": .string(a)])["path"]?.stringValue)

        let removed = try c.call("contacts.removePhoto", ["id": .string(a)])
        XCTAssertEqual(removed["photo"], .null)
        XCTAssertNotNil(read(photoFile(hash)), "still Daniel's photo")
        XCTAssertEqual(errorCode("contacts.thumbnail", ["id": .string(a)]), -32001)
        XCTAssertEqual(try c.call("contacts.thumbnail", ["id": .string(b)])["path"]?.stringValue, thumb)

        _ = try c.call("contacts.delete", ["ids": [.string(b)]])
        XCTAssertNotNil(read(photoFile(hash)), "the trash still refers to it")
        XCTAssertEqual(try c.call("contacts.purge", ["ids": [.string(b)]])["purged"], 1)
        XCTAssertNil(read(photoFile(hash)), "nobody refers to it any more")
        XCTAssertNil(read(thumb), "its thumbnails went with it")
    }

    func testAnEXIFRotatedPhotoIsShownUpright() throws {
        let id = try create("Rotated")
        // Stored 400×200, tagged "turn 90° clockwise to view".
        let jpeg = try Images.synthesize(width: 400, height: 200, format: .jpeg, orientation: 6)
        let contact = try setPhoto(id, jpeg)
        XCTAssertEqual([contact["photo"]?["width"]?.intValue, contact["photo"]?["height"]?.intValue], [200, 400])
        let t = try c.call("contacts.thumbnail", ["id": .string(id), "size": 128])
        XCTAssertEqual([t["width"]?.intValue, t["height"]?.intValue], [64, 128])
        let file = try XCTUnwrap(read(try XCTUnwrap(t["path"]?.stringValue)))
        XCTAssertEqual(ImageHeader.read(file)?.width, 64, "the pixels are turned, not just tagged")
    }

    func testEveryAcceptedFormatFromAPathAndCarefulPathHandling() throws {
        let id = try create("Paths")
        for format in [ImageFormat.png, .webp, .heic, .gif] {
            let bytes = try Images.synthesize(width: 90, height: 60, format: format)
            let path = daemon.home + "/photo." + format.rawValue
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            let contact = try c.call("contacts.setPhoto", ["id": .string(id), "path": .string(path)])
            XCTAssertEqual(contact["photo"]?["mimeType"]?.stringValue, format.mimeType)
            XCTAssertEqual(contact["photo"]?["hash"]?.stringValue, "sha256:" + SHA256.hex(bytes))
            let t = try c.call("contacts.thumbnail", ["id": .string(id)])
            XCTAssertEqual([t["width"]?.intValue, t["height"]?.intValue], [90, 60], "never enlarged")
        }
        let link = daemon.home + "/link.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: daemon.home + "/photo.png")
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "path": .string(link)]), -32003)
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "path": .string(daemon.home)]), -32003)
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "path": "relative.png"]), -32003)
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "path": "/dev/zero"]), -32003)
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id)]), -32602)
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "data": "", "path": "/x"]), -32602)
        XCTAssertEqual(errorCode("contacts.thumbnail", ["id": .string(id), "size": 8]), -32602)
        XCTAssertEqual(errorCode("contacts.thumbnail", ["id": .string(id), "size": 2048]), -32602)
        XCTAssertEqual(errorCode("contacts.thumbnail", ["id": "nope"]), -32001)
        XCTAssertEqual(
            errorCode(
                "contacts.setPhoto",
                ["id": "nope", "data": .string(Data(try Images.synthesize(width: 8, height: 8)).base64EncodedString())]), -32001)
    }

    func testHostileImagesAreRefusedAndTheContactKeepsItsPhoto() throws {
        let id = try create("Careful")
        let good = try Images.synthesize(width: 64, height: 64)
        let hash = try setPhoto(id, good)["photo"]?["hash"]
        let big = try Images.synthesize(width: 1600, height: 1200)
        let truncated = Array(big.prefix(big.count / 3))
        let bomb = try PNGBomb.make(width: 12_000, height: 12_000)
        let cases: [(String, [UInt8], Int)] = [
            ("truncated JPEG", truncated, -32005),
            ("PNG bomb", bomb, -32004),
            ("SVG", Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8), -32005),
            ("random bytes", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }, -32005),
            ("JPEG header, then junk", Array(good.prefix(30)) + [UInt8](repeating: 0x41, count: 2000), -32005),
        ]
        for (what, bytes, expected) in cases {
            XCTAssertEqual(
                errorCode("contacts.setPhoto", ["id": .string(id), "data": .string(Data(bytes).base64EncodedString())]), expected, what)
            let now = try c.call("contacts.get", ["id": .string(id)])
            XCTAssertEqual(now["photo"]?["hash"], hash, what)
            XCTAssertEqual(now["revision"]?.intValue, 2, what)
        }
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "data": "@@not base64@@"]), -32602)
        let photos = try FileManager.default.subpathsOfDirectory(atPath: daemon.dataDir + "/photos").filter { $0.count > 3 }
        XCTAssertEqual(photos.count, 1, "nothing refused was stored: \(photos)")
        XCTAssertTrue(daemon.process?.isRunning ?? false)
    }

    func testAPhotoInAVCardIsStoredAndExportedWithIdenticalBytes() throws {
        try keepNoHistory()
        let jpeg = try Images.synthesize(width: 200, height: 100)
        let base64 = Data(jpeg).base64EncodedString()
        var folded = ""
        var rest = Substring(base64)
        while !rest.isEmpty {
            folded += "\r\n " + rest.prefix(72)
            rest = rest.dropFirst(72)
        }
        let card =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Appleseed;John\r\nFN:John Appleseed\r\nUID:photo-1\r\nPHOTO;ENCODING=BASE64;JPEG:" + folded
            + "\r\n\r\nX-CUSTOM;X-A=1:kept\r\nEND:VCARD\r\n"
        let report = try c.call("contacts.import", ["vcard": .string(card)])
        XCTAssertEqual(report["created"]?.intValue, 1)
        let id = try XCTUnwrap(try c.call("contacts.query", ["text": "Appleseed"])["contacts"]?.arrayValue?.first?["id"]?.stringValue)
        let contact = try c.call("contacts.get", ["id": .string(id)])
        let hash = "sha256:" + SHA256.hex(jpeg)
        XCTAssertEqual(contact["photo"]?["hash"]?.stringValue, hash)
        XCTAssertEqual(contact["photo"]?["width"]?.intValue, 200)
        XCTAssertEqual(read(photoFile(hash)), jpeg)
        XCTAssertFalse(
            try String(contentsOfFile: daemon.dataDir + "/contacts.sqlite3", encoding: .isoLatin1).contains(String(base64.prefix(40))),
            "the bytes live in the photo file, not inside the database")
        XCTAssertEqual(try c.call("contacts.thumbnail", ["id": .string(id), "size": 100])["width"]?.intValue, 100)

        for (format, marker) in [("vcard3", "PHOTO;TYPE=JPEG;ENCODING=b:"), ("vcard4", "PHOTO:data:image/jpeg;base64,")] {
            let data = try XCTUnwrap(try c.call("contacts.export", ["format": .string(format)])["data"]?.stringValue)
            let unfolded = data.replacingOccurrences(of: "\r\n ", with: "")
            XCTAssertTrue(unfolded.contains(marker + base64), "\(format): \(unfolded.prefix(300))")
            XCTAssertTrue(unfolded.contains("X-CUSTOM;X-A=1:kept"), format)
            let again = try c.call("contacts.import", ["vcard": .string(data)])
            XCTAssertEqual(again["unchanged"]?.intValue, 1, "\(format): \(again)")
        }

        // A changed photo in a later card replaces the old one, whose file goes.
        let other = try Images.synthesize(width: 50, height: 50, format: .png)
        let card2 =
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:John Appleseed\r\nUID:photo-1\r\nPHOTO:data:image/png;base64,"
            + Data(other).base64EncodedString() + "\r\nEND:VCARD\r\n"
        XCTAssertEqual(try c.call("contacts.import", ["vcard": .string(card2)])["updated"]?.intValue, 1)
        XCTAssertNil(read(photoFile(hash)))
        XCTAssertEqual(read(photoFile("sha256:" + SHA256.hex(other))), other)
    }

    func testAnUndecodablePhotoInAVCardIsKeptAndGoesBackOut() throws {
        let junk = [UInt8]((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let base64 = Data(junk).base64EncodedString()
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Odd Photo\r\nUID:odd-1\r\nPHOTO;ENCODING=b;TYPE=JPEG:" + base64 + "\r\nEND:VCARD\r\n"
        _ = try c.call("contacts.import", ["vcard": .string(card)])
        let id = try XCTUnwrap(try c.call("contacts.query", ["text": "odd photo"])["contacts"]?.arrayValue?.first?["id"]?.stringValue)
        XCTAssertEqual(errorCode("contacts.thumbnail", ["id": .string(id)]), -32005)
        let data = try XCTUnwrap(try c.call("contacts.export", ["format": "vcard3"])["data"]?.stringValue)
        XCTAssertTrue(data.replacingOccurrences(of: "\r\n ", with: "").contains(base64))
    }

    func testBackupCarriesPhotosAndRestoreBringsThemBack() throws {
        let id = try create("Backed Up")
        let jpeg = try Images.synthesize(width: 120, height: 80)
        let hash = "sha256:" + SHA256.hex(jpeg)
        _ = try setPhoto(id, jpeg)
        let backup = daemon.home + "/backup.sqlite3"
        XCTAssertEqual(try c.call("contacts.backup", ["path": .string(backup)])["contacts"]?.intValue, 1)

        _ = try c.call("contacts.delete", ["ids": [.string(id)]])
        _ = try c.call("contacts.purge", ["all": true])
        XCTAssertNil(read(photoFile(hash)))
        XCTAssertEqual(try c.call("contacts.restore", ["path": .string(backup)])["contacts"]?.intValue, 1)
        XCTAssertEqual(read(photoFile(hash)), jpeg)
        XCTAssertEqual(try c.call("contacts.get", ["id": .string(id)])["photo"]?["hash"]?.stringValue, hash)
        XCTAssertEqual(try c.call("contacts.thumbnail", ["id": .string(id), "size": 60])["width"]?.intValue, 60)
    }

    func testLimitsComeFromTheConfigurationAndChangeOnReload() throws {
        let id = try create("Limited")
        let photo = try Images.synthesize(width: 200, height: 200)
        let config = daemon.home + "/config/contactsd/config.json"
        try FileManager.default.createDirectory(atPath: daemon.home + "/config/contactsd", withIntermediateDirectories: true)
        try #"{"maxPhotoBytes": 2048, "maxPhotoPixels": 1000000}"#.write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.process!.processIdentifier, SIGHUP)
        XCTAssertTrue(daemon.notify?.wait(for: "READY=1", count: 2) ?? false)
        XCTAssertGreaterThan(photo.count, 2048)
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "data": .string(Data(photo).base64EncodedString())]), -32004)
        let path = daemon.home + "/p.jpg"
        _ = FileManager.default.createFile(atPath: path, contents: Data(photo))
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "path": .string(path)]), -32004)

        try #"{"maxPhotoPixels": 30000}"#.write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.process!.processIdentifier, SIGHUP)
        XCTAssertTrue(daemon.notify?.wait(for: "READY=1", count: 3) ?? false)
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "path": .string(path)]), -32004, "200×200 is over 30000 pixels")
        try #"{}"#.write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.process!.processIdentifier, SIGHUP)
        XCTAssertTrue(daemon.notify?.wait(for: "READY=1", count: 4) ?? false)
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "path": .string(path)]), 0)
    }

    func testALimitRaisedAboveTheDefaultIsHonouredForThePhotoAndItsThumbnails() throws {
        let id = try create("Raised")
        // Noise barely compresses: a PNG over the default 20 MiB.
        let photo = try Images.synthesize(width: 5000, height: 4000, format: .png)
        XCTAssertGreaterThan(photo.count, 20 << 20)
        let path = daemon.home + "/big.png"
        _ = FileManager.default.createFile(atPath: path, contents: Data(photo))
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "path": .string(path)]), -32004, "over the default limit")
        let config = daemon.home + "/config/contactsd/config.json"
        try FileManager.default.createDirectory(atPath: daemon.home + "/config/contactsd", withIntermediateDirectories: true)
        try #"{"maxPhotoBytes": 41943040}"#.write(toFile: config, atomically: true, encoding: .utf8)
        kill(daemon.process!.processIdentifier, SIGHUP)
        XCTAssertTrue(daemon.notify?.wait(for: "READY=1", count: 2) ?? false)
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(id), "path": .string(path)]), 0, "raised on reload")
        XCTAssertEqual(try c.call("contacts.thumbnail", ["id": .string(id), "size": 100])["width"]?.intValue, 100)

        // The same limit read at start.
        daemon.stop()
        try daemon.start()
        c = try daemon.client()
        let other = try create("Raised at start")
        XCTAssertEqual(errorCode("contacts.setPhoto", ["id": .string(other), "path": .string(path)]), 0)
    }

    func testAThumbnailInTheMakingDoesNotHoldUpOtherClients() throws {
        let id = try create("Large")
        _ = try setPhoto(id, try Images.synthesize(width: 4000, height: 3000))
        let slow = try daemon.client()
        // A size nobody asked for yet: decoded from the full photo.
        try slow.send(["jsonrpc": "2.0", "method": "contacts.thumbnail", "params": ["id": .string(id), "size": 1000], "id": 1])
        var answered = 0
        for _ in 0..<5 {
            if (try? c.call("contacts.get", ["id": .string(id)]))?["name"] == "Large" { answered += 1 }
        }
        XCTAssertEqual(answered, 5)
        var p = pollfd(fd: slow.descriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 0), 0, "the other client was answered while the thumbnail was still being made")
        let reply = try slow.readMessage()
        XCTAssertEqual(reply["result"]?["width"]?.intValue, 1000)
    }

    func testAnOrphanedPhotoFileIsRemovedAtTheNextStart() throws {
        let orphan = try Images.synthesize(width: 10, height: 10)
        let path = photoFile("sha256:" + SHA256.hex(orphan))
        try FileManager.default.createDirectory(
            atPath: path.components(separatedBy: "/").dropLast().joined(separator: "/"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(orphan))
        let leftover = daemon.dataDir + "/photos/" + "ab/" + String(repeating: "ab", count: 32) + ".tmp-1-2"
        try FileManager.default.createDirectory(atPath: daemon.dataDir + "/photos/ab", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: leftover, contents: Data([1, 2, 3]))
        daemon.stop()
        try daemon.start(keepLog: true)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && (read(path) != nil || read(leftover) != nil) { usleep(20_000) }
        XCTAssertNil(read(path))
        XCTAssertNil(read(leftover))
    }
}

/// `contactsctl photo` against a real daemon.
final class PhotoCLITests: DaemonTestCase {
    func testPhotoSetGetAndRemoveFromTheCommandLine() throws {
        XCTAssertEqual(try daemon.ctl("add", "Kate Bell").status, 0)
        let jpeg = try Images.synthesize(width: 640, height: 480, format: .jpeg, orientation: 6)
        let file = daemon.home + "/kate.jpg"
        _ = FileManager.default.createFile(atPath: file, contents: Data(jpeg))

        let set = try daemon.ctl("photo", "set", "kate", file)
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdout, "Photo of Kate Bell set (JPEG, 480×640)\n")
        let shown = try daemon.ctl("show", "kate").stdout
        XCTAssertTrue(shown.contains("JPEG 480×640 (contactsctl photo get)"), shown)

        let path = try daemon.ctl("photo", "get", "kate", "--size", "100")
        XCTAssertEqual(path.status, 0, path.stderr)
        let thumbPath = path.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(thumbPath.hasPrefix(daemon.home + "/cache/contactsd/thumbnails/") && thumbPath.hasSuffix("-100.jpg"), thumbPath)

        let out = daemon.home + "/thumb.jpg"
        let cropped = try daemon.ctl("photo", "get", "kate", "--size", "64", "--crop", "-o", out)
        XCTAssertEqual(cropped.status, 0, cropped.stderr)
        let thumb = try XCTUnwrap(FileManager.default.contents(atPath: out).map { [UInt8]($0) })
        XCTAssertEqual(ImageHeader.read(thumb)?.width, 64)
        XCTAssertEqual(ImageHeader.read(thumb)?.height, 64)

        let json = try JSONParser.parse(try daemon.ctl("photo", "get", "kate", "--json").stdout)
        XCTAssertEqual(json["width"]?.intValue, 192)
        XCTAssertEqual(json["height"]?.intValue, 256)

        let bad = daemon.home + "/notes.txt"
        _ = FileManager.default.createFile(atPath: bad, contents: Data("just text".utf8))
        let refused = try daemon.ctl("photo", "set", "kate", bad)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("not a JPEG, PNG, WebP, HEIC or GIF"), refused.stderr)
        XCTAssertEqual(try daemon.ctl("photo", "get", "kate", "--size", "5").status, 64)

        XCTAssertEqual(try daemon.ctl("photo", "rm", "kate").status, 0)
        let none = try daemon.ctl("photo", "get", "kate")
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("has no photo"), none.stderr)
    }
}
