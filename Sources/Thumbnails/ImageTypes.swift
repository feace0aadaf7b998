import ContactsSupport

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
