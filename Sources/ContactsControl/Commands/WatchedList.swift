import JSONCore

/// A view's window as `contactsctl watch` keeps it: the contacts in order, brought up to date
/// by each `view.changed` (API.md, Live views).
struct WatchedList {
    /// What one change did, for the lines that tell it.
    enum Event: Equatable {
        case entered(name: String, place: Int)
        case left(name: String)
        case moved(name: String, from: Int, to: Int)
        case changed(name: String)
    }

    private(set) var contacts: [JSONValue] = []
    private(set) var total = 0
    /// Where the window starts in the whole list.
    let offset: Int

    init(offset: Int) { self.offset = offset }

    /// The window as `views.open` or `views.read` answered it.
    mutating func take(_ answer: JSONValue) {
        contacts = answer["contacts"]?.arrayValue ?? []
        total = answer["total"]?.intValue ?? contacts.count
    }

    /// Applies a `view.changed`; what it did, in the order the lines are best read.
    mutating func apply(_ change: JSONValue) -> [Event] {
        func id(_ v: JSONValue?) -> String { v?["id"]?.stringValue ?? "" }
        func name(_ c: JSONValue?) -> String { c?["name"]?.stringValue ?? id(c) }
        let removed = Set((change["removed"]?.arrayValue ?? []).compactMap(\.stringValue))
        let moves = change["moved"]?.arrayValue ?? []
        let movedIDs = Set(moves.map { id($0) })
        // What a contact shows now, when the change says (a renamed contact that moved shows
        // its new name on its move line, and no line of its own).
        var now: [String: JSONValue] = [:]
        for c in change["changed"]?.arrayValue ?? [] { now[id(c)] = c["contact"] }
        var events: [Event] = []
        var byID: [String: JSONValue] = [:]
        for c in contacts {
            let i = id(c)
            if removed.contains(i) { events.append(.left(name: name(c))) }
            if movedIDs.contains(i) { byID[i] = now[i] ?? c }
        }
        contacts.removeAll { removed.contains(id($0)) || movedIDs.contains(id($0)) }
        var inserts: [(index: Int, contact: JSONValue)] = []
        for a in change["added"]?.arrayValue ?? [] {
            let contact = a["contact"] ?? .null
            inserts.append((a["index"]?.intValue ?? 0, contact))
            events.append(.entered(name: name(contact), place: (a["index"]?.intValue ?? 0) + 1))
        }
        for m in moves {
            let contact = byID[id(m)] ?? ["id": .string(id(m))]
            inserts.append((m["to"]?.intValue ?? 0, contact))
            events.append(.moved(name: name(contact), from: (m["from"]?.intValue ?? 0) + 1, to: (m["to"]?.intValue ?? 0) + 1))
        }
        for (index, contact) in inserts.sorted(by: { $0.index < $1.index }) {
            contacts.insert(contact, at: min(max(index - offset, 0), contacts.count))
        }
        for c in change["changed"]?.arrayValue ?? [] where !movedIDs.contains(id(c)) {
            guard let contact = c["contact"], let at = contacts.firstIndex(where: { id($0) == id(c) }) else { continue }
            contacts[at] = contact
            events.append(.changed(name: name(contact)))
        }
        total = change["total"]?.intValue ?? total
        return events
    }
}
