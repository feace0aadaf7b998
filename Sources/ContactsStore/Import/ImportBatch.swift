import ContactsCore

/// A contact arriving from a file, and which of the contact's own attributes the file speaks for.
public struct ImportItem: Sendable {
    public var contact: Contact
    /// The card named its groups (CATEGORIES); otherwise a stored contact keeps its groups.
    public var carriesGroups: Bool
    /// The card said whether it is a favorite; otherwise a stored contact keeps its state.
    public var carriesFavorite: Bool
    /// The bytes of the contact's photo, when the card carried them inline.
    public var photo: PhotoData?
    /// When set, the write happens only if the stored contact of that UID is at this
    /// revision, or, 0, only if there is none (a client's If-Match or If-None-Match: *,
    /// checked in the import's transaction); otherwise the import fails with a conflict.
    public var ifRevision: Int?

    public init(contact: Contact, carriesGroups: Bool, carriesFavorite: Bool, photo: PhotoData? = nil) {
        self.contact = contact
        self.carriesGroups = carriesGroups
        self.carriesFavorite = carriesFavorite
        self.photo = photo
    }
}

/// A group card of an import (vCard `KIND:group`): its name and its members' UIDs.
public struct ImportGroup: Sendable {
    public var name: String
    public var memberUIDs: [String]

    /// Refuses a name no group may have, as `createGroup` does.
    public init(name: String, memberUIDs: [String]) throws {
        self.name = try ContactStore.validGroupName(name)
        self.memberUIDs = memberUIDs
    }
}

/// Contacts and groups of an import with what the contacts' rows will hold, worked out from
/// the contacts alone on whichever thread makes the batch, ahead of the transaction.
public struct ImportBatch: Sendable {
    /// Variables only so that the store can reach each item and row in place (`inout`): read
    /// through a buffer pointer, each would be copied, parts and all, for every call it is
    /// passed to.
    public internal(set) var items: [ImportItem]
    public let groups: [ImportGroup]
    var rows: [ContactStore.PreparedRow]

    /// `keyPhonesLater`: the import is large (`ImportBatch.keysPhonesLater(importing:)`): its
    /// phones are read as numbers right after it, in the background.
    public init(items: [ImportItem], groups: [ImportGroup] = [], keyPhonesLater: Bool = false) {
        var rows: [ContactStore.PreparedRow] = []
        rows.reserveCapacity(items.count)
        // By index through a buffer pointer, so that no item is copied (`map` would).
        items.withUnsafeBufferPointer { items in
            for k in items.indices { rows.append(ContactStore.PreparedRow(new: items[k].contact, keyPhonesLater: keyPhonesLater)) }
        }
        self.items = items
        self.groups = groups
        self.rows = rows
    }
}

extension ImportBatch {
    /// Whether an import of about `count` contacts leaves their phones unkeyed and reads them
    /// as numbers after it: reading each number (libphonenumber's regular expressions, some
    /// 20 µs) would make a large import half as slow again.
    public static func keysPhonesLater(importing count: Int) -> Bool { count > 1000 }
}

/// What hands an import its batches, in order. The store gives each batch back once it is
/// done with it, before it asks for the next, so that a source can let go of it where it likes
/// (the thread that made it).
public protocol ImportBatchSource {
    /// About how many contacts will come: chooses how the transaction goes about a large import.
    var expectedCount: Int { get }
    /// The next batch, nil after the last; an error rolls the whole import back. The source
    /// keeps no part of it: the store reaches into it in place.
    mutating func next() throws -> ImportBatch?
    /// The store is done with `batch` (by default it is let go of where the store is).
    mutating func finished(_ batch: consuming ImportBatch)
    /// Asked every 500 contacts: yes rolls the import back (`StoreError.cancelled`).
    func isCancelled() -> Bool
    /// Told every 1000 contacts how many are in.
    func stored(_ count: Int)
}

extension ImportBatchSource {
    public mutating func finished(_ batch: consuming ImportBatch) {}
    public func isCancelled() -> Bool { false }
    public func stored(_ count: Int) {}
}

/// What importing one item did.
public enum ImportOutcome: Sendable, Equatable {
    case created(id: String)
    case updated(id: String)
    case unchanged(id: String)
}

/// What an import stored: an outcome for each contact in the order they came, and how many
/// group cards.
public struct ImportResult: Sendable {
    public var contacts: [ImportOutcome]
    public var groups: Int
}
