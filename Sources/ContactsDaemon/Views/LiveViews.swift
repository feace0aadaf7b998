import ContactsAPI
import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation
import JSONCore
import JSONRPC

/// The views clients keep open (`views.open`): each a live query of the store whose changes
/// go to its connection as `view.changed`, with the contacts that entered the window and those
/// whose shown fields changed.
///
/// The store hands each change over under its write lock; everything else (reading the
/// contacts, telling which shown fields changed, writing the notification) happens on one
/// queue, in commit order, never holding up a writer. A connection that leaves what it is
/// sent unread is sent nothing more for its views until it has read it all; then each view
/// gets one `view.reset` (`RPCSession.offerNotification`), and the daemon holds nothing for
/// it meanwhile beyond the windows themselves.
final class LiveViews: @unchecked Sendable {
    /// One open view.
    final class View: @unchecked Sendable {
        let number: Int
        weak var session: RPCSession?
        var live: LiveQuery?
        /// Only these fields of each contact (nil: all).
        let fields: Contact.Fields?
        let excludeOrigin: String?
        /// The hash of each window member's shown fields, by rowid: `changed` only when it moves.
        var shown: [Int64: Int] = [:]
        /// Changes up to this state were read whole (`views.read`, or the open): not sent.
        var readState: Int64 = 0
        var total = 0
        /// The connection fell behind: a reset is owed once it has read what it was sent.
        var behind = false
        /// A reset was sent: nothing more until the client reads the view again.
        var awaitingRead = false
        var closed = false

        init(number: Int, session: RPCSession?, fields: Contact.Fields?, excludeOrigin: String?) {
            self.number = number
            self.session = session
            self.fields = fields
            self.excludeOrigin = excludeOrigin
        }

        /// Whether commits from `origin` are left out (`rpc`, or `import` for any `import:FILE`).
        func excludes(_ origin: String) -> Bool {
            guard let excludeOrigin else { return false }
            return origin == excludeOrigin || origin.hasPrefix(excludeOrigin + ":")
        }
    }

    let store: ContactStore
    private let queue = TaskQueue(label: "views")
    private var views: [Int: View] = [:]
    private var next = 1
    private var sessionsSeen = Set<Int>()

    init(store: ContactStore) { self.store = store }

    var count: Int { queue.sync { views.count } }

    /// Opens a view; the answer of `views.open`.
    func open(
        _ query: ContactQuery, fields: Contact.Fields?, since: ChangeCursor?, excludeOrigin: String?, session: RPCSession?
    ) throws -> JSONValue {
        try queue.sync {
            let view = View(number: next, session: session, fields: fields, excludeOrigin: excludeOrigin)
            next += 1
            let (live, resumed) = try store.openLiveQuery(query, since: since) { [weak self, weak view] change in
                guard let self, let view else { return }
                self.queue.async { self.deliver(change, to: view) }
            }
            view.live = live
            views[view.number] = view
            if let session, sessionsSeen.insert(session.sessionID).inserted {
                let id = session.sessionID
                session.onClose { [weak self] in self?.closeAll(of: id) }
            }
            let snapshot = store.snapshot(live)
            view.readState = snapshot.state
            view.total = snapshot.total
            let texts = try contactTexts(snapshot.members.map(\.rowid), view)
            view.shown = Dictionary(snapshot.members.compactMap { m in texts[m.rowid].map { (m.rowid, $0.hashValue) } }) { a, _ in a }
            var answer: JSONObject = [
                "view": .int(view.number), "state": .string(String(snapshot.state)), "total": .int(snapshot.total),
            ]
            if let resumed {
                answer["reset"] = false
                answer["removed"] = .array(resumed.removed.map { .string($0) })
                answer["added"] = .array(
                    resumed.added.map { p in
                        ["id": .string(p.id), "index": .int(p.index), "contact": texts[p.rowid].map { .encoded($0) } ?? .null]
                    })
            } else {
                if since != nil { answer["reset"] = true }
                answer["contacts"] = .array(snapshot.members.compactMap { m in texts[m.rowid].map { .encoded($0) } })
            }
            return .object(answer)
        }
    }

    /// The view's window as it is now; the answer of `views.read` (after a `view.reset`).
    func read(_ number: Int, session: RPCSession?) throws -> JSONValue {
        // The changes of the commits made before the call are delivered before its answer.
        store.awaitLiveQueries()
        return try queue.sync {
            guard let view = views[number], view.session === session, let live = view.live else { throw Self.unknown(number) }
            let snapshot = store.snapshot(live)
            let texts = try contactTexts(snapshot.members.map(\.rowid), view)
            view.readState = snapshot.state
            view.total = snapshot.total
            view.awaitingRead = false
            view.shown = Dictionary(snapshot.members.compactMap { m in texts[m.rowid].map { (m.rowid, $0.hashValue) } }) { a, _ in a }
            return [
                "view": .int(number), "state": .string(String(snapshot.state)), "total": .int(snapshot.total),
                "contacts": .array(snapshot.members.compactMap { m in texts[m.rowid].map { .encoded($0) } }),
            ]
        }
    }

