import ContactsSupport
import Foundation
import Glibc
import TestSupport
import VipsImages
import XCTest

@testable import Thumbnails

final class ImagesTests: XCTestCase {
    func testEachFormatIsRecognisedAndInspectedWithoutDecoding() throws {
        for format in ImageFormat.allCases {
            let bytes = try Images.synthesize(width: 320, height: 200, format: format)
            XCTAssertEqual(ImageFormat.sniff(bytes), format)
            let info = try Images.inspect(bytes)
            XCTAssertEqual(info, ImageInfo(format: format, width: 320, height: 200, orientation: 1), "\(format)")
            let t = try Images.thumbnail(bytes, size: 160)
            XCTAssertEqual([t.width, t.height], [160, 100], "\(format)")
        }
    }

    func testThumbnailIsAJPEGNoLargerThanTheSizeAndNeverEnlarged() throws {
        let photo = try Images.synthesize(width: 1200, height: 800, format: .png)
        let t = try Images.thumbnail(photo, size: 256)
        XCTAssertEqual(ImageFormat.sniff(t.jpeg), .jpeg)
        XCTAssertEqual(t.width, 256)
        XCTAssertEqual(t.height, 171)
        XCTAssertEqual(ImageHeader.read(t.jpeg)?.width, 256)
        XCTAssertEqual(ImageHeader.read(t.jpeg)?.height, 171)

        let cropped = try Images.thumbnail(photo, size: 100, crop: true)
        XCTAssertEqual([cropped.width, cropped.height], [100, 100])

        let small = try Images.synthesize(width: 40, height: 30)
        let same = try Images.thumbnail(small, size: 256)
        XCTAssertEqual([same.width, same.height], [40, 30])
    }

    func testEXIFOrientationIsApplied() throws {
        // Stored 400×200 with "rotate 90° clockwise to view": shown 200×400.
        let photo = try Images.synthesize(width: 400, height: 200, format: .jpeg, orientation: 6)
        let info = try Images.inspect(photo)
        XCTAssertEqual(info.orientation, 6)
        XCTAssertEqual([info.displayWidth, info.displayHeight], [200, 400])
        let t = try Images.thumbnail(photo, size: 128)
        XCTAssertEqual([t.width, t.height], [64, 128])
    }

    func testOtherFormatsAreRefusedBeforeAnyDecoder() {
        let svg = Array("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>".utf8)
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0] + [UInt8](repeating: 0, count: 64)
        for bytes in [svg, tiff, [], Array("hello".utf8)] {
            XCTAssertThrowsError(try Images.inspect(bytes)) { error in
                guard case ImageError.unsupported(let m) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(m.contains("not a JPEG, PNG, WebP, HEIC or GIF"), m)
            }
        }
    }

    func testTruncatedJPEGIsRefused() throws {
        let photo = try Images.synthesize(width: 800, height: 600)
        let truncated = Array(photo.prefix(photo.count / 2))
        XCTAssertNoThrow(try Images.inspect(truncated), "the header alone is intact")
        XCTAssertThrowsError(try Images.thumbnail(truncated, size: 64)) { error in
            guard case ImageError.unsupported(let m) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(m.contains("cannot be decoded"), m)
        }
        let garbage = Array(photo.prefix(20)) + [UInt8](repeating: 0x5A, count: 500)
        XCTAssertThrowsError(try Images.thumbnail(garbage, size: 64))
    }

    func testAPNGBombIsRefusedFromItsHeaderWithoutDecoding() throws {
        let bomb = try PNGBomb.make(width: 15_000, height: 15_000)
        XCTAssertLessThan(bomb.count, 2_000_000, "a small file that claims 225 megapixels")
        var before = rusage()
        getrusage(RUSAGE_SELF.rawValue, &before)
        XCTAssertThrowsError(try Images.thumbnail(bomb, size: 256)) { error in
            guard case ImageError.tooLarge(let m) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(m.contains("15000×15000"), m)
        }
        var after = rusage()
        getrusage(RUSAGE_SELF.rawValue, &after)
        // The decoded bomb would need 225 MB; the peak resident size barely moves.
        XCTAssertLessThan(after.ru_maxrss - before.ru_maxrss, 50_000, "KiB")
    }

    func testByteLimitComesBeforeAnythingElse() throws {
        let photo = try Images.synthesize(width: 100, height: 100)
        XCTAssertThrowsError(try Images.inspect(photo, limits: ImageLimits(maxBytes: 100))) { error in
            guard case ImageError.tooLarge = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try Images.inspect(photo, limits: ImageLimits(maxPixels: 9_999))) { error in
            guard case ImageError.tooLarge = error else { return XCTFail("\(error)") }
        }
    }

    func testTransparentPNGIsFlattenedOntoWhite() throws {
        // A 2×2 RGBA PNG, fully transparent.
        let png = try PNGBomb.make(width: 2, height: 2, colorType: 6)
        XCTAssertEqual(try Images.inspect(png).width, 2)
        let t = try Images.thumbnail(png, size: 16)
        XCTAssertEqual(ImageFormat.sniff(t.jpeg), .jpeg)
    }

    func testCacheMakesOnceThenServesTheFile() throws {
        let dir = NSTemporaryDirectory() + "thumbs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cache = ThumbnailCache(directory: dir + "/cache/thumbnails", decoder: VipsDecoder())
        let photo = try Images.synthesize(width: 640, height: 480)
        let hash = "sha256:" + String(repeating: "ab", count: 32)
        var loads = 0
        let first = try cache.thumbnail(hash: hash, size: 128, crop: false) {
            loads += 1
            return photo
        }
        XCTAssertEqual([first.width, first.height], [128, 96])
        XCTAssertEqual(first.path, dir + "/cache/thumbnails/" + String(repeating: "ab", count: 32) + "-128.jpg")
        let again = try cache.thumbnail(hash: hash, size: 128, crop: false) {
            loads += 1
            return photo
        }
        XCTAssertEqual(again, first)
        XCTAssertEqual(loads, 1)
        var st = stat()
        XCTAssertEqual(stat(dir + "/cache/thumbnails", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)

        _ = try cache.thumbnail(hash: hash, size: 64, crop: true) { photo }
        cache.purge(hash: hash)
        XCTAssertNil(cache.cached(hash: hash, size: 128, crop: false))
        XCTAssertNil(cache.cached(hash: hash, size: 64, crop: true))

        XCTAssertNil(cache.path(hash: "sha256:../../etc/passwd", size: 1, crop: false))
        XCTAssertThrowsError(try cache.thumbnail(hash: "../x", size: 64, crop: false) { photo })
    }
}
