import ContactsSupport

/// The size and EXIF orientation of a JPEG or PNG, read from its header by this process,
/// as libvips reports them. An import records the size of every photo it stores; phones send
/// JPEGs, and this spares the image helper a round trip (and, at the start of an import, its
/// start) for each. Anything else, or anything unusual in a header, gives nil: the helper,
/// which decodes, answers then.
public enum ImageHeader {
    public static func read(_ bytes: [UInt8]) -> ImageInfo? {
        switch ImageFormat.sniff(bytes) {
        case .jpeg?: jpeg(bytes)
        case .png?: png(bytes)
        default: nil
        }
    }

    @inline(__always) private static func u16(_ b: [UInt8], _ i: Int, bigEndian: Bool = true) -> Int {
        bigEndian ? Int(b[i]) << 8 | Int(b[i + 1]) : Int(b[i + 1]) << 8 | Int(b[i])
    }

    @inline(__always) private static func u32(_ b: [UInt8], _ i: Int, bigEndian: Bool = true) -> Int {
        bigEndian ? u16(b, i) << 16 | u16(b, i + 2) : u16(b, i + 2, bigEndian: false) << 16 | u16(b, i, bigEndian: false)
    }

    /// The frame header's size, and the orientation of the one EXIF segment if there is one,
    /// from the segments before the first scan.
    static func jpeg(_ b: [UInt8]) -> ImageInfo? {
        var i = 2
        var size: (width: Int, height: Int)?
        var orientation: Int?
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF {
                i += 1  // fill byte
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                i += 2  // no length
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }  // the first scan, or the end
            let length = u16(b, i + 2)
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let body = (i + 4)..<(i + 2 + length)
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                // Start of frame: precision, height, width.
                guard size == nil, body.count >= 5 else { return nil }
                let height = u16(b, body.lowerBound + 1), width = u16(b, body.lowerBound + 3)
                guard width > 0, height > 0 else { return nil }  // a height given later (DNL)
                size = (width, height)
            case 0xE1 where body.count >= 6 && b[body.lowerBound..<(body.lowerBound + 6)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]):
                guard orientation == nil, let o = exifOrientation(b, tiff: body.lowerBound + 6, end: body.upperBound) else { return nil }
                orientation = o
            default:
                break
            }
            i += 2 + length
        }
        guard let size else { return nil }
        return ImageInfo(format: .jpeg, width: size.width, height: size.height, orientation: orientation ?? 1)
    }

    /// The Orientation tag of IFD0 in the TIFF structure at `tiff`: 1 when it is absent or out
    /// of range (as libvips takes it); nil when the structure does not hold together.
    static func exifOrientation(_ b: [UInt8], tiff: Int, end: Int) -> Int? {
        guard end - tiff >= 8 else { return nil }
        let bigEndian: Bool
        switch (b[tiff], b[tiff + 1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        guard u16(b, tiff + 2, bigEndian: bigEndian) == 42 else { return nil }
        let ifd = tiff + u32(b, tiff + 4, bigEndian: bigEndian)
        guard ifd >= tiff + 8, ifd + 2 <= end else { return nil }
        let count = u16(b, ifd, bigEndian: bigEndian)
        guard ifd + 2 + count * 12 <= end else { return nil }
        for k in 0..<count {
            let entry = ifd + 2 + k * 12
            guard u16(b, entry, bigEndian: bigEndian) == 0x0112 else { continue }
            // A SHORT, one of them, kept in the entry itself.
            guard u16(b, entry + 2, bigEndian: bigEndian) == 3, u32(b, entry + 4, bigEndian: bigEndian) == 1 else { return nil }
            let value = u16(b, entry + 8, bigEndian: bigEndian)
            return (1...8).contains(value) ? value : 1
        }
        return 1
    }

    /// IHDR's size; a PNG with an eXIf chunk (which may turn it) is left to the decoder.
    static func png(_ b: [UInt8]) -> ImageInfo? {
        guard b.count >= 33, u32(b, 8) == 13, b[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        let width = u32(b, 16), height = u32(b, 20)
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else { return nil }
        var i = 33
        while i + 8 <= b.count {
            let length = u32(b, i)
            let type = b[(i + 4)..<(i + 8)]
            if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { break }
            if type.elementsEqual("eXIf".utf8) { return nil }
            guard length <= b.count else { return nil }
            i += 12 + length
        }
        return ImageInfo(format: .png, width: width, height: height, orientation: 1)
    }
}
