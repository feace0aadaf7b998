import ContactsCore
import ContactsSupport
import Foundation
import TestSupport
import Thumbnails
import VCard
import VipsImages
import XCTest

/// The header reader an import uses for JPEG and PNG photos, against what libvips reports.
final class ImageHeaderTests: XCTestCase {
    func testJPEGAndPNGHeadersReadAsLibvipsReadsThem() throws {
        for (width, height) in [(1, 1), (320, 200), (200, 320), (4000, 3000)] {
            for format in [ImageFormat.jpeg, .png] {
                let photo = try Images.synthesize(width: width, height: height, format: format)
                XCTAssertEqual(
                    ImageHeader.read(photo), try Images.inspect(photo, limits: ImageLimits(maxBytes: .max, maxPixels: .max)),
                    "\(format) \(width)x\(height)")
            }
        }
        for orientation in 1...8 {
            let photo = try Images.synthesize(width: 400, height: 200, orientation: orientation)
            let info = ImageHeader.read(photo)
            XCTAssertEqual(info, try Images.inspect(photo), "orientation \(orientation)")
            XCTAssertEqual(info?.orientation, orientation)
        }
        for format in [ImageFormat.gif, .webp] {
            XCTAssertNil(ImageHeader.read(try Images.synthesize(width: 30, height: 20, format: format)), "\(format) is left to the decoder")
        }
    }

    /// EXIF in either byte order, made here.
    func testHandMadeEXIFInBothByteOrders() throws {
        let plain = try Images.synthesize(width: 300, height: 100)
        for bigEndian in [true, false] {
            for orientation in [3, 6, 8, 0, 9] {
                func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
                func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
                // Two entries, the orientation second: the reader must look past the first.
                var tiff: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8) + u16(2)
                tiff += u16(0x010F) + u16(2) + u32(4) + Array("Sim\0".utf8)
                tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
                tiff += u32(0)
                let body = Array("Exif\0\0".utf8) + tiff
                let segment: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
                // In place of the EXIF segment libvips wrote (the first after the start marker).
                XCTAssertEqual(Array(plain[2..<4]), [0xFF, 0xE1])
                let replaced = 2 + (Int(plain[4]) << 8 | Int(plain[5])) + 2
                let photo = Array(plain[0..<2]) + segment + Array(plain[replaced...])
                let expected = try Images.inspect(photo)
                XCTAssertEqual(ImageHeader.read(photo), expected, "big endian \(bigEndian), orientation \(orientation)")
                XCTAssertEqual(expected.orientation, (1...8).contains(orientation) ? orientation : 1)
            }
        }
    }

    /// Cut short or with a byte changed anywhere in the header, a photo gives an answer or nil,
    /// never a crash; whatever answer it gives is libvips' when libvips reads it.
    func testDamagedHeadersNeverTrapTheReader() throws {
        let photo = try Images.synthesize(width: 640, height: 480, orientation: 6)
        let png = try Images.synthesize(width: 64, height: 48, format: .png)
        var generator = SystemRandomNumberGenerator()
        for source in [photo, png] {
            let headerLength = min(source.count, 1024)
            for cut in 0..<headerLength { _ = ImageHeader.read(Array(source[0..<cut])) }
            for _ in 0..<3000 {
                var damaged = source
                damaged[Int.random(in: 2..<headerLength, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                guard let info = ImageHeader.read(damaged), let truth = try? Images.inspect(damaged) else { continue }
                // libvips may refuse what the header reader accepts (it checks more); it never disagrees on a header both read.
                XCTAssertEqual(info, truth)
            }
        }
    }

    /// Every photo carried by the shared vCard corpus (phones, Apple, Google...).
    func testCorpusPhotosReadAsLibvipsReadsThem() throws {
        let corpus = try SharedMaterial.folder("corpus/vcard")
        guard let files = FileManager.default.enumerator(atPath: corpus.path) else { return XCTFail("cannot list \(corpus.path)") }
        var read = 0, refused = 0
        for case let file as String in files where file.hasSuffix(".vcf") {
            let data = try [UInt8](Data(contentsOf: corpus.appendingPathComponent(file)))
            for card in VCardParser.parse(data).cards {
                for p in card.all("PHOTO") {
                    guard let photo = PhotoData.decode(p), let info = ImageHeader.read(photo.bytes) else { continue }
                    guard let truth = try? Images.inspect(photo.bytes, limits: ImageLimits(maxBytes: .max, maxPixels: .max)) else {
                        refused += 1
                        continue
                    }
                    XCTAssertEqual(info, truth, file)
                    read += 1
                }
            }
        }
        print("ImageHeaderTests: \(read) corpus photos read as libvips reads them; \(refused) that libvips refuses")
        XCTAssertGreaterThan(read, 0)
    }
}
