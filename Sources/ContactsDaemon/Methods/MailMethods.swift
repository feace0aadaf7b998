import ContactsAPI
import ContactsCore
import ContactsStore
import ContactsSupport
import JSONCore
import JSONRPC
import MailHeaders

/// Addresses from mail: counted and collected (`mail.add`), completed (`mail.query`), kept.
enum MailMethods {
    static func all(store: ContactStore, mail: MailService) -> [RPCMethod] {
        [
            RPCMethod(MailAdd.self) { request, _ in
                let read = MailService.read(request.headers)
                let (r, fromUser) = try mail.record(request.messages + read.messages, all: request.all, sent: request.sent)
                return .object(
                    .present([
                        "messages": .int(r.messages), "repeated": .int(r.repeated), "addresses": .int(r.addresses),
                        "collected": .array(r.collected.map { .string($0) }), "fromUser": .int(fromUser),
                        "unreadable": .int(read.unreadable.count),
                        "unreadableExamples": read.unreadable.isEmpty
                            ? nil : .array(read.unreadable.prefix(MailAdd.unreadableExamples).map { .string($0) }),
                    ]))
            },
            RPCMethod(MailRead.self) { request, _ in
                do {
                    return ["message": try MessageReader.message(request.header, strict: true).json]
                } catch let e as MailReadError {
                    throw RPCError(
                        .invalidData, "cannot read the message: \(e)",
                        data: .object(.present(["header": e.header.map { .string($0) }, "line": e.line.map { .int($0) }])))
                }
            },
            RPCMethod(MailQuery.self) { request, _ in
                // The counts and dates are read only when asked for (query-email does not).
                let counts = request.fields.map { !$0.isDisjoint(with: MailQuery.countFields) } ?? true
                let found = try store.mailAddresses(matching: request.text, limit: request.limit, statistics: counts)
                return ["total": .int(found.total), "addresses": .array(found.addresses.map { json($0, fields: request.fields) })]
            },
            RPCMethod(ContactsKeep.self) { request, _ in try store.keep(id: request.target.id).json },
            RPCMethod(ContactsMe.self) { request, _ in
                switch request.change {
                case .none: break
                case .set(let id): try store.setMeContact(id: id)
                case .clear: try store.setMeContact(id: nil)
                }
                return ["me": try store.meContact()?.json ?? .null]
            },
        ]
    }

    /// A ranked address as the API shows it: every field, or those `fields` names.
    static func json(_ a: RankedAddress, fields: Set<String>? = nil) -> JSONValue {
        func wants(_ key: String) -> Bool { fields?.contains(key) ?? true }
        let s = a.statistics
        var o: JSONObject = ["address": .string(a.address)]
        if wants("name") { o["name"] = .string(a.name) }
        if wants("label") { o["label"] = a.label.map { .string($0) } ?? .null }
        if wants("contact") { o["contact"] = .string(a.contactID) }
        if wants("collected") { o["collected"] = .bool(a.collected) }
        if wants("sent") { o["sent"] = .int(s?.sent ?? 0) }
        if wants("received") { o["received"] = .int(s?.received ?? 0) }
        if wants("lastSent") { o["lastSent"] = s?.lastSent.map { .string(Timestamp.format($0)) } ?? .null }
        if wants("lastReceived") { o["lastReceived"] = s?.lastReceived.map { .string(Timestamp.format($0)) } ?? .null }
        return .object(o)
    }
}
