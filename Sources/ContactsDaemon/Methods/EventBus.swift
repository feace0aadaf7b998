import ContactsAPI
import ContactsStore
import ContactsSupport
import Foundation
import JSONCore
import JSONRPC

/// Delivers committed changes to every subscribed connection. Delivery only queues the
/// message on the connection; a subscriber that stops reading is dropped by the transport.
final class EventBus: @unchecked Sendable {
    private let subscribers = Locked<[Int: RPCSession]>([:])

    func subscribe(_ session: RPCSession) {
        let isNew = subscribers.withLock { s in
            defer { s[session.sessionID] = session }
            return s[session.sessionID] == nil
        }
        if isNew {
            let id = session.sessionID
            session.onClose { [weak self] in self?.unsubscribe(id) }
        }
    }

    func unsubscribe(_ id: Int) {
        subscribers.withLock { $0[id] = nil }
    }

    var subscriberCount: Int { subscribers.withLock { $0.count } }

    func publish(method: String, params: JSONValue) {
        let targets = subscribers.withLock { Array($0.values) }
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
