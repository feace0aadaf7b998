import ContactsAPI
import ContactsStore
import Foundation
import JSONCore
import JSONRPC

/// Delivers committed changes to every subscribed connection. Delivery only queues the
/// message on the connection; a subscriber that stops reading is dropped by the transport.
final class EventBus: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [Int: RPCSession] = [:]

    func subscribe(_ session: RPCSession) {
        lock.lock()
        let isNew = subscribers[session.sessionID] == nil
        subscribers[session.sessionID] = session
        lock.unlock()
        if isNew {
            let id = session.sessionID
            session.onClose { [weak self] in self?.unsubscribe(id) }
        }
    }

    func unsubscribe(_ id: Int) {
        lock.lock()
        subscribers[id] = nil
        lock.unlock()
    }

    var subscriberCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return subscribers.count
    }

    func publish(method: String, params: JSONValue) {
        lock.lock()
        let targets = Array(subscribers.values)
        lock.unlock()
        for s in targets where !s.sendNotification(method: method, params: params) {
            unsubscribe(s.sessionID)
        }
    }

    /// The notifications of one commit; each says what made it (`origin`) and the operation
    /// the history keeps it under.
    func publish(contacts: [ContactChange], groups: [GroupChange], source: ChangeSource) {
        guard subscriberCount > 0 else { return }
        let operation: JSONValue = source.operation.map { .int($0) } ?? .null
        // The store's state after the commit (`changes.since` from it); null after a restore.
        let state: JSONValue = source.state.map { .string(String($0)) } ?? .null
        if !contacts.isEmpty {
            let changes = contacts.map { c -> JSONValue in
                ["id": .string(c.id), "change": .string(c.kind.rawValue), "revision": .int(c.revision)]
            }
            publish(
                method: ContactsAPI.Notification.contactsChanged,
                params: ["changes": .array(changes), "origin": .string(source.origin), "operation": operation, "state": state])
        }
        if !groups.isEmpty {
            let changes = groups.map { g -> JSONValue in
                ["id": .string(g.id), "change": .string(g.kind.rawValue), "name": .string(g.name)]
            }
            publish(
                method: ContactsAPI.Notification.groupsChanged,
                params: ["changes": .array(changes), "origin": .string(source.origin), "operation": operation, "state": state])
        }
    }
}
