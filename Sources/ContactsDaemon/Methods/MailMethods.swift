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
                let fields = AddressFields(request.fields)
                return ["total": .int(found.total), "addresses": .array(found.addresses.map { json($0, fields: fields) })]
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

    /// A ranked address as the API shows it: the fields asked for.
    static func json(_ a: RankedAddress, fields f: AddressFields = AddressFields(nil)) -> JSONValue {
        let s = a.statistics
        var o: JSONObject = ["address": .string(a.address)]
        if f.name { o["name"] = .string(a.name) }
        if f.label { o["label"] = a.label.map { .string($0) } ?? .null }
        if f.contact { o["contact"] = .string(a.contactID) }
        if f.collected { o["collected"] = .bool(a.collected) }
        if f.sent { o["sent"] = .int(s?.sent ?? 0) }
        if f.received { o["received"] = .int(s?.received ?? 0) }
        if f.lastSent { o["lastSent"] = s?.lastSent.map { .string(Timestamp.format($0)) } ?? .null }
        if f.lastReceived { o["lastReceived"] = s?.lastReceived.map { .string(Timestamp.format($0)) } ?? .null }
        return .object(o)
    }

    /// Which fields of each address an answer holds (`fields`, nil: all), looked up once for
    /// all of its addresses.
    struct AddressFields {
        let name, label, contact, collected, sent, received, lastSent, lastReceived: Bool

        init(_ fields: Set<String>?) {
            func has(_ field: String) -> Bool { fields?.contains(field) ?? true }
            (name, label, contact, collected) = (has("name"), has("label"), has("contact"), has("collected"))
            (sent, received, lastSent, lastReceived) = (has("sent"), has("received"), has("lastSent"), has("lastReceived"))
        }
    }
}
