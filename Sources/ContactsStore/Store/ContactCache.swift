import ContactsCore
import Foundation

/// Recently read contacts, so that a client reading the same contacts again (a sync, a UI
/// showing a list) is answered without a database read.
///
/// Every committed write that touches a contact removes it, and moves the generation on. A
/// reader notes the generation before it reads the database and keeps what it read only if
/// no write committed meanwhile, so the cache never holds a contact older than the store.
final class ContactCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: (rowid: Int64, contact: Contact)] = [:]
    /// The id of each cached contact by its rowid: a search's page comes as rowids.
    private var ids: [Int64: String] = [:]
    private var order: [String] = []
    private var next = 0
    private var generation = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// How many contacts it holds.
    var count: Int { lock.withLock { entries.count } }

    func get(_ id: String) -> Contact? {
        lock.withLock { entries[id]?.contact }
    }

    func get(rowid: Int64) -> Contact? {
        lock.withLock { ids[rowid].flatMap { entries[$0]?.contact } }
    }

    /// The generation a reader notes before reading.
    var currentGeneration: Int {
        lock.lock()
        defer { lock.unlock() }
        return generation
    }

    /// Keeps a contact (stored at `rowid`) read at `generation`, unless a write committed since.
    func put(_ c: Contact, rowid: Int64, readAt generation: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard generation == self.generation else { return }
        if entries[c.id] == nil {
            // A ring of ids: the oldest entry makes room.
            if order.count < capacity {
                order.append(c.id)
            } else {
                remove(order[next])
                order[next] = c.id
                next = (next + 1) % capacity
            }
        }
        entries[c.id] = (rowid, c)
        ids[rowid] = c.id
    }

    private func remove(_ id: String) {
        guard let gone = entries.removeValue(forKey: id) else { return }
        if ids[gone.rowid] == id { ids[gone.rowid] = nil }
    }

    /// Lets go of every contact and the room they took (the store at rest).
    func empty() {
        lock.withLock {
            entries = [:]
            ids = [:]
            order = []
            next = 0
        }
    }

    /// After a commit: these contacts changed (nil: anything may have).
    func invalidate(_ changed: [String]?) {
        lock.lock()
        defer { lock.unlock() }
        generation += 1
        guard let changed else {
            entries.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            next = 0
            return
        }
        // Their ring slots stay; a slot whose id is gone is simply reused later.
        for id in changed { remove(id) }
    }
}
