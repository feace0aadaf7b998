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
            RPCParam(
                "google",
                "Instead of url: a Google account, synced through the People API (labels and starred too); signs in with the OAuth client of clientId (the caller is sent account.signIn with the URL to open) or with tokenCommand.",
                schema: APISchema.boolean),
            RPCParam(
                "peopleURL", "With google: the People API's root (default https://people.googleapis.com/), for a server that stands in.",
                schema: APISchema.string),
            RPCParam("clientId", "With google: the user's own OAuth client (a Desktop app) to sign in with.", schema: APISchema.string),
            RPCParam(
                "goaAccount",
                "With google, and neither clientId nor tokenCommand: which Google account of GNOME Online Accounts (by address), when it has several.",
                schema: APISchema.string),
            RPCParam(
                "clientSecret", "With clientId: the client's secret, when it has one (kept in the Secret Service).",
                schema: APISchema.string),
            RPCParam("authURL", "With clientId: the authorization endpoint (default Google's).", schema: APISchema.string),
            RPCParam("tokenURL", "With clientId: the token endpoint (default Google's).", schema: APISchema.string),
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
        /// A Google account through the People API at this root.
        case google(peopleURL: String)
    }

    /// Google's People API.
    public static let googlePeopleURL = "https://people.googleapis.com/"

    public var name: String
    public var book: Book
    /// A Google account's own sign-in: the OAuth client and, when not Google's, its endpoints.
    public var oauth: OAuthClient?
    /// A Google account of GNOME Online Accounts, by its address.
    public var goaAccount: String?
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
        let google = try p.optionalBool("google") ?? false
        guard [p.has("url"), p.has("vdir"), google].filter({ $0 }).count == 1 else {
            throw .invalidParams("give one of 'url' (a CardDAV address book), 'vdir' (a directory) or 'google' (a Google account)")
        }
        oauth = try OAuthClient(p)
        if google {
            goaAccount = try p.optionalString("goaAccount")
            guard [p.has("tokenCommand"), oauth != nil, goaAccount != nil].filter({ $0 }).count <= 1 else {
                throw RPCError(
                    .invalidParams,
                    "Invalid params: a Google account signs in through GNOME Online Accounts (goaAccount, or none given), clientId or tokenCommand: one of them",
                    data: ["field": "clientId"])
            }
            book = .google(peopleURL: try p.optionalString("peopleURL") ?? Self.googlePeopleURL)
        } else {
            guard !p.has("peopleURL"), !p.has("goaAccount"), oauth == nil else {
                throw .invalidParams("'peopleURL', 'goaAccount' and 'clientId' go with 'google'")
            }
            book = p.has("vdir") ? .vdir(try p.string("vdir")) : .url(try p.string("url"))
        }
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
            case .google: (nil, nil)
            }
        var peopleURL: String?
        if case .google(let root) = book, root != Self.googlePeopleURL { peopleURL = root }
        let google: JSONValue? = if case .google = book { true } else { nil }
        var o: JSONObject = .present([
            "google": google, "peopleURL": peopleURL.map { .string($0) },
            "name": .string(name), "url": url.map { .string($0) }, "vdir": vdir.map { .string($0) },
            "username": username.map { .string($0) }, "passwordCommand": passwordCommand.map { .array($0.map { .string($0) }) },
            "tokenCommand": tokenCommand.map { .array($0.map { .string($0) }) }, "addressBook": addressBook.map { .string($0) },
            "caFile": caFile.map { .string($0) }, "interval": .int(interval), "readOnly": readOnly ? true : nil,
            "adoptLocal": adoptLocal ? true : nil,
        ])
        if let oauth { for m in oauth.params { o[m.key] = m.value } }
        if let goaAccount { o["goaAccount"] = .string(goaAccount) }
        return o
    }
}

/// The user's own OAuth client a Google account signs in with, and the endpoints when they
/// are not Google's (a server standing in).
public struct OAuthClient: Sendable, Equatable {
    public var clientID: String
    public var clientSecret: String?
    public var authURL: String?
    public var tokenURL: String?

    public init(clientID: String, clientSecret: String? = nil, authURL: String? = nil, tokenURL: String? = nil) {
        (self.clientID, self.clientSecret, self.authURL, self.tokenURL) = (clientID, clientSecret, authURL, tokenURL)
    }

    /// The client named in a request's parameters; nil without `clientId`.
    init?(_ p: RPCParams) throws(RPCError) {
        guard let id = try p.optionalString("clientId") else {
            guard !p.has("clientSecret"), !p.has("authURL"), !p.has("tokenURL") else {
                throw .invalidParams("'clientSecret', 'authURL' and 'tokenURL' go with 'clientId'")
            }
            return nil
        }
        guard !id.isEmpty else { throw RPCError(.invalidParams, "Invalid params: clientId is empty", data: ["field": "clientId"]) }
        (clientID, clientSecret, authURL, tokenURL) = (
            id, try p.optionalString("clientSecret"), try p.optionalString("authURL"), try p.optionalString("tokenURL")
        )
    }

    var params: JSONObject {
        .present([
            "clientId": .string(clientID), "clientSecret": clientSecret.map { .string($0) }, "authURL": authURL.map { .string($0) },
            "tokenURL": tokenURL.map { .string($0) },
        ])
    }
}
