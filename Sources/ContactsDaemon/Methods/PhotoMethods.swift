import ContactsAPI
import ContactsCore
import ContactsStore
import ContactsSupport
import Dispatch
import Foundation
import JSONCore
import JSONRPC
import Thumbnails

/// The photo methods: set, remove and thumbnails.
enum PhotoMethods {
    static func all(photos: PhotoService) -> [RPCMethod] {
        [
            RPCMethod(ContactsSetPhoto.self) { request, _ in
                let limits = photos.limits
                let bytes: [UInt8]
                switch request.source {
                case .data(let text):
                    // Base64 carries 3 bytes in 4 characters: refuse before decoding what cannot fit.
                    guard text.utf8.count / 4 * 3 <= limits.maxBytes + 3 else {
                        throw RPCError(
                            .tooLarge, "Photo too large: about \(text.utf8.count / 4 * 3) bytes; the limit is \(limits.maxBytes)")
                    }
                    guard let data = Base64.decode(text.utf8), !data.isEmpty else {
                        throw RPCError.invalidParams("'data' is not base64", field: "data")
                    }
                    bytes = data
                case .path(let path):
                    do {
                        bytes = try FileIO.readRegularFile(path, limit: limits.maxBytes)
                    } catch let e as FileIO.ReadError {
                        throw RPCError(e.isTooLarge ? .tooLarge : .invalidData, e.description, data: ["path": .string(path)])
                    }
                }
                return try photos.setPhoto(id: request.target.id, bytes: bytes, ifRevision: request.target.ifRevision).json
            },
            RPCMethod(ContactsRemovePhoto.self) { request, _ in
                try photos.store.removePhoto(id: request.target.id, ifRevision: request.target.ifRevision).json
            },
            RPCMethod(ContactsThumbnail.self) { request, _ in
                let t = try photos.thumbnail(id: request.id, size: request.size, crop: request.crop)
                var out: JSONObject = [
                    "path": .string(t.path), "mimeType": .string(t.mimeType), "width": .int(t.width), "height": .int(t.height),
                ]
                if request.inline {
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
