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
    private var entries: [String: Contact] = [:]
    private var order: [String] = []
    private var next = 0
    private var generation = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// How many contacts it holds.
    var count: Int { lock.withLock { entries.count } }

    func get(_ id: String) -> Contact? {
        lock.lock()
        defer { lock.unlock() }
        return entries[id]
    }

    /// The generation a reader notes before reading.
    var currentGeneration: Int {
        lock.lock()
        defer { lock.unlock() }
        return generation
    }

    /// Keeps a contact read at `generation`, unless a write committed since.
    func put(_ c: Contact, readAt generation: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard generation == self.generation else { return }
        if entries[c.id] == nil {
            // A ring of ids: the oldest entry makes room.
            if order.count < capacity {
                order.append(c.id)
            } else {
                entries[order[next]] = nil
                order[next] = c.id
                next = (next + 1) % capacity
            }
        }
        entries[c.id] = c
    }

    /// After a commit: these contacts changed (nil: anything may have).
    func invalidate(_ ids: [String]?) {
        lock.lock()
        defer { lock.unlock() }
        generation += 1
        guard let ids else {
            entries.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            next = 0
            return
        }
        // Their ring slots stay; a slot whose id is gone is simply reused later.
        for id in ids { entries[id] = nil }
    }
}
