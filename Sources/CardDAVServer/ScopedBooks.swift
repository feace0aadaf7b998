/// Books as one client may see them: only those named (every book when none are), and
/// nothing else, as if the others were not there (404). `ScopedBooks.view` makes the view a
/// client gets: read-only, or writable with every write made in the client's name.
public struct ScopedBooks: ServedBooks {
    let inner: ServedBooks
    /// The books it sees; nil: all.
    let visible: Set<String>?

    /// The view of `books` a client gets: those in `visible` (nil: all), writable when
    /// `readOnly` is false and the books are, each write recorded as made by `client`.
    public static func view(of books: ServedBooks, visible: Set<String>?, readOnly: Bool, client: String) -> ServedBooks {
        let scoped = ScopedBooks(inner: books, visible: visible)
        guard !readOnly, let writable = books as? WritableBooks else { return scoped }
        return WritableScopedBooks(scoped: scoped, inner: writable, client: client)
    }

    func sees(_ book: String) -> Bool { visible?.contains(book) ?? true }

    public func books() throws -> [ServedBook] { try inner.books().filter { sees($0.name) } }

    public func book(named name: String) throws -> ServedBook? { sees(name) ? try inner.book(named: name) : nil }

    public func cards(in book: String) throws -> [ServedCardInfo]? { sees(book) ? try inner.cards(in: book) : nil }

    public func card(_ name: String, in book: String, version: ServedVersion) throws -> ServedCard? {
        sees(book) ? try inner.card(name, in: book, version: version) : nil
    }

    public func candidates(in book: String, containing text: String) throws -> [String]? {
        sees(book) ? try inner.candidates(in: book, containing: text) : []
    }

    public func cards(_ names: [String], in book: String, version: ServedVersion) throws -> [String: ServedCard] {
        sees(book) ? try inner.cards(names, in: book, version: version) : [:]
    }

    public func cardInfo(_ name: String, in book: String) throws -> ServedCardInfo? {
        sees(book) ? try inner.cardInfo(name, in: book) : nil
    }

    public func changes(in book: String, since token: String?, limit: Int?) throws -> ServedSync {
        sees(book) ? try inner.changes(in: book, since: token, limit: limit) : .noBook
    }

    public func inParts<T: Sendable>(_ count: Int, minimum: Int, _ body: @escaping @Sendable (Range<Int>) -> T) -> [T] {
        inner.inParts(count, minimum: minimum, body)
    }
}

/// A client's writable view: what `ScopedBooks` shows, and writes to those books alone, in
/// the client's name (whatever its User-Agent says).
struct WritableScopedBooks: WritableBooks {
    let scoped: ScopedBooks
    let inner: WritableBooks
    let client: String

    func books() throws -> [ServedBook] { try scoped.books() }
    func book(named name: String) throws -> ServedBook? { try scoped.book(named: name) }
    func cards(in book: String) throws -> [ServedCardInfo]? { try scoped.cards(in: book) }
    func card(_ name: String, in book: String, version: ServedVersion) throws -> ServedCard? {
        try scoped.card(name, in: book, version: version)
    }
    func candidates(in book: String, containing text: String) throws -> [String]? { try scoped.candidates(in: book, containing: text) }
    func cards(_ names: [String], in book: String, version: ServedVersion) throws -> [String: ServedCard] {
        try scoped.cards(names, in: book, version: version)
    }
    func cardInfo(_ name: String, in book: String) throws -> ServedCardInfo? { try scoped.cardInfo(name, in: book) }
    func changes(in book: String, since token: String?, limit: Int?) throws -> ServedSync {
        try scoped.changes(in: book, since: token, limit: limit)
    }
    func inParts<T: Sendable>(_ count: Int, minimum: Int, _ body: @escaping @Sendable (Range<Int>) -> T) -> [T] {
        scoped.inParts(count, minimum: minimum, body)
    }

    func put(_ name: String, in book: String, body: [UInt8], condition: WriteCondition, client _: String) throws -> PutOutcome {
        guard scoped.sees(book) else { throw ServedWriteError.notFound("there is no book \(book)") }
        return try inner.put(name, in: book, body: body, condition: condition, client: client)
    }

    func delete(_ name: String, in book: String, condition: WriteCondition, client _: String) throws {
        guard scoped.sees(book) else { throw ServedWriteError.notFound("there is no book \(book)") }
        try inner.delete(name, in: book, condition: condition, client: client)
    }

    func setDisplayName(_ name: String?, of book: String) throws {
        guard scoped.sees(book) else { throw ServedWriteError.notFound("there is no book \(book)") }
        try inner.setDisplayName(name, of: book)
    }
}
