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
                // Written as JSON text at once: a hundred addresses built as objects, then written,
                // cost as much again as reading them.
                let fields = AddressFields(request.fields)
                var addresses = JSONWriter(capacity: 64 + found.addresses.count * 96)
                addresses.writeRaw("[")
                for (i, a) in found.addresses.enumerated() {
                    if i > 0 { addresses.writeRaw(",") }
                    write(a, fields: fields, into: &addresses)
                }
                addresses.writeRaw("]")
                return ["total": .int(found.total), "addresses": .encoded(addresses.string)]
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
    static func write(_ a: RankedAddress, fields f: AddressFields, into w: inout JSONWriter) {
        var first = true
        func member(_ key: StaticString, _ wanted: Bool, _ value: (inout JSONWriter) -> Void) {
            guard wanted else { return }
            w.writeKey(key, first: &first)
            value(&w)
        }
        let s = a.statistics
        w.writeRaw("{")
        member("address", true) { $0.writeString(a.address) }
        member("name", f.name) { $0.writeString(a.name) }
        member("label", f.label) { $0.writeString(a.label) }
        member("contact", f.contact) { $0.writeString(a.contactID) }
        member("collected", f.collected) { $0.writeRaw(a.collected ? "true" : "false") }
        member("sent", f.sent) { $0.writeInt(s?.sent ?? 0) }
        member("received", f.received) { $0.writeInt(s?.received ?? 0) }
        member("lastSent", f.lastSent) { $0.writeString(s?.lastSent.map(Timestamp.format)) }
        member("lastReceived", f.lastReceived) { $0.writeString(s?.lastReceived.map(Timestamp.format)) }
        w.writeRaw("}")
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
