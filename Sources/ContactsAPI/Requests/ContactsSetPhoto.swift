import JSONCore
import JSONRPC

/// `contacts.setPhoto`: a photo, checked before it is stored.
public struct ContactsSetPhoto: APIRequest {
    public static let about = APIMethod(
        "contacts.setPhoto",
        parameters: [
            ContactShape.idParameter, RPCParam("data", "The image, base64.", schema: APISchema.string),
            RPCParam("path", "Or an absolute path to the image file.", schema: APISchema.string), ContactShape.ifRevisionParameter,
        ], result: "contact", schema: ContactShape.contact,
        errors: [
            ContactShape.notFound, ContactShape.conflict, RPCError(.tooLarge, "The photo is over the byte or pixel limit"),
            PhotoShape.unsupported,
        ],
        summary:
            "Gives a contact a photo (JPEG, PNG, WebP, HEIC or GIF), checked before it is stored; the contact keeps its old photo when it is refused."
    )

    /// Where the image is.
    public enum Source: Sendable, Equatable {
        /// The image, base64.
        case data(String)
        /// An absolute path to the image file (the daemon reads it).
        case path(String)
    }

    public var target: ContactTarget
    public var source: Source

    public init(id: String, source: Source, ifRevision: Int? = nil) {
        (target, self.source) = (ContactTarget(id, ifRevision: ifRevision), source)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        target = try ContactTarget(p)
        switch (p.has("data"), p.has("path")) {
        case (true, false): source = .data(try p.string("data"))
        case (false, true): source = .path(try p.string("path"))
        default: throw .invalidParams("give exactly one of 'data' or 'path'")
        }
    }

    public var params: JSONObject {
        switch source {
        case .data(let text): target.params(["data": .string(text)])
        case .path(let path): target.params(["path": .string(path)])
        }
    }
}
