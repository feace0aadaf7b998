import ContactsCore

/// Why a store operation failed, in terms a client can act on.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// No contact or group with that id (or name).
    case notFound(kind: String, id: String)
    /// The stored revision differs from the one the client expected, or a name is taken.
    case conflict(message: String, id: String?, currentRevision: Int?)
    /// A value that cannot be accepted.
    case invalid(ContactError)
    /// The store cannot serve: a newer schema, a corrupt file, a full disk, a closed store.
    case unavailable(String)
    /// Anything else SQLite reported.
    case database(SQLiteError)
    /// The caller asked for the work to stop; nothing of it was kept.
    case cancelled
    /// An undo that later changes of these contacts or groups stand in the way of.
    case changedSince(message: String, ids: [String])
    /// A downloaded card with the UID of contact `id`, which another card of the same book
    /// (`href`) is already.
    case sameUID(uid: String, href: String, id: String)

    /// For `sameUID`, the other card's href.
    public var sameUIDHref: String? {
        if case .sameUID(_, let href, _) = self { return href }
        return nil
    }

    /// Whether `text` has the form of an id (a UUID) rather than of a name.
    static func looksLikeID(_ text: String) -> Bool {
        let u = Array(text.utf8)
        return u.count == 36
            && u.indices.allSatisfy { i in
                [8, 13, 18, 23].contains(i)
                    ? u[i] == UInt8(ascii: "-")
                    : (u[i] | 0x20) >= UInt8(ascii: "a") && (u[i] | 0x20) <= UInt8(ascii: "f") || (u[i] >= 0x30 && u[i] <= 0x39)
            }
    }

    public var description: String {
        switch self {
        case .notFound(let kind, let id):
            // A group is asked for by id or by name: a name is called one.
            kind == "group" && !Self.looksLikeID(id) ? "no group named '\(id)'" : "no \(kind) with id '\(id)'"
        case .conflict(let message, _, _): message
        case .invalid(let e): e.description
        case .unavailable(let m): m
        case .database(let e): e.description
        case .cancelled: "interrupted; nothing was changed"
        case .changedSince(let message, _): message
        case .sameUID(let uid, let href, _): "the book's card \(href) has the same UID '\(uid)'; this one is left on the server as it is"
        }
    }
}

/// What happened to one contact in a committed change.
public struct ContactChange: Sendable, Equatable {
    public enum Kind: String, Sendable { case created, updated, deleted }
    public var id: String
    public var kind: Kind
    public var revision: Int
}

/// What made a committed change, and the operation the history keeps it under (nil for a
/// change the history does not record, such as a restore of a backup).
public struct ChangeSource: Sendable, Equatable {
    public var origin: String
    public var operation: Int64?
    /// The store's state after the change (`ContactStore.changes(in:after:limit:)`); nil for
    /// a restore, after which no earlier state is answered.
    public var state: Int64?

    public init(origin: String, operation: Int64?, state: Int64? = nil) {
        self.origin = origin
        self.operation = operation
        self.state = state
    }
}

/// What happened to one group in a committed change.
public struct GroupChange: Sendable, Equatable {
    public enum Kind: String, Sendable { case created, updated, deleted }
    public var id: String
    public var kind: Kind
    public var name: String
}

/// A group of contacts.
public struct ContactGroup: Sendable, Equatable {
    public var id: String
    public var name: String
    public var memberCount: Int
}

/// A search over the store (`contacts.query`).
public struct ContactQuery: Sendable {
    public enum SortField: String, Sendable {
        case name, createdAt, updatedAt
        /// By mail: written to, heard from, never seen (`MailStatistics.rank`); ascending is
        /// the least first.
        case frequency
    }
    public struct Sort: Sendable {
        public var field: SortField
        public var ascending: Bool
        public init(_ field: SortField, ascending: Bool = true) {
            self.field = field
            self.ascending = ascending
        }
    }

    public var text: String?
    public var favoritesOnly = false
    /// A group id or name.
    public var group: String?
    /// Only the contacts of one sync account, or only those of this machine alone.
    public var account: AccountScope?
    public var collected = CollectedScope.excluded
    public var sort: [Sort] = [Sort(.name)]
    public var limit: Int?
    public var offset = 0

    public init(
        text: String? = nil, favoritesOnly: Bool = false, group: String? = nil, account: AccountScope? = nil, limit: Int? = nil,
        offset: Int = 0
    ) {
        self.text = text
        self.favoritesOnly = favoritesOnly
        self.group = group
        self.account = account
        self.limit = limit
        self.offset = offset
    }
}

/// Whether a query takes the contacts collected from mail.
public enum CollectedScope: String, Sendable, CaseIterable {
    /// Only the others (as lists, searches, views and exports do unless asked).
    case excluded
    /// Both.
    case included
    /// Only the collected ones.
    case only

    /// Whether a contact that is (or is not) collected is taken.
    public func admits(_ collected: Bool) -> Bool {
        switch self {
        case .excluded: !collected
        case .included: true
        case .only: collected
        }
    }
}

/// Which contacts a query takes by where they sync.
public enum AccountScope: Sendable, Equatable {
    /// The contacts of the account of that name.
    case account(String)
    /// The contacts no account has.
    case local
    /// The contacts collected from mail (no account has them).
    case collected

    /// The book its removals are kept under (`removals.book`): the account's name, '' for
    /// this machine's, and a name no account can have for the collected ones.
    var removalsBook: String {
        switch self {
        case .account(let name): name
        case .local: ""
        case .collected: "/collected"
        }
    }
}

/// One page of a query, with the count before paging.
public struct QueryResult: Sendable {
    public var total: Int
    public var contacts: [Contact]
}
