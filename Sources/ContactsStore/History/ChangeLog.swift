import ContactsCore

/// Changes made inside one transaction.
struct ChangeLog {
    var contacts: [ContactChange] = []
    var groups: [GroupChange] = []
    private var positions: [String: Int] = [:]
    /// What the search index must learn once the transaction commits.
    var indexUpserts: [SearchIndex.Entry] = []
    /// Rowids of contacts deleted, and of contacts whose row changed outside the typed path
    /// (a group change moved their timestamps).
    var indexDeletes: Set<Int64> = []
    var indexRefresh: Set<Int64> = []
    /// Contacts whose search text alone changed (their phones read as numbers).
    var indexTexts: [Int64: [UInt8]] = [:]
    /// Photos a contact stopped referring to: removed after the commit if nobody else does.
    var releasedPhotos: Set<String> = []
    /// What made the change (`rpc`, `import:FILE`, `undo`, ...), and the operation that
    /// records it in the history, once the first change has been recorded, and when that was.
    var origin = "rpc"
    var operation: Int64?
    var operationAt: Int64 = 0
    /// The operation this one undoes (an undo; a redo undoes an undo).
    var undoes: Int64?
    /// Contacts back from the trash: "created" to clients, "restored" in the history's words.
    var restored: Set<String> = []
    /// The store's commit sequence number this transaction takes (`CommitState`).
    var state: Int64 = 0
    var keepsHistory = true
    /// An import left phones unkeyed, to be read as numbers after the commit; their tails
    /// (`WaitingPhoneTails.entry`), and false if one did not fit.
    var phonesKeyedLater = false
    var waitingTails: [UInt64] = []
    var waitingTailsKept = true
    /// Contacts joined or left a sync account: what the cache holds of their account is old.
    var accountsChanged = false
    /// A contact joined or left a group (what a live query of a group matched is old).
    var membershipsChanged = false
    var isEmpty: Bool { contacts.isEmpty && groups.isEmpty }

    /// How many of `contacts` `positions` covers.
    private var positioned = 0

    /// A contact just inserted with a fresh id, which no earlier entry can name. (An import of
    /// many new contacts then builds no table of positions at all.)
    mutating func created(_ id: String) {
        contacts.append(ContactChange(id: id, kind: .created, revision: 1))
    }

    mutating func contact(_ id: String, _ kind: ContactChange.Kind, _ revision: Int) {
        while positioned < contacts.count {
            positions[contacts[positioned].id] = positioned
            positioned += 1
        }
        if let i = positions[id] {
            contacts[i].revision = revision
            if contacts[i].kind == .created && kind == .updated { return }
            contacts[i].kind = kind
        } else {
            positions[id] = contacts.count
            contacts.append(ContactChange(id: id, kind: kind, revision: revision))
            positioned += 1
        }
    }
}
