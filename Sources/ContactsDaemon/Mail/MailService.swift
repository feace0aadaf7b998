import ContactsAPI
import ContactsStore
import ContactsSupport
import Foundation
import MailHeaders

/// Messages' addresses into the store: which were written to and which heard from, by whose
/// message it is (the user's own addresses, `mail.me`), and never the user's own.
final class MailService: Sendable {
    let store: ContactStore
    private let me = Locked<Set<String>>([])

    init(store: ContactStore, me: [String] = []) {
        self.store = store
        setMe(me)
    }

    /// The user's own addresses (a reload may change them).
    func setMe(_ addresses: [String]) { me.withLock { $0 = Set(addresses.map(MailAddress.key)) } }

    /// Counts the messages: a message from the user (or any, when `sent`) counts its
    /// recipients as written to; another its From (with `all`, its Reply-To, To and Cc too) as
    /// heard from. The user's addresses are never counted.
    /// (With how many of the messages were the user's own.)
    func record(_ messages: [MailMessage], all: Bool, sent: Bool, origin: String = "mail") throws -> (MailRecording, fromUser: Int) {
        // The user's own card's addresses are the user's too.
        let myCard = (try? store.meContact()) ?? nil
        let card = Set((myCard?.emails ?? []).map { MailAddress.key($0.value) })
        let mine = me.withLock { $0 }.union(card)
        let now = Timestamp.now()
        let fromUser = messages.map { sent || Self.isFromUser($0, me: mine) }
        let sightings = zip(messages, fromUser).map { Self.sighting($0, fromUser: $1, me: mine, all: all, now: now) }
        return (try store.recordMail(sightings, origin: origin), fromUser.filter { $0 }.count)
    }

    /// Headers as bytes read (leniently, as a harvest reads them), a batch's parts at once;
    /// with where each unreadable one is and why.
    static func read(_ headers: [MailHeader]) -> (messages: [MailMessage], unreadable: [String]) {
        guard !headers.isEmpty else { return ([], []) }
        let parts = Parallel.chunks(headers.count, minimum: 64) { range in
            var messages: [MailMessage] = []
            var unreadable: [String] = []
            for h in headers[range] {
                do {
                    var m = try MessageReader.message(h.bytes, strict: false)
                    if m.date == nil { m.date = h.arrived }
                    messages.append(m)
                } catch {
                    unreadable.append(h.place.map { "\($0): \(error)" } ?? "\(error)")
                }
            }
            return (messages, unreadable)
        }
        return (parts.flatMap(\.0), parts.flatMap(\.1))
    }

    static func isFromUser(_ m: MailMessage, me: Set<String>) -> Bool { m.from.contains { me.contains(MailAddress.key($0.address)) } }

    /// What a message says of its people: a message from the user, whom it was written to; another, whom it was heard from.
    static func sighting(_ m: MailMessage, fromUser fromMe: Bool, me: Set<String>, all: Bool, now: Int64) -> MailSighting {
        func addresses(_ list: [MailMessage.Address]) -> [MailAddress] {
            list.map { MailAddress(address: $0.address, name: $0.name) }.filter { !me.contains($0.key) && $0.address.contains("@") }
        }
        var s = MailSighting(messageID: m.id, date: m.date ?? now)
        if fromMe {
            s.writtenTo = addresses(m.to + m.cc + m.bcc)
        } else {
            s.heardFrom = addresses(all ? m.from + m.replyTo + m.to + m.cc : m.from)
        }
        return s
    }
}
