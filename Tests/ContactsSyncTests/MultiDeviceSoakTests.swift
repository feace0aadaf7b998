import CardDAV
import ContactsCore
import ContactsStore
import ContactsSync
import Foundation
import TestSupport
import XCTest

/// Three devices on one real server, for several rounds: two stores syncing through proxies
/// that lose answers and say 503, and a webmail that writes with If-Match and now and then
/// moves a card to a name of its own. Every edit carries a marker of its own; at the end
/// both stores agree with each other and with the server, every email added is in its
/// contact (or the contact is in the trash), and every note or title written is in a contact
/// or in a contact's history (the value that lost a conflict). A failure names the seed that replays it
/// (`CONTACTSD_SOAK_SEED`).
final class MultiDeviceSoakTests: ScratchDirectoryTestCase {
    override var scratchPrefix: String { "soak" }

    /// A device with a store of its own, syncing through a proxy of its own.
    struct Device {
        var name: String
        var store: ContactStore
        var engine: SyncEngine
        var book: AddressBookClient
        var proxy: FaultProxy

        func sync() throws -> SyncReport { try engine.sync(try store.account(named: "dav"), with: book) }
    }

    func testDevicesThatEditApartWithFaultsConvergeAndLoseNoEdit() throws {
        let seed = ProcessInfo.processInfo.environment["CONTACTSD_SOAK_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        for kind in DAVServer.Kind.real {
            try soak(kind, seed: seed, rounds: 12)
        }
    }

