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
                let found = try store.mailAddresses(matching: request.text, limit: request.limit)
                return ["total": .int(found.total), "addresses": .array(found.addresses.map(json))]
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

    static func json(_ a: RankedAddress) -> JSONValue {
        let s = a.statistics
        return [
            "address": .string(a.address), "name": .string(a.name), "label": a.label.map { .string($0) } ?? .null,
            "contact": .string(a.contactID), "collected": .bool(a.collected), "sent": .int(s?.sent ?? 0),
            "received": .int(s?.received ?? 0), "lastSent": s?.lastSent.map { .string(Timestamp.format($0)) } ?? .null,
            "lastReceived": s?.lastReceived.map { .string(Timestamp.format($0)) } ?? .null,
        ]
    }
}
