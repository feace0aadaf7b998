import Foundation

/// A sync account as the store keeps it: where its address book is and how to sign in,
/// never a password or token (`passwordCommand` and `tokenCommand` print them when needed).
public struct SyncAccount: Sendable, Equatable {
    public var name: String
    /// What the account was added with (a book, a server, a host, an email domain).
    public var url: String
    /// The address book discovery found.
    public var addressBookURL: String
    public var displayName: String?
    public var username: String?
    public var passwordCommand: [String]?
    public var tokenCommand: [String]?
    /// Seconds between syncs.
    public var interval: Int
    public var readOnly: Bool
    /// The book offers vCard 4.0 (`supported-address-data`)...
    public var offers4 = false
    /// ...and the cards in it are 4.0: cards go up as 4.0.
    public var vcard4 = false
    /// A file of CA certificates trusted for this server as well as the system's (a private CA).
    public var caFile: String?
    /// The book keeps no groups (Google drops CATEGORIES): the contacts' groups stay here and
    /// what the server sends never takes them away.
    public var groupsLocal = false
    /// The account is Google's People API (`addressBookURL` is the API's root, not a book):
    /// its people carry the favorite flag (starred) both ways.
    public var peopleAPI = false
    /// The OAuth client a Google account signed in with (contactsd's own sign-in): its id,
    /// and the endpoints when not Google's. Its refresh token (and client secret) are in the
    /// Secret Service, never here.
    public var oauthClientID: String?
    /// The GNOME Online Accounts account (its address) a Google account asks for tokens.
    public var goaAccount: String?
    public var oauthAuthURL: String?
    public var oauthTokenURL: String?
    public var syncToken: String?
    public var lastSuccess: Int64?
    public var lastError: String?
    /// What the last sync that ended reported, as JSON (written by the daemon).
    public var lastReport: String?

    /// The directory of a vdir account, whose address book is a `file:` URL; nil for CardDAV.
    public var vdirPath: String? {
        guard addressBookURL.hasPrefix("file:") else { return nil }
        return URL(string: addressBookURL)?.path
    }

    /// The book as accounts are compared by: two accounts of one book would each adopt the
    /// other's contacts. A URL's scheme and host in lower case, without the default port, and
    /// its path with one `/` at the end.
    public var bookKey: String {
        guard var c = URLComponents(string: addressBookURL) else { return addressBookURL }
        c.scheme = c.scheme?.lowercased()
        c.host = c.host?.lowercased()
        if (c.scheme == "https" && c.port == 443) || (c.scheme == "http" && c.port == 80) { c.port = nil }
        var path = c.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        c.percentEncodedPath = path + "/"
        c.query = nil
        c.fragment = nil
        return c.string ?? addressBookURL
    }

    public init(
        name: String, url: String, addressBookURL: String, displayName: String? = nil, username: String? = nil,
        passwordCommand: [String]? = nil, tokenCommand: [String]? = nil, interval: Int = 900, readOnly: Bool = false
    ) {
        self.name = name
        self.url = url
        self.addressBookURL = addressBookURL
        self.displayName = displayName
        self.username = username
        self.passwordCommand = passwordCommand
        self.tokenCommand = tokenCommand
        self.interval = interval
        self.readOnly = readOnly
    }
}

/// A card an account shares with the store.
public struct SyncItem: Sendable, Equatable {
    public var href: String
    /// The contact it is, nil once the contact is gone from the store and the trash.
    public var contactID: String?
    public var etag: String?
    /// The card as last synced: the server's bytes, the base of a three-way merge.
    public var card: String?
    /// The contact's revision when it was last synced; a later one is a local edit.
    public var syncedRevision: Int?
    /// Its contact was moved to another account or to this machine alone: the card is to be
    /// deleted from the server, as asked.
    public var moved = false
    /// One of the book's group cards: the group it is here.
    public var groupID: String?

    public init(
        href: String, contactID: String?, etag: String?, card: String?, syncedRevision: Int?, moved: Bool = false, groupID: String? = nil
    ) {
        self.href = href
        self.contactID = contactID
        self.etag = etag
        self.card = card
        self.syncedRevision = syncedRevision
        self.moved = moved
        self.groupID = groupID
    }
}

/// A write to a server whose answer has not been seen (`create`, `update`, `delete`).
public struct SyncIntent: Sendable, Equatable {
    public var href: String
    public var contactID: String?
    public var action: String
    /// The SHA-256 of the card sent (hex), for a create or an update: the write landed only
    /// if the server's card is that one, byte for byte.
    public var digest: String?
    /// The contact's revision the card was made from.
    public var revision: Int?

    public init(href: String, contactID: String?, action: String, digest: String? = nil, revision: Int? = nil) {
        self.href = href
        self.contactID = contactID
        self.action = action
        self.digest = digest
        self.revision = revision
    }
}
