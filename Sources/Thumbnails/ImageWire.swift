import ContactsSupport
import Foundation
import Glibc

/// The frames between `HelperDecoder` and `contactsd-imaging`: little-endian integers, then
/// bytes. A request: operation (1 byte), size (4), crop (1), byte limit (8), pixel limit (8),
/// the photo. A reply: status (1 byte: 0 done, 1 unsupported, 2 too large), then for a header
/// the format (1), width, height, orientation (4 each); for a thumbnail width and height (4
/// each) and the JPEG; for a refusal the message.
public enum ImageWire {
    public enum IOFailure: Error { case closed, failed }
    /// Writes a frame: its length (8 bytes, little-endian), then its bytes.
    public static func send(_ fd: Int32, _ payload: [UInt8]) throws(IOFailure) {
        var frame = ImageWire.u64(UInt64(payload.count))
        frame += payload
        var offset = 0
        while offset < frame.count {
            let n: Int
            do {
                n = try retryingSyscall("send") {
                    // offset < frame.count, so the frame is not empty and has a base address.
                    // swift-format-ignore: NeverForceUnwrap
                    frame.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                throw error.isDisconnected ? .closed : .failed
            }
            guard n > 0 else { throw .failed }
            offset += n
        }
    }
    /// Reads one frame; `limit` bounds what the other side may announce.
    public static func receiveFrame(_ fd: Int32, limit: Int = 1 << 30) throws(IOFailure) -> [UInt8] {
        let head = try receive(fd, 8)
        var reader = ImageWire.Reader(head)
        let length = Int(reader.u64() ?? 0)
        guard length <= limit else { throw .failed }
        return try receive(fd, length)
    }
    static func receive(_ fd: Int32, _ count: Int) throws(IOFailure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n: Int
            do {
                // offset < count, so the buffer is not empty and has a base address.
                // swift-format-ignore: NeverForceUnwrap
                n = try retryingSyscall("recv") { out.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + offset, count - offset, 0) } }
            } catch {
                throw error.isDisconnected ? .closed : .failed
            }
            if n == 0 { throw .closed }
            offset += n
        }
        return out
    }

    public enum Operation: UInt8 {
        case inspect = 1
        case thumbnail = 2
    }

    public struct Request {
        public var operation: Operation
        public var size: Int
        public var crop: Bool
        public var limits: ImageLimits
        public var bytes: [UInt8]
    }

    static func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func u64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    static func request(_ op: Operation, bytes: [UInt8], size: Int, crop: Bool, limits: ImageLimits) -> [UInt8] {
        var out: [UInt8] = [op.rawValue]
        out.reserveCapacity(22 + bytes.count)
        out += u32(UInt32(clamping: size))
        out.append(crop ? 1 : 0)
        out += u64(UInt64(clamping: limits.maxBytes))
        out += u64(UInt64(clamping: limits.maxPixels))
        out += bytes
        return out
    }

    /// A request as the helper reads it, or nil when the frame is not one.
    public static func parseRequest(_ frame: [UInt8]) -> Request? {
        var r = Reader(frame)
        guard let op = r.u8().flatMap(Operation.init(rawValue:)), let size = r.u32(), let crop = r.u8(), let maxBytes = r.u64(),
            let maxPixels = r.u64()
        else { return nil }
        return Request(
            operation: op, size: Int(size), crop: crop != 0,
            limits: ImageLimits(maxBytes: Int(clamping: maxBytes), maxPixels: Int(clamping: maxPixels)), bytes: r.rest())
    }

    public static func reply(_ result: Result<ImageInfo, ImageError>) -> [UInt8] {
        switch result {
        case .success(let info):
            let format = UInt8(ImageFormat.allCases.firstIndex(of: info.format) ?? 0)
            return [0, format] + u32(UInt32(clamping: info.width)) + u32(UInt32(clamping: info.height))
                + u32(UInt32(clamping: info.orientation))
        case .failure(let e): return refusal(e)
        }
    }

    public static func reply(_ result: Result<Thumbnail, ImageError>) -> [UInt8] {
        switch result {
        case .success(let t): return [0] + u32(UInt32(clamping: t.width)) + u32(UInt32(clamping: t.height)) + t.jpeg
        case .failure(let e): return refusal(e)
        }
    }

    static func refusal(_ e: ImageError) -> [UInt8] {
        switch e {
        case .unsupported(let m): [1] + Array(m.utf8)
        case .tooLarge(let m): [2] + Array(m.utf8)
        }
    }

    /// Reads little-endian integers from the front of a frame.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func u8() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func integer(_ width: Int) -> UInt64? {
            guard offset + width <= bytes.count else { return nil }
            var v: UInt64 = 0
            for k in 0..<width { v |= UInt64(bytes[offset + k]) << (8 * k) }
            offset += width
            return v
        }

        mutating func u32() -> UInt32? { integer(4).map { UInt32($0) } }
        mutating func u64() -> UInt64? { integer(8) }
        mutating func rest() -> [UInt8] {
            defer { offset = bytes.count }
            return Array(bytes[offset...])
        }

        /// The refusal a reply carries, if it is one.
        mutating func status() throws(ImageError) {
            switch u8() {
            case 0?: return
            case 1?: throw .unsupported(String(decoding: rest(), as: UTF8.self))
            case 2?: throw .tooLarge(String(decoding: rest(), as: UTF8.self))
            default: throw .unsupported("the image decoder answered nonsense")
            }
        }

        mutating func info() throws(ImageError) -> ImageInfo {
            try status()
            guard let f = u8(), Int(f) < ImageFormat.allCases.count, let w = u32(), let h = u32(), let o = u32() else {
                throw .unsupported("the image decoder answered nonsense")
            }
            return ImageInfo(format: ImageFormat.allCases[Int(f)], width: Int(w), height: Int(h), orientation: Int(o))
        }

        mutating func thumbnail() throws(ImageError) -> Thumbnail {
            try status()
            guard let w = u32(), let h = u32() else { throw .unsupported("the image decoder answered nonsense") }
            return Thumbnail(jpeg: rest(), width: Int(w), height: Int(h))
        }
    }
}
