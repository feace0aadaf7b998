import ContactsCore
import ContactsSupport

/// Recently read contacts, so that a client reading the same contacts again (a sync, a UI
/// showing a list) is answered without a database read.
///
/// Every committed write that touches a contact removes it, and moves the generation on. A
/// reader notes the generation before it reads the database and keeps what it read only if
/// no write committed meanwhile, so the cache never holds a contact older than the store.
final class ContactCache: Sendable {
    /// The contacts, a ring of their ids in the order they came, and the generation.
    private struct Contents {
        var entries: [String: (rowid: Int64, contact: Contact)] = [:]
        /// The id of each cached contact by its rowid: a search's page comes as rowids.
        var ids: [Int64: String] = [:]
        var order: [String] = []
        var next = 0
        var generation = 0

        mutating func remove(_ id: String) {
            guard let gone = entries.removeValue(forKey: id) else { return }
            if ids[gone.rowid] == id { ids[gone.rowid] = nil }
        }

        mutating func removeAll() {
            entries.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            next = 0
        }
    }

    private let contents = Locked(Contents())
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// How many contacts it holds.
    var count: Int { contents.withLock { $0.entries.count } }

    func get(_ id: String) -> Contact? {
        contents.withLock { $0.entries[id]?.contact }
    }

    func get(rowid: Int64) -> Contact? {
        contents.withLock { c in c.ids[rowid].flatMap { c.entries[$0]?.contact } }
    }

    /// The generation a reader notes before reading.
    var currentGeneration: Int { contents.withLock { $0.generation } }

    /// Keeps a contact (stored at `rowid`) read at `generation`, unless a write committed since.
    func put(_ contact: Contact, rowid: Int64, readAt generation: Int) {
        contents.withLock { c in
            guard generation == c.generation else { return }
            if c.entries[contact.id] == nil {
                // A ring of ids: the oldest entry makes room.
                if c.order.count < capacity {
                    c.order.append(contact.id)
                } else {
                    c.remove(c.order[c.next])
                    c.order[c.next] = contact.id
                    c.next = (c.next + 1) % capacity
                }
            }
            c.entries[contact.id] = (rowid, contact)
            c.ids[rowid] = contact.id
        }
    }

    /// Lets go of every contact and the room they took (the store at rest).
    func empty() {
        contents.withLock { c in
            let generation = c.generation
            c = Contents()
            c.generation = generation
        }
    }

    /// After a commit: these contacts changed (nil: anything may have).
    func invalidate(_ changed: [String]?) {
        contents.withLock { c in
            c.generation += 1
            guard let changed else { return c.removeAll() }
            // Their ring slots stay; a slot whose id is gone is simply reused later.
            for id in changed { c.remove(id) }
        }
    }
}