    func close(_ number: Int, session: RPCSession?) throws {
        try queue.sync {
            guard let view = views[number], view.session === session else { throw Self.unknown(number) }
            closeLocked(view)
        }
    }

    /// Closes the views of a connection that closed.
    func closeAll(of sessionID: Int) {
        queue.async { [self] in
            sessionsSeen.remove(sessionID)
            for view in views.values where view.session == nil || view.session?.sessionID == sessionID { closeLocked(view) }
        }
    }

    private func closeLocked(_ view: View) {
        view.closed = true
        if let live = view.live { store.closeLiveQuery(live) }
        view.live = nil
        view.shown = [:]
        views[view.number] = nil
    }

    static func unknown(_ number: Int) -> RPCError {
        RPCError(.notFound, "No open view \(number) on this connection", data: ["view": .int(number)])
    }

    // MARK: Delivery (on the queue)

    private func deliver(_ change: LiveQueryChange, to view: View) {
        guard !view.closed, let session = view.session else { return }
        // Read whole since (an open or a read that came after the commit), or to be read again.
        if change.to <= view.readState || view.awaitingRead { return }
        if change.reset {
            view.shown = [:]
            view.total = change.total
            return send(reset: change.to, total: change.total, to: view, session)
        }
        for rowid in change.removedRowids { view.shown[rowid] = nil }
        let wanted = change.added.map(\.rowid) + change.touched.map(\.rowid)
        let texts = (try? contactTexts(wanted, view, at: change.to)) ?? [:]
        var changed: [JSONValue] = []
        for p in change.touched {
            guard let text = texts[p.rowid] else { continue }
            if view.shown.updateValue(text.hashValue, forKey: p.rowid) != text.hashValue {
                changed.append(["id": .string(p.id), "index": .int(p.index), "contact": .encoded(text)])
            }
        }
        var added: [JSONValue] = []
        for p in change.added {
            let text = texts[p.rowid]
            view.shown[p.rowid] = text?.hashValue
            added.append(["id": .string(p.id), "index": .int(p.index), "contact": text.map { .encoded($0) } ?? .null])
        }
        if view.behind || view.excludes(change.origin) { return }
        if change.removed.isEmpty && added.isEmpty && change.moved.isEmpty && changed.isEmpty && change.total == view.total { return }
        view.total = change.total
        let params: JSONValue = [
            "view": .int(view.number), "from": .string(String(change.from)), "to": .string(String(change.to)),
            "total": .int(change.total), "removed": .array(change.removed.map { .string($0) }), "added": .array(added),
            "moved": .array(change.moved.map { ["id": .string($0.id), "from": .int($0.from), "to": .int($0.to)] }),
            "changed": .array(changed),
        ]
        offer(ContactsAPI.Notification.viewChanged, params, to: view, session)
    }

    private func send(reset state: Int64, total: Int, to view: View, _ session: RPCSession) {
        if view.behind { return }
        view.awaitingRead = true
        offer(
            ContactsAPI.Notification.viewReset, ["view": .int(view.number), "state": .string(String(state)), "total": .int(total)],
            to: view,
            session)
    }

    private func offer(_ method: String, _ params: JSONValue, to view: View, _ session: RPCSession) {
        let sent = session.offerNotification(method: method, params: params) { [weak self, weak view] in
            guard let self, let view else { return }
            self.queue.async { self.caughtUp(view) }
        }
        if !sent { view.behind = true }
    }

    /// The connection read all it was sent: the view it fell behind on starts again from a reset.
    private func caughtUp(_ view: View) {
        guard !view.closed, view.behind, let session = view.session, let live = view.live else { return }
        view.behind = false
        view.shown = [:]
        let snapshot = store.snapshot(live)
        view.total = snapshot.total
        send(reset: snapshot.state, total: snapshot.total, to: view, session)
    }

    private func contactTexts(_ rowids: [Int64], _ view: View) throws -> [Int64: String] {
        try store.contactTexts(rowids: rowids, fields: view.fields ?? .all)
    }

    /// The contacts of one commit as views with these fields show them, read once for all the
    /// views the commit reaches (a hundred views of one edited contact read it once a set of fields).
    private var commitTexts: (state: Int64, byFields: [Contact.Fields: [Int64: String]]) = (-1, [:])

    private func contactTexts(_ rowids: [Int64], _ view: View, at state: Int64) throws -> [Int64: String] {
        if rowids.isEmpty { return [:] }
        if commitTexts.state != state {
            commitTexts = (state, [:])
            // Forgotten after the notifications of the commit queued so far (one queued later
            // reads again): nothing is kept at rest.
            queue.async { [self] in if commitTexts.state == state { commitTexts = (-1, [:]) } }
        }
        let fields = view.fields ?? .all
        var known = commitTexts.byFields[fields] ?? [:]
        let missing = rowids.filter { known[$0] == nil }
        if !missing.isEmpty {
            for (rowid, text) in try store.contactTexts(rowids: missing, fields: fields) { known[rowid] = text }
            commitTexts.byFields[fields] = known
        }
        var out: [Int64: String] = [:]
        for r in rowids { out[r] = known[r] }
        return out
    }
}
