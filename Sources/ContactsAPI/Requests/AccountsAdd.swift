import ContactsSupport
import JSONCore
import JSONRPC

/// `accounts.add`: an address book (or a vdir) kept in two-way sync, found and signed in first.
public struct AccountsAdd: APIRequest {
    public static let intervals = 60...604_800
    public static let defaultInterval = 900
    public static let about = APIMethod(
        "accounts.add",
        parameters: [
            RPCParam("name", "The account's name.", schema: APISchema.string, required: true),
            RPCParam("url", "An address book, a server, a host or an email address.", schema: APISchema.string),
            RPCParam(
                "vdir", "Instead of url: an absolute path to a directory of .vcf files, one a contact (khard, vdirsyncer).",
                schema: APISchema.string),
            RPCParam("username", "The user to sign in as (HTTP Basic).", schema: APISchema.string),
            RPCParam("passwordCommand", "A command (argv) that prints the password.", schema: APISchema.stringArray),
            RPCParam("tokenCommand", "A command (argv) that prints a bearer token (OAuth 2).", schema: APISchema.stringArray),
            RPCParam("addressBook", "Which book, by display name or href, when there are several.", schema: APISchema.string),
            RPCParam(
                "caFile", "An absolute path to CA certificates (PEM) to trust for this server, as well as the system's.",
                schema: APISchema.string),
            RPCParam("interval", "Seconds between syncs (default 900).", schema: APISchema.integer(intervals)),
            RPCParam("readOnly", "Only download.", schema: APISchema.boolean),
            RPCParam("adoptLocal", "Move this machine's contacts into the account.", schema: APISchema.boolean),
        ], result: "account", schema: SyncShape.account,
        errors: [RPCError(.conflict, "An account of that name exists"), SyncShape.remoteFailed],
        summary:
            "Adds an account: finds the address book behind url (the book, a server, a host or an email domain), signs in, and keeps it in two-way sync. No password is stored: passwordCommand or tokenCommand prints it when needed."
    )

    /// Where the account's cards are.
    public enum Book: Sendable, Equatable {
        /// An address book, a server, a host or an email address, found by discovery.
        case url(String)
        /// An absolute path to a directory of `.vcf` files.
        case vdir(String)
    }

    public var name: String
    public var book: Book
    public var username: String?
    public var passwordCommand: [String]?
    public var tokenCommand: [String]?
    public var addressBook: String?
    public var caFile: String?
    public var interval: Int
    public var readOnly: Bool
    public var adoptLocal: Bool

    public init(name: String, book: Book) {
        (self.name, self.book) = (name, book)
        (interval, readOnly, adoptLocal) = (Self.defaultInterval, false, false)
    }

    public init(_ p: RPCParams) throws(RPCError) {
        name = try p.string("name").trimmingWhitespace()
        guard !name.isEmpty, name.count <= 64, !name.contains("/"), name != "local" else {
            throw RPCError(
                .invalidParams, "Invalid params: name must be 1 to 64 characters, without '/', and not 'local' (which means this machine)",
                data: ["field": "name"])
        }
        guard p.has("url") != p.has("vdir") else {
            throw .invalidParams("give either 'url' (a CardDAV address book) or 'vdir' (a directory)")
        }
        book = p.has("vdir") ? .vdir(try p.string("vdir")) : .url(try p.string("url"))
        username = try p.optionalString("username")
        passwordCommand = p.has("passwordCommand") ? try p.stringArray("passwordCommand") : nil
        tokenCommand = p.has("tokenCommand") ? try p.stringArray("tokenCommand") : nil
        addressBook = try p.optionalString("addressBook")
        caFile = try p.optionalString("caFile")
        interval = try p.optionalInt("interval", in: Self.intervals) ?? Self.defaultInterval
        readOnly = try p.optionalBool("readOnly") ?? false
        adoptLocal = try p.optionalBool("adoptLocal") ?? false
    }

    public var params: JSONObject {
        let (url, vdir): (String?, String?) =
            switch book {
            case .url(let u): (u, nil)
            case .vdir(let d): (nil, d)
            }
        return .present([
            "name": .string(name), "url": url.map { .string($0) }, "vdir": vdir.map { .string($0) },
            "username": username.map { .string($0) }, "passwordCommand": passwordCommand.map { .array($0.map { .string($0) }) },
            "tokenCommand": tokenCommand.map { .array($0.map { .string($0) }) }, "addressBook": addressBook.map { .string($0) },
            "caFile": caFile.map { .string($0) }, "interval": .int(interval), "readOnly": readOnly ? true : nil,
            "adoptLocal": adoptLocal ? true : nil,
        ])
    }
}
