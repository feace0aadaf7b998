import CardDAVServer
import Foundation

/// Books kept in memory, as the daemon's `StoreBooks` keeps them in the store: cards by name,
/// an ETag per change, a change log for sync-collection, conditions checked, UIDs one a card.
/// What the CardDAV face is tested against without a daemon.
final class MemoryBooks: WritableBooks, @unchecked Sendable {
    struct Card {
        var uid: String
        var text: String
        var change: Int
    }

    private let lock = NSLock()
    private var cardsByBook: [String: [String: Card]]
    private var displayNames: [String: String] = [:]
    /// Each change: the book, the card's name, and whether it was removed.
    private var log: [(book: String, name: String, removed: Bool)] = []
    /// Who wrote each change, as the face told it.
    private(set) var writers: [String] = []
    /// Work `inParts` is given goes in this many parts (one after the other), as a host with
    /// threads cuts it.
    var parts = 1

    init(_ books: [String: [String: String]] = ["local": [:]]) {
        cardsByBook = [:]
        for (book, cards) in books {
            cardsByBook[book] = [:]
            for (name, text) in cards {
                log.append((book, name, false))
                cardsByBook[book]?[name] = Card(uid: Self.uid(text) ?? name, text: text, change: log.count)
            }
        }
    }

    func inParts<T: Sendable>(_ count: Int, minimum: Int, _ body: @escaping @Sendable (Range<Int>) -> T) -> [T] {
        guard count >= minimum, parts > 1 else { return [body(0..<count)] }
        let step = (count + parts - 1) / parts
        return (0..<parts).map { p in body(min(count, p * step)..<min(count, (p + 1) * step)) }
    }

    static func uid(_ text: String) -> String? {
        text.split(whereSeparator: \.isNewline).first { $0.uppercased().hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
    }

    private func info(_ name: String, _ c: Card) -> ServedCardInfo {
        ServedCardInfo(name: name, etag: "\"\(c.change)\"", lastModified: 1_700_000_000 + Int64(c.change))
    }

    func books() throws -> [ServedBook] {
        lock.withLock {
            cardsByBook.keys.sorted().map {
                ServedBook(name: $0, displayName: displayNames[$0] ?? $0, ctag: String(log.count), syncToken: "urn:test:\(log.count)")
            }
        }
    }

    func cards(in book: String) throws -> [ServedCardInfo]? {
        lock.withLock { cardsByBook[book].map { $0.sorted { $0.key < $1.key }.map { info($0.key, $0.value) } } }
    }

    func card(_ name: String, in book: String, version: ServedVersion) throws -> ServedCard? {
        lock.withLock {
            cardsByBook[book]?[name].map { c in
                ServedCard(info: info(name, c), text: c.text.replacingOccurrences(of: "VERSION:3.0", with: "VERSION:\(version.rawValue)"))
            }
        }
    }

    func changes(in book: String, since token: String?, limit: Int?) throws -> ServedSync {
        lock.withLock {
            guard let cards = cardsByBook[book] else { return .noBook }
            var after = 0
            if let token {
                guard token.hasPrefix("urn:test:"), let n = Int(token.dropFirst(9)), n <= log.count else { return .invalidToken }
                after = n
            }
            var changed: [String: Bool] = [:]
            for entry in log[after...] where entry.book == book && !entry.name.isEmpty { changed[entry.name] = entry.removed }
            let names = changed.keys.sorted()
            return .changes(
                ServedChanges(
                    changed: names.compactMap { n in cards[n].map { info(n, $0) } },
                    removed: token == nil ? [] : names.filter { cards[$0] == nil }, token: "urn:test:\(log.count)", truncated: false))
        }
    }

    func put(_ name: String, in book: String, body: [UInt8], condition: WriteCondition, client: String) throws -> PutOutcome {
        try lock.withLock {
            guard cardsByBook[book] != nil else { throw ServedWriteError.notFound("there is no book \(book)") }
            let text = String(decoding: body, as: UTF8.self)
            guard text.contains("BEGIN:VCARD"), let uid = Self.uid(text) else {
                throw ServedWriteError.invalid("line 1: no card with a UID")
            }
            let existing = cardsByBook[book]?[name]
            switch condition {
            case .absent where existing != nil: throw ServedWriteError.preconditionFailed("a card is at \(name) already")
            case .ifMatch(let tag) where existing.map({ info(name, $0).etag }) != tag && tag != "*":
                throw ServedWriteError.preconditionFailed("the card at \(name) changed")
            default: break
            }
            if let existing, existing.uid != uid { throw ServedWriteError.uidConflict("a PUT may not change a card's UID") }
            if existing == nil, cardsByBook.values.contains(where: { $0.values.contains { $0.uid == uid } }) {
                throw ServedWriteError.uidConflict("UID \(uid) is another card's")
            }
            if let existing, existing.text == text { return .unchanged(info(name, existing)) }
            writers.append(client)
            log.append((book, name, false))
            let card = Card(uid: uid, text: text, change: log.count)
            cardsByBook[book]?[name] = card
            return existing == nil ? .created(info(name, card)) : .updated(info(name, card))
        }
    }

    func delete(_ name: String, in book: String, condition: WriteCondition, client: String) throws {
        try lock.withLock {
            guard let existing = cardsByBook[book]?[name] else { throw ServedWriteError.notFound("no card \(name)") }
            if case .ifMatch(let tag) = condition, tag != info(name, existing).etag {
                throw ServedWriteError.preconditionFailed("the card at \(name) changed")
            }
            writers.append(client)
            cardsByBook[book]?[name] = nil
            log.append((book, name, true))
        }
    }

    func setDisplayName(_ name: String?, of book: String) throws {
        lock.withLock {
            displayNames[book] = name
            log.append((book, "", false))
        }
    }
}

/// The same books, offered for reading alone.
struct ReadOnlyBooks: ServedBooks {
    let inner: MemoryBooks
    func books() throws -> [ServedBook] { try inner.books() }
    func cards(in book: String) throws -> [ServedCardInfo]? { try inner.cards(in: book) }
    func card(_ name: String, in book: String, version: ServedVersion) throws -> ServedCard? {
        try inner.card(name, in: book, version: version)
    }
}
