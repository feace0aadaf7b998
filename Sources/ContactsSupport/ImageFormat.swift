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

    /// The MIME type a vCard's `TYPE` parameter names (`JPEG`, `image/png`), upper-cased:
    /// the formats above and BMP, which some phones still send.
    public static func mimeType(vCardType t: String) -> String? {
        switch t {
        case "JPEG", "JPG": "image/jpeg"
        case "PNG": "image/png"
        case "GIF": "image/gif"
        case "WEBP": "image/webp"
        case "HEIC": "image/heic"
        case "BMP": "image/bmp"
        default: t.utf8.contains(UInt8(ascii: "/")) ? t.lowercased() : nil
        }
    }

    /// The MIME type the bytes announce, for photos that do not say.
    public static func mimeType(sniffing bytes: [UInt8]) -> String { sniff(bytes)?.mimeType ?? "application/octet-stream" }

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
