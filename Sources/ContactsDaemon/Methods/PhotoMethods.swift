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
    private let lock = NSLock()
    private var _aheadSizes: [Int]
    /// Thumbnails made ahead of any request, one at a time, behind everything else.
    private let aheadQueue = DispatchQueue(label: "thumbnails-ahead", qos: .utility)
    static let sizes = 16...1024
    static let defaultSize = 256

    init(store: ContactStore, cacheDirectory: String, settings: Settings) {
        self.store = store
        self.thumbnails = ThumbnailCache(
            directory: cacheDirectory + "/thumbnails", decoder: PhotoDecoder.shared, limits: Self.limits(settings))
        self._aheadSizes = settings.thumbnailSizes
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
        lock.lock()
        _aheadSizes = settings.thumbnailSizes
        lock.unlock()
    }

    /// Checks a photo and stores it for a contact: the header first (format, pixels), then a
    /// full decode into the default thumbnail, so nothing that cannot be shown is kept.
    func setPhoto(id: String, bytes: [UInt8], ifRevision: Int?) throws -> Contact {
        let limits = limits
        let info = try PhotoDecoder.shared.inspect(bytes, limits: limits)
        let upload = PhotoUpload(bytes: bytes, mimeType: info.format.mimeType, width: info.displayWidth, height: info.displayHeight)
        _ = try thumbnails.thumbnail(hash: upload.hash, size: Self.defaultSize, crop: false) { bytes }
        let contact = try store.setPhoto(id: id, upload, ifRevision: ifRevision)
        makeAhead(hash: upload.hash, bytes: bytes)
        return contact
    }

    private func makeAhead(hash: String, bytes: [UInt8]) {
        lock.lock()
        let sizes = _aheadSizes.filter { $0 != Self.defaultSize }
        lock.unlock()
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

    static func rpcError(_ error: ImageError) -> RPCError {
        switch error {
        case .tooLarge(let m): RPCError(.tooLarge, "Photo too large: \(m)")
        case .unsupported(let m): RPCError(.unsupportedMedia, "Unsupported photo: \(m)")
        }
    }
}

enum PhotoMethods {
    static func all(photos: PhotoService) -> [RPCMethod] {
        let notFound = RPCError(.notFound, "No contact with that id")
        let tooLarge = RPCError(.tooLarge, "The photo is over the byte or pixel limit")
        let unsupported = RPCError(.unsupportedMedia, "Not a JPEG, PNG, WebP, HEIC or GIF image, or one that cannot be decoded")
        return [
            RPCMethod(
                "contacts.setPhoto",
                summary:
                    "Gives a contact a photo (JPEG, PNG, WebP, HEIC or GIF), checked before it is stored; the contact keeps its old photo when it is refused.",
                params: [
                    RPCParam("id", "The contact's id.", schema: Schemas.string, required: true),
                    RPCParam("data", "The image, base64.", schema: Schemas.string),
                    RPCParam("path", "Or an absolute path to the image file.", schema: Schemas.string),
                    RPCParam("ifRevision", "Only change it if it is still at this revision.", schema: Schemas.integer),
                ],
                result: "contact", resultSchema: Schemas.ref("Contact"),
                errors: [notFound, RPCError(.conflict, "The contact changed since the given revision"), tooLarge, unsupported]
            ) { call in
                let id = try call.params.string("id")
                let ifRevision = try call.params.optionalInt("ifRevision", in: 0...Int(Int32.max))
                let limits = photos.limits
                let bytes: [UInt8]
                switch (call.params.has("data"), call.params.has("path")) {
                case (true, false):
                    let text = try call.params.string("data")
                    // Base64 carries 3 bytes in 4 characters: refuse before decoding what cannot fit.
                    guard text.utf8.count / 4 * 3 <= limits.maxBytes + 3 else {
                        throw RPCError(
                            .tooLarge, "Photo too large: about \(text.utf8.count / 4 * 3) bytes; the limit is \(limits.maxBytes)")
                    }
                    guard let data = Base64.decode(text.utf8), !data.isEmpty else {
                        throw RPCError.invalidParams("'data' is not base64", field: "data")
                    }
                    bytes = data
                case (false, true):
                    let path = try call.params.string("path")
                    do {
                        bytes = try FileIO.readRegularFile(path, limit: limits.maxBytes)
                    } catch let e as FileIO.ReadError {
                        throw RPCError(e.isTooLarge ? .tooLarge : .invalidData, e.description, data: ["path": .string(path)])
                    }
                default:
                    throw RPCError.invalidParams("give exactly one of 'data' or 'path'")
                }
                return try photos.setPhoto(id: id, bytes: bytes, ifRevision: ifRevision).json
            },
            RPCMethod(
                "contacts.removePhoto", summary: "Takes a contact's photo away.",
                params: [
                    RPCParam("id", "The contact's id.", schema: Schemas.string, required: true),
                    RPCParam("ifRevision", "Only change it if it is still at this revision.", schema: Schemas.integer),
                ],
                result: "contact", resultSchema: Schemas.ref("Contact"), errors: [notFound]
            ) { call in
                let id = try call.params.string("id")
                let ifRevision = try call.params.optionalInt("ifRevision", in: 0...Int(Int32.max))
                return try photos.store.removePhoto(id: id, ifRevision: ifRevision).json
            },
            RPCMethod(
                "contacts.thumbnail",
                summary:
                    "A JPEG of the contact's photo no larger than size on its longer side, EXIF orientation applied; made on first request, then cached.",
                params: [
                    RPCParam("id", "The contact's id.", schema: Schemas.string, required: true),
                    RPCParam(
                        "size", "The longer side in pixels, 16 to 1024; default 256.",
                        schema: ["type": "integer", "minimum": 16, "maximum": 1024]),
                    RPCParam("crop", "Square, cropped at the centre.", schema: Schemas.boolean),
                    RPCParam("inline", "Also return the JPEG itself, base64, as data.", schema: Schemas.boolean),
                ],
                result: "thumbnail",
                resultSchema: [
                    "type": "object", "required": ["path", "mimeType", "width", "height"],
                    "properties": [
                        "path": Schemas.string, "mimeType": Schemas.string, "width": Schemas.integer, "height": Schemas.integer,
                        "data": Schemas.string,
                    ],
                ],
                errors: [RPCError(.notFound, "No contact with that id, or it has no photo"), unsupported]
            ) { call in
                let id = try call.params.string("id")
                let size = try call.params.optionalInt("size", in: PhotoService.sizes) ?? PhotoService.defaultSize
                let crop = try call.params.optionalBool("crop") ?? false
                let inline = try call.params.optionalBool("inline") ?? false
                let t = try photos.thumbnail(id: id, size: size, crop: crop)
                var out: JSONObject = [
                    "path": .string(t.path), "mimeType": .string(t.mimeType), "width": .int(t.width), "height": .int(t.height),
                ]
                if inline {
                    guard let data = FileManager.default.contents(atPath: t.path) else {
                        throw RPCError(.internalError, "Internal error: the thumbnail \(t.path) cannot be read")
                    }
                    out["data"] = .string(data.base64EncodedString())
                }
                return .object(out)
            },
        ]
    }
}
