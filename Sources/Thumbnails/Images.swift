import VipsShim

/// The image formats a photo may be in. Each is recognised by its first bytes and read by its
/// own libvips loader, so nothing else (SVG, PDF, TIFF, ...) ever reaches a decoder.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, heic, gif

    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .gif: "image/gif"
        }
    }

    var shim: cvips_format {
        switch self {
        case .jpeg: CVIPS_JPEG
        case .png: CVIPS_PNG
        case .webp: CVIPS_WEBP
        case .heic: CVIPS_HEIF
        case .gif: CVIPS_GIF
        }
    }

    /// The format the bytes announce, or nil for anything else.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        func at(_ offset: Int, _ magic: [UInt8]) -> Bool {
            bytes.count >= offset + magic.count && bytes[offset..<offset + magic.count].elementsEqual(magic)
        }
        if at(0, [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if at(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if at(0, Array("GIF87a".utf8)) || at(0, Array("GIF89a".utf8)) { return .gif }
        if at(0, Array("RIFF".utf8)) && at(8, Array("WEBPVP8".utf8)) { return .webp }
        // ISO base media: a `ftyp` box whose major brand is one of HEIF's.
        if at(4, Array("ftyp".utf8)), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif"].contains(brand) { return .heic }
        }
        return nil
    }
}

/// What a photo's header says, read without decoding its pixels.
public struct ImageInfo: Sendable, Equatable {
    public var format: ImageFormat
    /// The stored pixel size.
    public var width: Int
    public var height: Int
    /// EXIF orientation, 1 to 8.
    public var orientation: Int

    /// The size as shown, once the orientation is applied (5 to 8 turn it a quarter).
    public var displayWidth: Int { orientation >= 5 ? height : width }
    public var displayHeight: Int { orientation >= 5 ? width : height }
}

/// Why a photo was refused.
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not one of the accepted formats, or bytes that do not decode.
    case unsupported(String)
    /// More bytes or pixels than allowed.
    case tooLarge(String)

    public var description: String {
        switch self {
        case .unsupported(let m), .tooLarge(let m): m
        }
    }
}

/// The most a photo may be.
public struct ImageLimits: Sendable, Equatable {
    public var maxBytes: Int
    public var maxPixels: Int

    public init(maxBytes: Int = 20 << 20, maxPixels: Int = 100_000_000) {
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
    }
}

/// A finished thumbnail.
public struct Thumbnail: Sendable {
    public var jpeg: [UInt8]
    public var width: Int
    public var height: Int
}

/// Image bytes to a checked header and to bounded JPEG thumbnails, through libvips.
public enum Images {
    /// Checks a photo without decoding it: an accepted format, within the byte limit, and a
    /// header whose pixel count is within the pixel limit. A decompression bomb stops here.
    public static func inspect(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(ImageError) -> ImageInfo {
        guard bytes.count <= limits.maxBytes else {
            throw .tooLarge("the photo is \(bytes.count) bytes; the limit is \(limits.maxBytes)")
        }
        guard let format = ImageFormat.sniff(bytes) else {
            throw .unsupported("not a JPEG, PNG, WebP, HEIC or GIF image")
        }
        var header = cvips_header()
        let status = bytes.withUnsafeBytes { cvips_read_header($0.baseAddress, $0.count, format.shim, &header) }
        guard status == 0 else { throw .unsupported("the \(format.rawValue.uppercased()) header cannot be read: \(lastError())") }
        let pixels = Int(header.width).multipliedReportingOverflow(by: Int(header.height))
        guard header.width > 0, header.height > 0, !pixels.overflow, pixels.partialValue <= limits.maxPixels else {
            throw .tooLarge(
                "the image says it is \(header.width)×\(header.height) pixels; the limit is \(limits.maxPixels / 1_000_000) megapixels")
        }
        return ImageInfo(format: format, width: Int(header.width), height: Int(header.height), orientation: Int(max(1, header.orientation)))
    }

    /// A JPEG no larger than `size` on its longer side, orientation applied, square when
    /// `crop`. The photo is inspected first; bytes that do not decode are refused.
    public static func thumbnail(
        _ bytes: [UInt8], size: Int, crop: Bool = false, quality: Int = 82, limits: ImageLimits = ImageLimits()
    ) throws(ImageError) -> Thumbnail {
        _ = try inspect(bytes, limits: limits)
        var out: UnsafeMutableRawPointer?
        var length = 0
        var width: Int32 = 0
        var height: Int32 = 0
        let status = bytes.withUnsafeBytes {
            cvips_thumbnail($0.baseAddress, $0.count, Int32(size), crop ? 1 : 0, Int32(quality), &out, &length, &width, &height)
        }
        guard status == 0, let out else { throw .unsupported("the image cannot be decoded: \(lastError())") }
        defer { cvips_free(out) }
        let jpeg = [UInt8](UnsafeRawBufferPointer(start: out, count: length))
        return Thumbnail(jpeg: jpeg, width: Int(width), height: Int(height))
    }

    /// A synthetic photo (noise, so codecs work as hard as on a real one) for tests and
    /// benchmarks; `orientation` above 1 adds that EXIF tag to a JPEG. The same arguments
    /// give the same pixels.
    public static func synthesize(
        width: Int, height: Int, format: ImageFormat = .jpeg, orientation: Int = 1, seed: Int = 1
    ) throws(ImageError) -> [UInt8] {
        var out: UnsafeMutableRawPointer?
        var length = 0
        guard cvips_synthesize(Int32(width), Int32(height), format.shim, Int32(orientation), Int32(truncatingIfNeeded: seed), &out, &length) == 0,
            let out
        else {
            throw .unsupported("cannot make a \(format.rawValue) image: \(lastError())")
        }
        defer { cvips_free(out) }
        return [UInt8](UnsafeRawBufferPointer(start: out, count: length))
    }

    static func lastError() -> String {
        String(cString: cvips_last_error())
    }
}
