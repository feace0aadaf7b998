import Dispatch
import Glibc

/// A thumbnail on disk.
public struct CachedThumbnail: Sendable, Equatable {
    public var path: String
    public var width: Int
    public var height: Int
    public var mimeType: String { "image/jpeg" }
}

/// Thumbnails made on first request and kept under the cache directory, one file per photo,
/// size and crop: `<sha256 hex>-<size>[c].jpg`. Everything here can be made again, so files
/// are renamed into place but not synced.
public final class ThumbnailCache: Sendable {
    public let directory: String
    public let limits: ImageLimits
    /// At most this many thumbnails are decoded at once; the rest wait their turn, so a burst
    /// of requests never holds a burst of full-size images in memory.
    private let decoders: DispatchSemaphore

    public init(directory: String, limits: ImageLimits = ImageLimits(), concurrency: Int = 2) {
        self.directory = directory
        self.limits = limits
        self.decoders = DispatchSemaphore(value: max(1, concurrency))
    }

    /// The file for a photo's thumbnail, or nil when `hash` is not a sha256 content address
    /// (it names a file, so nothing else is allowed into the path).
    public func path(hash: String, size: Int, crop: Bool) -> String? {
        guard let hex = Self.hex(of: hash) else { return nil }
        return "\(directory)/\(hex)-\(size)\(crop ? "c" : "").jpg"
    }

    /// The thumbnail when it was made before.
    public func cached(hash: String, size: Int, crop: Bool) -> CachedThumbnail? {
        guard let path = path(hash: hash, size: size, crop: crop), let head = Self.readHead(path),
            let (w, h) = JPEGHeader.size(head)
        else { return nil }
        return CachedThumbnail(path: path, width: w, height: h)
    }

    /// The thumbnail, made from `photo()` when it is not cached yet.
    public func thumbnail(hash: String, size: Int, crop: Bool, photo: () throws -> [UInt8]) throws -> CachedThumbnail {
        if let hit = cached(hash: hash, size: size, crop: crop) { return hit }
        guard let path = path(hash: hash, size: size, crop: crop) else {
            throw ImageError.unsupported("'\(hash)' is not a photo's content address")
        }
        let bytes = try photo()
        decoders.wait()
        let made: Thumbnail
        do {
            made = try Images.thumbnail(bytes, size: size, crop: crop, limits: limits)
            decoders.signal()
        } catch {
            decoders.signal()
            throw error
        }
        try Self.makeDirectory(directory)
        try Self.write(path, made.jpeg)
        return CachedThumbnail(path: path, width: made.width, height: made.height)
    }

    /// Removes every thumbnail of a photo (when the photo itself is gone).
    public func purge(hash: String) {
        guard let hex = Self.hex(of: hash), let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(hex + "-") { names.append(name) }
        }
        for name in names { unlink(directory + "/" + name) }
    }

    static func hex(of hash: String) -> String? {
        let hex = hash.hasPrefix("sha256:") ? hash.dropFirst(7) : Substring(hash)
        guard hex.utf8.count == 64, hex.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        return String(hex)
    }

    /// The first 64 KiB of a file: enough for a JPEG's frame header.
    static func readHead(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return Array(buffer[0..<n])
    }

    static func makeDirectory(_ path: String) throws {
        var partial = ""
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                throw ImageError.unsupported("cannot create \(partial): \(String(cString: strerror(errno)))")
            }
        }
    }

    static func write(_ path: String, _ bytes: [UInt8]) throws {
        let tmp = path + ".tmp-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CacheError(path: path, errno: errno) }
        var ok = true
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    ok = false
                    return
                }
                offset += n
            }
        }
        let err = errno
        close(fd)
        guard ok, rename(tmp, path) == 0 else {
            let e = ok ? errno : err
            unlink(tmp)
            throw CacheError(path: path, errno: e)
        }
    }
}

/// A thumbnail that could not be written to the cache.
public struct CacheError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var errno: Int32
    public var description: String { "cannot write the thumbnail \(path): \(String(cString: strerror(errno)))" }
}

/// Reads a JPEG's pixel size from its frame header, without decoding.
public enum JPEGHeader {
    public static func size(_ b: [UInt8]) -> (width: Int, height: Int)? {
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF {
                i += 1
                continue
            }
            // Markers without a length: TEM, RSTn.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                i += 2
                continue
            }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard i + 8 < b.count else { return nil }
                let height = Int(b[i + 5]) << 8 | Int(b[i + 6])
                let width = Int(b[i + 7]) << 8 | Int(b[i + 8])
                return (width, height)
            }
            if marker == 0xDA || length < 2 { return nil }
            i += 2 + length
        }
        return nil
    }
}
