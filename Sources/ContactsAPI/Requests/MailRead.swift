import ContactsSupport
import JSONCore
import JSONRPC

/// `mail.read`: one message's header, read as `mail.add` would count it (nothing is changed).
public struct MailRead: APIRequest {
    public static let about = APIMethod(
        "mail.read", parameters: [MailHeader.parameter], result: "message",
        schema: ["type": "object", "required": ["message"], "properties": ["message": APISchema.ref("MailMessage")]],
        errors: [unreadable],
        summary:
            "Reads one message's header (MIME encoded words in any charset, groups, comments, folds) into the MailMessage mail.add takes, strictly: a line that is no header, or a From without an address, is an error naming the header and its line. Nothing is stored."
    )
    static let unreadable = RPCError(.invalidData, "The message cannot be read (data: {header, line})")

    /// The header's bytes (up to the empty line that ends it).
    public var header: [UInt8]

    public init(header: [UInt8]) { self.header = header }

    public init(_ p: RPCParams) throws(RPCError) { header = try MailHeader.bytes(p["header"], field: "header") }

    public var params: JSONObject { ["header": .string(Base64.encode(header))] }
}
