/// The image formats a photo may be in. Each is recognised by its first bytes and read by its
/// own decoder, so nothing else (SVG, PDF, TIFF, ...) ever reaches one.
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

    public init(format: ImageFormat, width: Int, height: Int, orientation: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
    }

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

    /// What is checked before any decoder sees a photo: the byte limit, then an accepted
    /// format by the first bytes. Returns that format.
    public func check(_ bytes: [UInt8]) throws(ImageError) -> ImageFormat {
        guard bytes.count <= maxBytes else { throw .tooLarge("the photo is \(bytes.count) bytes; the limit is \(maxBytes)") }
        guard let format = ImageFormat.sniff(bytes) else { throw .unsupported("not a JPEG, PNG, WebP, HEIC or GIF image") }
        return format
    }
}

/// A finished thumbnail.
public struct Thumbnail: Sendable {
    public var jpeg: [UInt8]
    public var width: Int
    public var height: Int

    public init(jpeg: [UInt8], width: Int, height: Int) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
    }
}

/// What reads photos: their headers, and thumbnails of them.
public protocol ImageDecoding: Sendable {
    /// Checks a photo without decoding its pixels: an accepted format, within the byte limit,
    /// and a header whose pixel count is within the pixel limit.
    func inspect(_ bytes: [UInt8], limits: ImageLimits) throws(ImageError) -> ImageInfo
    /// A JPEG no larger than `size` on its longer side, orientation applied, square when
    /// `crop`; the photo is inspected first.
    func thumbnail(_ bytes: [UInt8], size: Int, crop: Bool, limits: ImageLimits) throws(ImageError) -> Thumbnail
}
