import ContactsAPI
import ContactsCore
import ContactsStore
import ContactsSupport
import Dispatch
import Foundation
import JSONCore
import JSONRPC
import Thumbnails

/// What decodes photos for the daemon: the `contactsd-imaging` helper installed beside it.
enum PhotoDecoder {
    static let shared: any ImageDecoding = {
        if let path = HelperDecoder.locate(besides: HelperDecoder.currentExecutable) { return HelperDecoder(executable: path) }
        return Missing()
    }()

    /// Without the helper every photo is refused with a message that says why.
    struct Missing: ImageDecoding {
        static let message = "contactsd-imaging, which decodes photos, is not installed beside contactsd"
        func inspect(_ bytes: [UInt8], limits: ImageLimits) throws(ImageError) -> ImageInfo { throw .unsupported(Self.message) }
        func thumbnail(_ bytes: [UInt8], size: Int, crop: Bool, limits: ImageLimits) throws(ImageError) -> Thumbnail {
            throw .unsupported(Self.message)
        }
    }
}

/// Photos: checked before they are stored, thumbnails made on demand and cached.
final class PhotoService: @unchecked Sendable {
    let store: ContactStore
    let thumbnails: ThumbnailCache
    /// The sizes made ahead (`thumbnailSizes`), changed on reload.
    private let aheadSizes: Locked<[Int]>
    /// Thumbnails made ahead of any request, one at a time, behind everything else.
    private let aheadQueue = TaskQueue(label: "thumbnails-ahead", lowPriority: true)
    static let sizes = ContactsThumbnail.sizes
    static let defaultSize = ContactsThumbnail.defaultSize

    init(store: ContactStore, cacheDirectory: String, settings: Settings) {
        self.store = store
        self.thumbnails = ThumbnailCache(
            directory: cacheDirectory + "/thumbnails", decoder: PhotoDecoder.shared, limits: Self.limits(settings))
        self.aheadSizes = Locked(settings.thumbnailSizes)
        // A photo no contact refers to any more takes its thumbnails with it.
        store.setPhotoRemovalHandler { [thumbnails] hash in thumbnails.purge(hash: hash) }
    }

    /// The configured limits, which the thumbnail cache holds: a photo is checked and its
    /// thumbnails are made under the same ones.
    var limits: ImageLimits { thumbnails.limits }

    static func limits(_ settings: Settings) -> ImageLimits {
        ImageLimits(maxBytes: settings.maxPhotoBytes, maxPixels: settings.maxPhotoPixels)
    }

    func apply(_ settings: Settings) {
        thumbnails.limits = Self.limits(settings)
        aheadSizes.withLock { $0 = settings.thumbnailSizes }
    }

    /// Checks a photo and stores it for a contact: the header first (format, pixels), then a
    /// full decode into the default thumbnail, so nothing that cannot be shown is kept.
    func setPhoto(id: String, bytes: [UInt8], ifRevision: Int?) throws -> Contact {
        let limits = limits
        let info = try PhotoDecoder.shared.inspect(bytes, limits: limits)
        let upload = PhotoData(bytes: bytes, mimeType: info.format.mimeType, width: info.displayWidth, height: info.displayHeight)
        _ = try thumbnails.thumbnail(hash: upload.hash, size: Self.defaultSize, crop: false) { bytes }
        let contact = try store.setPhoto(id: id, upload, ifRevision: ifRevision)
        makeAhead(hash: upload.hash, bytes: bytes)
        return contact
    }

    private func makeAhead(hash: String, bytes: [UInt8]) {
        let sizes = aheadSizes.withLock { $0.filter { $0 != Self.defaultSize } }
        guard !sizes.isEmpty else { return }
        aheadQueue.async { [thumbnails] in
            for size in sizes { _ = try? thumbnails.thumbnail(hash: hash, size: size, crop: false) { bytes } }
        }
    }

    /// The thumbnail of a contact's photo, made now if it was not cached.
    func thumbnail(id: String, size: Int, crop: Bool) throws -> CachedThumbnail {
        let contact = try store.contact(id: id)
        switch contact.photo {
        case nil:
            throw RPCError(.notFound, "Contact \(id) has no photo", data: ["id": .string(id)])
        case .url(let url)?:
            throw RPCError(
                .notFound, "Contact \(id) has only a link to a photo, which contactsd never fetches",
                data: ["id": .string(id), "url": .string(url)])
        case .stored(let hash, _, _, _)?:
            return try thumbnails.thumbnail(hash: hash, size: size, crop: crop) {
                guard let bytes = store.photoBytes(hash) else {
                    // Inline data that never decoded is kept inside the card only.
                    throw ImageError.unsupported("the photo contact \(id) arrived with cannot be decoded")
                }
                return bytes
            }
        }
    }

    /// A JPEG of a contact's photo no larger than `side` on its longer side (its thumbnail of
    /// that size, made by the imaging helper like any other); nil when there is none.
    @Sendable func smallerJPEG(_ contact: Contact, side: Int) -> [UInt8]? {
        guard let t = try? thumbnail(id: contact.id, size: side, crop: false),
            let data = FileManager.default.contents(atPath: t.path)
        else { return nil }
        return [UInt8](data)
    }

    static func rpcError(_ error: ImageError) -> RPCError {
        switch error {
        case .tooLarge(let m): RPCError(.tooLarge, "Photo too large: \(m)")
        case .unsupported(let m): RPCError(.unsupportedMedia, "Unsupported photo: \(m)")
        }
    }
}
