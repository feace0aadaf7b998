/// What the CardDAV face serves, as the store gives it: books and their cards. The server
/// knows nothing of how they are kept; the daemon implements this over its store.
public protocol ServedBooks: Sendable {
    func books() throws -> [ServedBook]
    /// One book, or nil when there is none of that name.
    func book(named name: String) throws -> ServedBook?
    /// The cards of a book, or nil when there is no book of that name.
    func cards(in book: String) throws -> [ServedCardInfo]?
    /// One card as vCard text of the version asked, or nil when the book has none of that name.
    func card(_ name: String, in book: String, version: ServedVersion) throws -> ServedCard?
    /// The names of the cards whose names, emails or phones contain `text` (folded as a
    /// search folds it: a superset of what a caseless match finds), or nil when the book
    /// cannot narrow by text.
    func candidates(in book: String, containing text: String) throws -> [String]?
    /// Several cards, by name (those the book has), as `card` gives each: a multiget.
    func cards(_ names: [String], in book: String, version: ServedVersion) throws -> [String: ServedCard]
    /// One card's name, tag and time, or nil when the book has none of that name.
    func cardInfo(_ name: String, in book: String) throws -> ServedCardInfo?
    /// What changed in a book after a sync token (RFC 6578), at most `limit` changes; without
    /// a token, every card. `.unsupported` when the books keep no change log.
    func changes(in book: String, since token: String?, limit: Int?) throws -> ServedSync
    /// `body` over `0..<count` cut into parts, each part's result in order: on every core
    /// where the books' host has threads for it (a multiget of a whole book is written so),
    /// else in one part on the caller's thread.
    func inParts<T: Sendable>(_ count: Int, minimum: Int, _ body: @escaping @Sendable (Range<Int>) -> T) -> [T]
}

extension ServedBooks {
    public func book(named name: String) throws -> ServedBook? { try books().first { $0.name == name } }

    public func candidates(in book: String, containing text: String) throws -> [String]? { nil }

    public func cards(_ names: [String], in book: String, version: ServedVersion) throws -> [String: ServedCard] {
        var out: [String: ServedCard] = [:]
        for name in names { out[name] = try card(name, in: book, version: version) }
        return out
    }

    public func cardInfo(_ name: String, in book: String) throws -> ServedCardInfo? {
        try cards(in: book)?.first { $0.name == name }
    }

    public func changes(in book: String, since token: String?, limit: Int?) throws -> ServedSync { .unsupported }

    public func inParts<T: Sendable>(_ count: Int, minimum: Int, _ body: @escaping @Sendable (Range<Int>) -> T) -> [T] {
        [body(0..<count)]
    }
}

/// A `sync-collection` answer, as the books give it.
public enum ServedSync: Sendable, Equatable {
    case unsupported
    /// There is no such book.
    case noBook
    /// The token is not one the books gave, or the change log no longer reaches back to it.
    case invalidToken
    case changes(ServedChanges)
}

public struct ServedChanges: Sendable, Equatable {
    /// Cards made or changed (or moved into the book) since the token.
    public var changed: [ServedCardInfo]
    /// Names of cards gone from the book since.
    public var removed: [String]
    /// The token to ask from next time.
    public var token: String
    /// A limit cut it short: `token` is where the next request goes on from.
    public var truncated: Bool

    public init(changed: [ServedCardInfo], removed: [String], token: String, truncated: Bool) {
        self.changed = changed
        self.removed = removed
        self.token = token
        self.truncated = truncated
    }
}

public enum ServedVersion: String, Sendable {
    case v3 = "3.0"
    case v4 = "4.0"
}

public struct ServedBook: Sendable, Equatable {
    /// The path segment: `local`, or an account's name.
    public var name: String
    public var displayName: String
    /// Changes whenever a card of the book is added, changed or removed.
    public var ctag: String
    /// The book's current sync token, when it answers `sync-collection`.
    public var syncToken: String?

    public init(name: String, displayName: String, ctag: String, syncToken: String? = nil) {
        self.name = name
        self.displayName = displayName
        self.ctag = ctag
        self.syncToken = syncToken
    }
}

public struct ServedCardInfo: Sendable, Equatable {
    /// The card's last path segment (`ID.vcf`).
    public var name: String
    /// A strong entity tag, quotes included.
    public var etag: String
    /// Seconds since 1970.
    public var lastModified: Int64

    public init(name: String, etag: String, lastModified: Int64) {
        self.name = name
        self.etag = etag
        self.lastModified = lastModified
    }
}

public struct ServedCard: Sendable {
    public var info: ServedCardInfo
    public var text: String

    public init(info: ServedCardInfo, text: String) {
        self.info = info
        self.text = text
    }
}

/// What a client's write must find to be carried out (RFC 9110 conditional requests).
public enum WriteCondition: Sendable, Equatable {
    case none
    /// The card is at this ETag.
    case ifMatch(String)
    /// There is no card at the address yet (`If-None-Match: *`).
    case absent
}

/// How a PUT went.
public enum PutOutcome: Sendable, Equatable {
    case created(ServedCardInfo)
    case updated(ServedCardInfo)
    /// The card said the same as the stored one: nothing changed.
    case unchanged(ServedCardInfo)
}

/// Why a write was refused, as the client hears it.
public enum ServedWriteError: Error, Sendable, Equatable {
    /// The condition did not hold: 412.
    case preconditionFailed(String)
    /// The body is no card that can be stored: 400 (or 415 for what is no vCard at all), with
    /// the line and why.
    case invalid(String)
    case unsupported(String)
    /// The card's UID belongs to another card, or a PUT would change a card's UID: 409.
    case uidConflict(String)
    case notFound(String)
}

/// The writes of the CardDAV face: a PUT is an edit (or a new contact) like any other, a
/// DELETE sends the contact to the trash.
public protocol WritableBooks: ServedBooks {
    /// `client` names who wrote (the User-Agent), for the history.
    func put(_ name: String, in book: String, body: [UInt8], condition: WriteCondition, client: String) throws -> PutOutcome
    func delete(_ name: String, in book: String, condition: WriteCondition, client: String) throws
    /// Names a book as clients show it (PROPPATCH `displayname`); nil gives back its own name.
    func setDisplayName(_ name: String?, of book: String) throws
}
