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
        let notFound = RPCError(.notFound, "No contact with that id")
        let tooLarge = RPCError(.tooLarge, "The photo is over the byte or pixel limit")
        let unsupported = RPCError(.unsupportedMedia, "Not a JPEG, PNG, WebP, HEIC or GIF image, or one that cannot be decoded")
        return [
            RPCMethod(
                ContactsAPI.Method.contactsSetPhoto,
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
                ContactsAPI.Method.contactsRemovePhoto, summary: "Takes a contact's photo away.",
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
                ContactsAPI.Method.contactsThumbnail,
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
