import JSONCore
import JSONRPC

/// `serve.qrcode`: a QR code of a short text (a device's DAVx⁵ link), for a client to draw.
public struct ServeQRCode: APIRequest {
    public static let about = APIMethod(
        "serve.qrcode",
        parameters: [RPCParam("text", "What the code holds (at most \(textLimit) bytes).", schema: APISchema.string, required: true)],
        result: "code",
        schema: [
            "type": "object", "required": ["width", "rows"],
            "properties": [
                "width": ["type": "integer", "description": "Modules a side (the quiet zone around them is the drawer's)"],
                "rows": [
                    "type": "array", "items": ["type": "string", "pattern": "^[01]*$"],
                    "description": "Top to bottom, each a string of width '0' (light) and '1' (dark) modules",
                ],
            ],
        ],
        errors: [RPCError(.unavailable, "libqrencode cannot be loaded")],
        summary:
            "A QR code of the text, made by libqrencode (error correction M), as rows of modules: what contactsctl draws in a terminal or writes as a PNG for a phone to scan. The text is not kept or logged (it may hold a password)."
    )
    /// Longer than any link to a device; far below what a QR code holds.
    public static let textLimit = 1024

    public var text: String

    public init(text: String) { self.text = text }

    public init(_ p: RPCParams) throws(RPCError) {
        text = try p.string("text")
        guard !text.isEmpty, text.utf8.count <= Self.textLimit else {
            throw .invalidParams("'text' must hold 1 to \(Self.textLimit) bytes", field: "text")
        }
    }

    public var params: JSONObject { ["text": .string(text)] }
}
