import ContactsSupport
import JSONCore
import JSONRPC

/// A message's header as its bytes: what a client that has the message, but does not read
/// MIME, sends (the daemon reads it as `mail.watch` reads what arrives).
public struct MailHeader: Sendable, Equatable {
    /// The header's bytes, as the file holds them (8-bit text too).
    public var bytes: [UInt8]
    /// When the message arrived (milliseconds since 1970), taken when its header has no Date.
    public var arrived: Int64?
    /// Where it is, to name it in a report (a path, an mbox's message number).
    public var place: String?

    public init(_ bytes: [UInt8], arrived: Int64? = nil, place: String? = nil) {
        (self.bytes, self.arrived, self.place) = (bytes, arrived, place)
    }

    /// The most of a header taken (a message's header is read to its end or this).
    public static let byteLimit = 1 << 20

    static let parameter = RPCParam(
        "header", "The message's header, base64 (the bytes up to the empty line that ends it, at most 1 MiB).",
        schema: ["type": "string", "contentEncoding": "base64"], required: true)

    public static let schema: JSONValue = [
        "type": "object", "required": ["header"],
        "properties": [
            "header": ["type": "string", "contentEncoding": "base64", "description": "The header's bytes (at most 1 MiB)"],
            "arrived": ["type": "integer", "description": "Milliseconds since 1970: its date when the header has none"],
            "place": ["type": "string", "description": "Where the message is, to name it in a report"],
        ],
    ]

    static func bytes(_ v: JSONValue?, field: String) throws(RPCError) -> [UInt8] {
        guard let text = v?.stringValue else { throw .invalidParams("'\(field)' must be the header's bytes in base64", field: field) }
        guard text.utf8.count <= (byteLimit / 3 + 1) * 4, let bytes = Base64.decode(text.utf8), bytes.count <= byteLimit else {
            throw .invalidParams("'\(field)' must be at most 1 MiB of header in base64", field: field)
        }
        return bytes
    }

    init(_ v: JSONValue, path: String) throws(RPCError) {
        guard v.objectValue != nil else { throw .invalidParams("'\(path)' must be an object", field: path) }
        bytes = try Self.bytes(v["header"], field: "\(path).header")
        if let a = v["arrived"], !a.isNull {
            guard let ms = a.intValue else {
                throw .invalidParams("'\(path).arrived' must be milliseconds since 1970", field: "\(path).arrived")
            }
            arrived = Int64(ms)
        }
        if let p = v["place"], !p.isNull {
            guard let s = p.stringValue, s.utf8.count <= MailMessage.textLimit else {
                throw .invalidParams("'\(path).place' must be a string", field: "\(path).place")
            }
            place = s
        }
    }

    public var json: JSONValue {
        var o: JSONObject = ["header": .string(Base64.encode(bytes))]
        if let arrived { o["arrived"] = .int(Int(arrived)) }
        if let place { o["place"] = .string(place) }
        return .object(o)
    }
}
