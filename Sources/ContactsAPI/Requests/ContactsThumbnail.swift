import JSONCore
import JSONRPC

/// `contacts.thumbnail`: a JPEG of a contact's photo, made once, then cached.
public struct ContactsThumbnail: APIRequest {
    public static let about = APIMethod(
        "contacts.thumbnail",
        parameters: [
            ContactShape.idParameter,
            RPCParam("size", "The longer side in pixels, 16 to 1024; default 256.", schema: APISchema.integer(sizes)),
            RPCParam("crop", "Square, cropped at the centre.", schema: APISchema.boolean),
            RPCParam("inline", "Also return the JPEG itself, base64, as data.", schema: APISchema.boolean),
        ], result: "thumbnail",
        schema: [
            "type": "object", "required": ["path", "mimeType", "width", "height"],
            "properties": [
                "path": APISchema.string, "mimeType": APISchema.string, "width": APISchema.integer, "height": APISchema.integer,
                "data": APISchema.string,
            ],
        ], errors: [RPCError(.notFound, "No contact with that id, or it has no photo"), PhotoShape.unsupported],
        summary:
            "A JPEG of the contact's photo no larger than size on its longer side, EXIF orientation applied; made on first request, then cached."
    )
    /// The longer sides a thumbnail may have, and the one asked for when none is.
    public static let sizes = 16...1024
    public static let defaultSize = 256

    public var id: String
    public var size: Int
    public var crop: Bool
    public var inline: Bool

    public init(id: String, size: Int = defaultSize, crop: Bool = false, inline: Bool = false) {
        (self.id, self.size, self.crop, self.inline) = (id, size, crop, inline)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        size = try p.optionalInt("size", in: Self.sizes) ?? Self.defaultSize
        crop = try p.optionalBool("crop") ?? false
        inline = try p.optionalBool("inline") ?? false
    }

    public var params: JSONObject {
        .present(["id": .string(id), "size": .int(size), "crop": crop ? true : nil, "inline": inline ? true : nil])
    }
}
