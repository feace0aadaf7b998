/// What the CardDAV face serves, as the store gives it: books and their cards. The server
/// knows nothing of how they are kept; the daemon implements this over its store.
public protocol ServedBooks: Sendable {
    func books() throws -> [ServedBook]
    /// The cards of a book, or nil when there is no book of that name.
    func cards(in book: String) throws -> [ServedCardInfo]?
    /// One card as vCard text of the version asked, or nil when the book has none of that name.
    func card(_ name: String, in book: String, version: ServedVersion) throws -> ServedCard?
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

    public init(name: String, displayName: String, ctag: String) {
        self.name = name
        self.displayName = displayName
        self.ctag = ctag
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
