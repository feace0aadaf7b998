import ContactsSupport

/// What one sync of one account did.
public struct SyncReport: Sendable, Equatable {
    public struct Counts: Sendable, Equatable {
        public var created = 0
        public var updated = 0
        public var deleted = 0

        public init(created: Int = 0, updated: Int = 0, deleted: Int = 0) {
            self.created = created
            self.updated = updated
            self.deleted = deleted
        }
    }

    public struct Conflict: Sendable, Equatable {
        public var id: String
        public var fields: [String]
    }

    public struct CardError: Sendable, Equatable {
        public var href: String
        public var status: Int?
        public var message: String

        public init(href: String, status: Int?, message: String) {
            self.href = href
            self.status = status
            self.message = message
        }
    }

    public var account: String
    public var downloaded = Counts()
    public var uploaded = Counts()
    /// Contacts edited on both sides and merged.
    public var merged = 0
    public var conflicts: [Conflict] = []
    /// Deletions held back for confirmation (more than 10 and a quarter of the account's).
    public var held = 0
    public var errors: [CardError] = []
    public var requests = 0
    public var durationMs = 0

    public init(account: String) { self.account = account }

    /// Adds what `other` (a part of the same sync) did.
    mutating func add(_ other: SyncReport) {
        for (mine, theirs) in [(\Self.downloaded, other.downloaded), (\Self.uploaded, other.uploaded)] {
            self[keyPath: mine].created += theirs.created
            self[keyPath: mine].updated += theirs.updated
            self[keyPath: mine].deleted += theirs.deleted
        }
        merged += other.merged
        conflicts += other.conflicts
        held += other.held
        errors += other.errors
    }
}
