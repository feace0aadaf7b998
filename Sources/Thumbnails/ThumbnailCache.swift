import ContactsSupport
import Dispatch
import Foundation
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
    private let currentLimits: Locked<ImageLimits>
    public let decoder: any ImageDecoding
    /// At most this many thumbnails are decoded at once; the rest wait their turn, so a burst
    /// of requests never holds a burst of full-size images in memory.
    private let decoders: DispatchSemaphore

    public init(directory: String, decoder: any ImageDecoding, limits: ImageLimits = ImageLimits(), concurrency: Int = 2) {
        self.directory = directory
        self.decoder = decoder
        self.currentLimits = Locked(limits)
        self.decoders = DispatchSemaphore(value: max(1, concurrency))
    }

    /// What a photo may be to be decoded: the configured limits, changed on reload.
    public var limits: ImageLimits {
        get { currentLimits.withLock { $0 } }
        set { currentLimits.withLock { $0 = newValue } }
    }

    /// The file for a photo's thumbnail, or nil when `hash` is not a sha256 content address
    /// (it names a file, so nothing else is allowed into the path).
    public func path(hash: String, size: Int, crop: Bool) -> String? {
        guard let hex = ContentAddress.hex(of: hash) else { return nil }
        return "\(directory)/\(hex)-\(size)\(crop ? "c" : "").jpg"
    }

    /// The thumbnail when it was made before.
    public func cached(hash: String, size: Int, crop: Bool) -> CachedThumbnail? {
        guard let path = path(hash: hash, size: size, crop: crop), let head = Self.readHead(path),
            let info = ImageHeader.read(head)
        else { return nil }
        return CachedThumbnail(path: path, width: info.displayWidth, height: info.displayHeight)
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
            made = try decoder.thumbnail(bytes, size: size, crop: crop, limits: limits)
            decoders.signal()
        } catch {
            decoders.signal()
            throw error
        }
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileIO.writeAtomically(path, made.jpeg, sync: false)
        return CachedThumbnail(path: path, width: made.width, height: made.height)
    }

    /// Removes every thumbnail of a photo (when the photo itself is gone).
    public func purge(hash: String) {
        guard let hex = ContentAddress.hex(of: hash), let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            return
        }
        for name in names where name.hasPrefix(hex + "-") { unlink(directory + "/" + name) }
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
}
