import CardDAV
import ContactsCore
import ContactsStore
import Foundation
import VCard

/// The book's group cards (`KIND:group` + `MEMBER`; Apple's `X-ADDRESSBOOKSERVER-KIND` +
/// `-MEMBER`, as iCloud and Fastmail keep groups): groups here, and what changes here goes
/// back as the same kind of card, every other property of it kept.
extension SyncEngine {
    /// A downloaded card that is a group card, read as one; nil for any other card.
    static func groupCard(_ card: RemoteCard) -> GroupCardDownload? {
        // Most cards are people: a look at the bytes spares them a second parse.
        guard mentionsGroupKind(card.data),
            let parsed = VCardParser.parse([UInt8](card.data)).cards.first, isGroupCard(parsed)
        else { return nil }
        let name = parsed.first("FN")?.text.trimmingCharacters(in: .whitespaces) ?? ""
        let members = (parsed.all("MEMBER") + parsed.all("X-ADDRESSBOOKSERVER-MEMBER")).map(\.text)
        return GroupCardDownload(
            href: card.href, etag: card.etag, card: String(decoding: card.data, as: UTF8.self), name: name.isEmpty ? "Unnamed group" : name,
            memberUIDs: members)
    }

    /// Whether the bytes hold `KIND:group` in any case (`X-ADDRESSBOOKSERVER-KIND:group` too),
    /// read without making a string of a card that may carry a photo.
    static func mentionsGroupKind(_ data: Data) -> Bool {
        let needle = Array("kind:group".utf8)
        return data.withUnsafeBytes { raw -> Bool in
            guard raw.count >= needle.count else { return false }
            var i = 0
            while i <= raw.count - needle.count {
                var j = 0
                // Letters compare in lower case; ':' is the same either way.
                while j < needle.count && raw[i + j] | 0x20 == needle[j] { j += 1 }
                if j == needle.count { return true }
                i += 1
            }
            return false
        }
    }

    /// Sends what changed here in the groups the book keeps as cards: a renamed group or one
    /// whose members (among the account's contacts) changed goes up with `If-Match`, a group
    /// deleted here is deleted there, and a new group with members in the account becomes a
    /// new card, in the style of the book's other group cards. A book without group cards
    /// keeps groups as `CATEGORIES` on each card, and nothing is done here.
    func uploadGroupCards(_ account: SyncAccount, _ backend: some SyncBackend, _ report: inout SyncReport) throws {
        let states = try store.groupCardStates(account: account.name)
        guard let example = states.compactMap({ $0.item?.card }).first else { return }
        let apple = example.uppercased().contains("X-ADDRESSBOOKSERVER-KIND")
        for state in states {
            guard let name = state.name else {
                // Deleted here.
                guard let item = state.item else { continue }
                if case .written = try backend.delete(item.href, etag: item.etag) {
                    try store.forgetItem(account: account.name, href: item.href)
                    report.uploaded.deleted += 1
                }
                continue
            }
            let item = state.item
            guard let text = Self.groupCardText(item?.card, name: name, members: state.memberUIDs, apple: apple) else { continue }
            let href = item?.href ?? backend.hrefForNewCard(uid: UUID().uuidString.lowercased())
            switch Self.attempt({ () throws(DAVError) in try backend.put(href, Data(text.utf8), etag: item?.etag) }) {
            case .success(.written(let at, var etag)):
                if etag == nil { etag = try backend.get(at)?.etag }
                try store.recordUpload(
                    account: account.name,
                    SyncItem(href: at, contactID: nil, etag: etag, card: text, syncedRevision: nil, groupID: state.groupID),
                    previousHref: href)
                if item == nil { report.uploaded.created += 1 } else { report.uploaded.updated += 1 }
            case .success(.preconditionFailed):
                // Changed there meanwhile: the next sync brings it, and this goes again after.
                report.errors.append(
                    SyncReport.CardError(
                        href: href, status: 412, message: "group '\(name)' changed on the server; the next sync tries again"))
            case .failure(let e) where e.isTransient: throw e
            case .failure(let e):
                report.errors.append(SyncReport.CardError(href: href, status: e.status, message: "group '\(name)': \(e.description)"))
            }
        }
    }

    /// The card a group goes up as: the book's card with its name and members made these
    /// (every other property kept), or a new card; nil when the book's card says so already.
    static func groupCardText(_ card: String?, name: String, members: [String], apple: Bool) -> String? {
        let memberValues = members.map { $0.lowercased().hasPrefix("urn:uuid:") ? $0 : "urn:uuid:" + $0 }
        guard let card, let parsed = VCardParser.parse(Array(card.utf8)).cards.first else {
            // A new card, in the book's style.
            var props: [VCardProperty] = [
                VCardProperty(name: "UID", value: .raw(UUID().uuidString.lowercased())), VCardProperty(name: "FN", value: .raw(name)),
            ]
            if apple {
                props.append(VCardProperty(name: "N", value: .raw(name)))
                props.append(VCardProperty(name: "X-ADDRESSBOOKSERVER-KIND", value: .raw("group")))
                props += memberValues.map { VCardProperty(name: "X-ADDRESSBOOKSERVER-MEMBER", value: .raw($0)) }
            } else {
                props.append(VCardProperty(name: "KIND", value: .raw("group")))
                props += memberValues.map { VCardProperty(name: "MEMBER", value: .raw($0)) }
            }
            var text = ""
            VCardWriter.write(VCard(properties: props), version: apple ? .v3 : .v4, into: &text)
            return text
        }
        let memberName =
            parsed.has("X-ADDRESSBOOKSERVER-MEMBER") || parsed.has("X-ADDRESSBOOKSERVER-KIND") ? "X-ADDRESSBOOKSERVER-MEMBER" : "MEMBER"
        let had = Set((parsed.all("MEMBER") + parsed.all("X-ADDRESSBOOKSERVER-MEMBER")).map { ContactStore.bareUID($0.text) })
        if parsed.first("FN")?.text == name && had == Set(members.map(ContactStore.bareUID)) { return nil }
        var props = parsed.properties.filter { !["FN", "MEMBER", "X-ADDRESSBOOKSERVER-MEMBER", "VERSION"].contains($0.name.uppercased()) }
        props.insert(VCardProperty(name: "FN", value: .raw(name)), at: 0)
        props += memberValues.map { VCardProperty(name: memberName, value: .raw($0)) }
        let version: VCardWriter.Version = parsed.first("VERSION")?.text.hasPrefix("4") == true ? .v4 : .v3
        var text = ""
        VCardWriter.write(VCard(properties: props), version: version, into: &text)
        return text
    }
}