    func soak(_ kind: DAVServer.Kind, seed: UInt64, rounds: Int) throws {
        var random = SplitMix(seed: seed)
        let server = try DAVServer(kind)
        defer { server.stop() }
        let tag = "\(kind) seed \(seed)"
        for i in 0..<5 { try server.put("seed\(i).vcf", card(uid: "seed-\(i)", name: "Person \(i)", extra: ["TEL:555-010\(i)"])) }
        var devices: [Device] = []
        for name in ["a", "b"] {
            let proxy = try FaultProxy(upstreamPort: server.port)
            let store = try ContactStore(path: "\(dir)/\(kind.rawValue)-\(name).sqlite3")
            let url = proxy.url(server.addressBook)
            try store.addAccount(SyncAccount(name: "dav", url: url.absoluteString, addressBookURL: url.absoluteString))
            let http = HTTPClient(
                credentials: .basic(user: server.user, password: server.password), for: proxy.url(server.root), timeout: 10)
            devices.append(
                Device(
                    name: name, store: store, engine: SyncEngine(store: store), book: AddressBookClient(url: url, http: http), proxy: proxy)
            )
        }
        defer {
            for d in devices {
                d.proxy.stop()
                d.store.close()
            }
        }
        for d in devices { _ = try d.sync() }
        var markers: [Marker] = []
        var counter = 0
        func marker(_ who: String) -> String {
            counter += 1
            return "m\(who)\(counter)x"
        }
        for _ in 0..<rounds {
            for d in devices {
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    if let m = try edit(d, marker(d.name), &random) { markers.append(m) }
                }
            }
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                if let m = try webmail(server, marker("w"), &random) { markers.append(m) }
            }
            for d in devices.shuffled(using: &random) {
                switch Int.random(in: 0..<6, using: &random) {
                case 0: d.proxy.inject(.unavailable(method: "PUT", retryAfter: "1"))
                case 1: d.proxy.inject(.loseAnswer(method: "PUT"))
                case 2: d.proxy.inject(.unavailable(method: "REPORT", retryAfter: "1"))
                case 3: d.proxy.inject(.loseAnswer(method: "DELETE"))
                default: break
                }
                do {
                    _ = try d.sync()
                } catch let e as DAVError where e.isTransient {
                    // The fault did its work; the next round goes on.
                }
            }
        }
        // Faults the syncs did not meet go; then everyone syncs until all is sent and seen.
        for d in devices { d.proxy.clearFaults() }
        for _ in 0..<2 {
            for d in devices {
                let r = try d.sync()
                XCTAssertEqual(r.errors, [], "\(tag): \(d.name): \(r)")
            }
        }
        let a = try state(devices[0].store)
        let b = try state(devices[1].store)
        XCTAssertEqual(a, b, "\(tag): the two stores agree")
        XCTAssertEqual(try devices[0].book.listing().count, a.count, "\(tag): the server has a card a contact")
        for d in devices { XCTAssertEqual(try d.store.pendingItems(account: "dav"), [], "\(tag): \(d.name) has nothing left to send") }
        let now = a.joined(separator: "\n") + (try devices.map { try trashed($0.store) }.joined(separator: "\n"))
        let seen = try devices.map { try everything($0.store) }.joined(separator: "\n")
        let deleted = Set(markers.compactMap(\.deleted))
        for m in markers where m.deleted == nil {
            let kept = m.list && !(m.uid.map { deleted.contains($0) } ?? false)
            guard !(kept ? now : seen).contains(m.text) else { continue }
            XCTFail("\(tag): the edit \(m.text) is \(kept ? "in no contact nor in the trash" : "in no contact and in no history")")
        }
    }

    /// One edit on a device: a note, a title or an email added to a random contact, now and then a
    /// new contact or a deletion. Returns the marker the edit wrote, if any.
    func edit(_ d: Device, _ m: String, _ random: inout SplitMix) throws -> Marker? {
        let contacts = try d.store.query(ContactQuery()).contacts
        let roll = Int.random(in: 0..<20, using: &random)
        if roll == 0 || contacts.isEmpty {
            let c = try d.store.create(Contact(name: "New \(m)"))
            _ = try d.store.addToAccount("dav", ids: [c.id]) { d.book.hrefForNewCard(uid: $0.uid) }
            return Marker(text: m, list: false)
        }
        let target = contacts[Int.random(in: 0..<contacts.count, using: &random)]
        if roll == 1 && contacts.count > 4 {
            _ = try d.store.delete(ids: [target.id])
            return Marker(text: "", list: false, deleted: target.uid)
        }
        _ = try d.store.update(id: target.id) { c in
            switch roll % 3 {
            case 0: c.note = "note \(m)"
            case 1: c.title = "title \(m)"
            default: c.emails.append(LabeledValue(value: "\(m)@example.org"))
            }
        }
        return Marker(text: m, list: roll % 3 == 2, uid: target.uid)
    }

    /// What the webmail does: reads a random card and writes it back changed with If-Match (a
    /// refusal is a write it did not make), or moves it to a name of its own.
    func webmail(_ server: DAVServer, _ m: String, _ random: inout SplitMix) throws -> Marker? {
        let listing = try server.request(
            "PROPFIND", server.addressBook, headers: ["Depth": "1", "Content-Type": "application/xml"],
            body: Data(#"<?xml version="1.0"?><propfind xmlns="DAV:"><prop><getetag/></prop></propfind>"#.utf8))
        let hrefs = String(decoding: listing.body, as: UTF8.self).components(separatedBy: "href>").compactMap { part -> String? in
            let href = part.prefix { $0 != "<" }
            return href.hasSuffix(".vcf") ? String(href) : nil
        }
        guard !hrefs.isEmpty, let base = URL(string: "/", relativeTo: server.addressBook) else { return nil }
        let href = hrefs[Int.random(in: 0..<hrefs.count, using: &random)]
        guard let url = URL(string: href, relativeTo: base)?.absoluteURL else { return nil }
        let got = try server.request("GET", url)
        guard got.status == 200, let etag = got.headers["etag"] else { return nil }
        var lines = Self.unfolded(String(decoding: got.body, as: UTF8.self))
        let uid = lines.first { $0.uppercased().hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        let roll = Int.random(in: 0..<7, using: &random)
        if roll < 3 {
            // The note is written anew with what it said and the marker (a webmail's own second
            // note before any device saw the first would otherwise take its marker away).
            let note = lines.first { $0.uppercased().hasPrefix("NOTE") }.flatMap { $0.split(separator: ":", maxSplits: 1).last }
            lines.removeAll { $0.uppercased().hasPrefix("NOTE") }
            lines.insert("NOTE:\(note.map { "\($0) " } ?? "")webmail \(m)", at: lines.count - 1)
        } else {
            lines.insert("EMAIL:\(m)@webmail.example", at: lines.count - 1)
        }
        let text = lines.joined(separator: "\r\n") + "\r\n"
        if roll == 6 {
            // Moved: deleted where it was, put under a name of its own with the same UID.
            guard try server.request("DELETE", url, headers: ["If-Match": etag]).status < 300 else { return nil }
            return try server.put("moved-\(m).vcf", text).status < 300 ? Marker(text: m, list: false, uid: uid) : nil
        }
        let put = try server.request(
            "PUT", url, headers: ["If-Match": etag, "Content-Type": "text/vcard; charset=utf-8"], body: Data(text.utf8))
        return put.status < 300 ? Marker(text: m, list: roll >= 3, uid: uid) : nil
    }

    /// Each contact of a store as the fields the devices edit, in one order.
    func state(_ store: ContactStore) throws -> [String] {
        try store.query(ContactQuery()).contacts.map { c in
            [
                c.uid, c.name, c.note ?? "", c.title ?? "", c.emails.map(\.value).sorted().joined(separator: ","),
                c.phones.map(\.value).sorted().joined(separator: ","),
            ]
            .joined(separator: "|")
        }.sorted()
    }

    /// The contacts in a store's trash, as text.
    func trashed(_ store: ContactStore) throws -> String {
        try store.trash().contacts.map { t in
            [t.contact.name, t.contact.note ?? "", t.contact.title ?? "", t.contact.emails.map(\.value).joined(separator: ",")].joined(
                separator: "|")
        }.joined(separator: "\n")
    }

    /// Every contact, in the store and in the trash, at every revision its history keeps, as text.
    func everything(_ store: ContactStore) throws -> String {
        let ids = try store.query(ContactQuery()).contacts.map(\.id) + store.trash().contacts.map(\.contact.id)
        var out = ""
        for id in ids {
            for entry in try store.history(id: id) {
                for revision in [entry.revision - 1, entry.revision] {
                    guard let c = try? store.contact(id: id, revision: revision) else { continue }
                    out +=
                        [c.name, c.note ?? "", c.title ?? "", c.emails.map(\.value).joined(separator: ",")].joined(separator: "|") + "\n"
                }
            }
            if let c = try? store.contact(id: id) {
                out += [c.name, c.note ?? "", c.title ?? "", c.emails.map(\.value).joined(separator: ",")].joined(separator: "|") + "\n"
            }
        }
        return out + (try trashed(store))
    }

    func card(uid: String, name: String, extra: [String]) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "FN:\(name)", "N:\(name);;;;"] + extra + ["END:VCARD"]).joined(separator: "\r\n")
            + "\r\n"
    }

    /// A card's lines, folded lines joined.
    static func unfolded(_ text: String) -> [String] {
        var lines: [String] = []
        // "\r\n" is one Character to Swift: lines are split on the scalars.
        for line in text.unicodeScalars.split(separator: "\n").map({ String(String.UnicodeScalarView($0)).trimmingCharacters(in: ["\r"]) })
        where !line.isEmpty {
            if line.first == " " || line.first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(line)
            }
        }
        return lines
    }
}

/// What one edit wrote: a value added to a list (kept by every merge) or a single value (which
/// may lose a conflict, and is then in history).
struct Marker {
    var text: String
    var list: Bool
    /// The contact it was written to, when known.
    var uid: String?
    /// A contact a device deleted, whose values are then kept by its history: an edit made
    /// elsewhere brings the contact back as that edit has it.
    var deleted: String?

    init(text: String, list: Bool, uid: String? = nil, deleted: String? = nil) {
        self.text = text
        self.list = list
        self.uid = uid
        self.deleted = deleted
    }
}
