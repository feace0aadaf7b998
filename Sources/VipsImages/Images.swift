import ContactsSupport
import Glibc
import Thumbnails
import VipsShim

extension ImageFormat {
    var shim: cvips_format {
        switch self {
        case .jpeg: CVIPS_JPEG
        case .png: CVIPS_PNG
        case .webp: CVIPS_WEBP
        case .heic: CVIPS_HEIF
        case .gif: CVIPS_GIF
        }
    }
}

/// Image bytes to a checked header and to bounded JPEG thumbnails, through libvips.
public enum Images {
    /// Checks a photo without decoding it: an accepted format, within the byte limit, and a
    /// header whose pixel count is within the pixel limit. A decompression bomb stops here.
    public static func inspect(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(ImageError) -> ImageInfo {
        let format = try limits.check(bytes)
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
        guard
            cvips_synthesize(Int32(width), Int32(height), format.shim, Int32(orientation), Int32(truncatingIfNeeded: seed), &out, &length)
                == 0,
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

/// libvips in this process: for the image helper itself, tests and the benchmark. The daemon
/// never links it (see `HelperDecoder`).
public struct VipsDecoder: ImageDecoding {
    public init() {}

    public func inspect(_ bytes: [UInt8], limits: ImageLimits) throws(ImageError) -> ImageInfo {
        try Images.inspect(bytes, limits: limits)
    }

    public func thumbnail(_ bytes: [UInt8], size: Int, crop: Bool, limits: ImageLimits) throws(ImageError) -> Thumbnail {
        try Images.thumbnail(bytes, size: size, crop: crop, limits: limits)
    }
}

/// The loop of `contactsd-imaging`: frames in on standard input, one reply out on standard
/// output for each, until the daemon closes its end.
public enum ImageHelperService {
    public static func run() -> Int32 {
        // Gains no privileges through exec; ends when the daemon closes its end (below).
        cvips_confine()
        signal(SIGPIPE, SIG_IGN)
        let decoder = VipsDecoder()
        while true {
            let frame: [UInt8]
            do {
                frame = try ImageWire.receiveFrame(0)
            } catch {
                return 0  // the daemon closed its end
            }
            guard let request = ImageWire.parseRequest(frame) else { return 2 }
            let reply: [UInt8]
            switch request.operation {
            case .inspect:
                reply = ImageWire.reply(Result { () throws(ImageError) in try decoder.inspect(request.bytes, limits: request.limits) })
            case .thumbnail:
                reply = ImageWire.reply(
                    Result { () throws(ImageError) in
                        try decoder.thumbnail(request.bytes, size: request.size, crop: request.crop, limits: request.limits)
                    })
            }
            do {
                try ImageWire.send(1, reply)
            } catch {
                return 0
            }
        }
    }
}
