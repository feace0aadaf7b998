import JSONCore
import JSONRPC

/// `contacts.setPhoto`: a photo, checked before it is stored.
public struct ContactsSetPhoto: APIRequest {
    public static let about = APIMethod(
        "contacts.setPhoto",
        "Gives a contact a photo (JPEG, PNG, WebP, HEIC or GIF), checked before it is stored; the contact keeps its old photo when it is refused.",
        parameters: [
            ContactShape.idParameter, RPCParam("data", "The image, base64.", schema: APISchema.string),
            RPCParam("path", "Or an absolute path to the image file.", schema: APISchema.string), ContactShape.ifRevisionParameter,
        ], result: "contact", schema: ContactShape.contact,
        errors: [
            ContactShape.notFound, ContactShape.conflict, RPCError(.tooLarge, "The photo is over the byte or pixel limit"),
            PhotoShape.unsupported,
        ])

    /// Where the image is.
    public enum Source: Sendable, Equatable {
        /// The image, base64.
        case data(String)
        /// An absolute path to the image file (the daemon reads it).
        case path(String)
    }

    public var id: String
    public var source: Source
    public var ifRevision: Int?

    public init(id: String, source: Source, ifRevision: Int? = nil) { (self.id, self.source, self.ifRevision) = (id, source, ifRevision) }

    public init(_ p: RPCParams) throws(RPCError) {
        id = try p.string("id")
        switch (p.has("data"), p.has("path")) {
        case (true, false): source = .data(try p.string("data"))
        case (false, true): source = .path(try p.string("path"))
        default: throw .invalidParams("give exactly one of 'data' or 'path'")
        }
        ifRevision = try p.optionalInt("ifRevision", in: ContactShape.revisions)
    }

    public var params: JSONObject {
        var o: JSONObject = ["id": .string(id)]
        switch source {
        case .data(let text): o["data"] = .string(text)
        case .path(let path): o["path"] = .string(path)
        }
        if let ifRevision { o["ifRevision"] = .int(ifRevision) }
        return o
    }
}
