import CardDAV
import ContactsCore
import ContactsStore
import ContactsSync
import Foundation
import JSONCore
import TestSupport
import XCTest

@testable import GooglePeople

/// GOOGLE.md's soak: two stores on one Google account and a "phone" editing the account
/// through the API make random edits, deletions, label changes and stars for 30 rounds, with
/// 429s and 503s injected and one of the stores offline in some rounds; at the end all three
/// hold the same people, labels and stars, no one twice, and no one gone who was not deleted.
final class PeopleSoakTests: ScratchDirectoryTestCase {
    override var scratchPrefix: String { "people-soak" }

    /// A small generator with a seed, so that a failing run can be run again as it was.
    struct Dice {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(n))
        }
        mutating func chance(_ percent: Int) -> Bool { next(100) < percent }
    }

    struct Side {
        let name: String
        let store: ContactStore
        let backend: () -> PeopleBackend
    }

    func side(_ name: String, _ server: PeopleServer) throws -> Side {
        let store = try ContactStore(path: dir + "/\(name).sqlite3")
        var account = SyncAccount(name: "google", url: server.root.absoluteString, addressBookURL: server.root.absoluteString)
        account.peopleAPI = true
        try store.addAccount(account)
        let labels = dir + "/\(name).labels.json"
        return Side(name: name, store: store) {
            PeopleBackend(
                client: PeopleClient(
                    root: server.root, http: HTTPClient(credentials: .bearer(server.token), for: server.root, timeout: 10)),
                labelsFile: labels, labelsFreshFor: 0, localGroups: { Set((try? store.groups().map(\.name)) ?? []) })
        }
    }

    @discardableResult
    func sync(_ s: Side) -> Result<SyncReport, Error> {
        Result { try SyncEngine(store: s.store).sync(try s.store.account(named: "google"), with: s.backend()) }
    }

    /// What a contact is, for comparing the three sides: the fields all three keep.
    struct Seen: Hashable, CustomStringConvertible {
        var name: String
        var note: String
        var emails: [String]
        var favorite: Bool
        var groups: [String]
        var description: String { "\(name) [\(note)] \(emails) \(favorite ? "★" : "") \(groups)" }
    }

    func seen(_ c: Contact) -> Seen {
        Seen(name: c.name, note: c.note ?? "", emails: c.emails.map(\.value).sorted(), favorite: c.favorite, groups: c.groups.sorted())
    }

    func seen(_ store: ContactStore) throws -> [Seen] { try store.query(ContactQuery()).contacts.map(seen).sorted { $0.name < $1.name } }

    func seenOnGoogle(_ server: PeopleServer) throws -> [Seen] {
        let groups = try server.groups()
        var labels: [String: String] = [:]
        for (resource, g) in groups where g["type"] as? String == "USER_CONTACT_GROUP" { labels[resource] = g["name"] as? String }
        return try server.people().map { p in
            let json = try JSONSerialization.data(withJSONObject: p)
            let person = try XCTUnwrap(try JSONParser.parse([UInt8](json)).objectValue)
            return seen(PersonMapping.contact(from: person, labels: labels))
        }.sorted { $0.name < $1.name }
    }

    func testTwoStoresAndAPhoneAgreeAfterThirtyRoundsOfEditsWithFaults() throws { try soak(lag: 0) }

    /// The same where Google's changes lag two minutes behind its writes (its clock moved on
    /// 40 s a round).
    func testTheyAgreeAlsoWhenGooglesChangesLagBehindItsWrites() throws { try soak(lag: 120) }

    func soak(lag: Double) throws {
        let server = try PeopleServer(lag: lag)
        defer { server.stop() }
        let a = try side("a", server)
        let b = try side("b", server)
        defer {
            a.store.close()
            b.store.close()
        }
        let seed = UInt64(ProcessInfo.processInfo.environment["SOAK_SEED"] ?? "") ?? 0x9E37_79B9_7F4A_7C15
        var dice = Dice(state: seed)
        let labelNames = ["Family", "Choir", "Work"]
        var made = 0
        var created: [String] = []
        var deleted = Set<String>()
        var labelIDs: [String: String] = [:]
        for name in labelNames.prefix(2) {
            let r = try server.call("POST", "/v1/contactGroups", ["contactGroup": ["name": name]])
            labelIDs[name] = (r.json as? [String: Any])?["resourceName"] as? String
        }
        func newName(_ who: String) -> String {
            made += 1
            created.append("Soak \(who) \(made)")
            return "Soak \(who) \(made)"
        }
        for round in 0..<30 {
            // The phone (which, as a phone does, tries again after a 429 or 503).
            for _ in 0..<2 {
                let people = try server.people()
                switch dice.next(5) {
                case 0, 1:
                    var p: [String: Any] = [
                        "names": [["givenName": newName("phone")]], "emailAddresses": [["value": "p\(made)@example.org"]],
                    ]
                    var memberships: [[String: Any]] = []
                    if dice.chance(30) {
                        memberships.append(["contactGroupMembership": ["contactGroupResourceName": "contactGroups/starred"]])
                    }
                    if dice.chance(40), let id = labelIDs["Family"] {
                        memberships.append(["contactGroupMembership": ["contactGroupResourceName": id]])
                    }
                    if !memberships.isEmpty { p["memberships"] = memberships }
                    _ = try server.create(p)
                case 2 where !people.isEmpty:
                    let p = people[dice.next(people.count)]
                    try server.update(
                        p["resourceName"] as? String ?? "", mask: "biographies", ["biographies": [["value": "phone \(round)"]]])
                case 3 where !people.isEmpty:
                    let p = people[dice.next(people.count)]
                    let starred = ((p["memberships"] as? [[String: Any]]) ?? []).contains {
                        ($0["contactGroupMembership"] as? [String: Any])?["contactGroupResourceName"] as? String == "contactGroups/starred"
                    }
                    var memberships: [[String: Any]] = ((p["memberships"] as? [[String: Any]]) ?? []).filter {
                        ($0["contactGroupMembership"] as? [String: Any])?["contactGroupResourceName"] as? String != "contactGroups/starred"
                    }
                    if !starred { memberships.append(["contactGroupMembership": ["contactGroupResourceName": "contactGroups/starred"]]) }
                    try server.update(p["resourceName"] as? String ?? "", mask: "memberships", ["memberships": memberships])
                case 4 where people.count > 8 && dice.chance(50):
                    let p = people[dice.next(people.count)]
                    if let name = ((p["names"] as? [[String: Any]])?.first?["displayName"] as? String) { deleted.insert(name) }
                    try server.delete([p["resourceName"] as? String ?? ""])
                default: break
                }
            }
            // Each store.
            for s in [a, b] {
                for _ in 0..<2 {
                    let mine = try s.store.query(ContactQuery()).contacts
                    switch dice.next(6) {
                    case 0, 1:
                        var c = Contact(name: newName(s.name))
                        c.emails = [LabeledValue(value: "\(s.name)\(made)@example.org")]
                        if dice.chance(30) { c.groups = [labelNames[dice.next(labelNames.count)]] }
                        c.favorite = dice.chance(20)
                        let stored = try s.store.create(c)
                        _ = try s.store.addToAccount("google", ids: [stored.id]) { PeopleBackend.hrefForNewCard(uid: $0.uid) }
                    case 2 where !mine.isEmpty:
                        _ = try s.store.update(id: mine[dice.next(mine.count)].id) { $0.note = "\(s.name) \(round)" }
                    case 3 where !mine.isEmpty:
                        _ = try s.store.update(id: mine[dice.next(mine.count)].id) { $0.favorite.toggle() }
                    case 4 where !mine.isEmpty:
                        let label = labelNames[dice.next(labelNames.count)]
                        _ = try s.store.update(id: mine[dice.next(mine.count)].id) { c in
                            if c.groups.contains(label) { c.groups.removeAll { $0 == label } } else { c.groups.append(label) }
                        }
                    case 5 where mine.count > 8 && dice.chance(50):
                        let c = mine[dice.next(mine.count)]
                        deleted.insert(c.name)
                        _ = try s.store.delete(ids: [c.id])
                    default: break
                    }
                }
            }
            if lag > 0 { try server.advance(seconds: 40) }
            // Faults, and a store that stays offline this round.
            if dice.chance(35) { try server.fail(next: 1 + dice.next(2), status: dice.chance(50) ? 429 : 503, retryAfter: 0) }
            let offline = dice.chance(25) ? dice.next(2) : -1
            for (i, s) in [a, b].enumerated() where i != offline {
                let r = sync(s)
                if ProcessInfo.processInfo.environment["SOAK_DEBUG"] != nil {
                    print("DEBUG round", round, s.name, r, (try? s.store.account(named: "google").syncToken) ?? "-")
                }
                if case .failure(let e) = r, !((e as? DAVError)?.isTransient ?? false) {
                    XCTFail("round \(round), \(s.name): \(e) (seed \(seed))")
                }
            }
        }
        // Calm: each syncs until nothing is left to move (Google's lag passing each time, so
        // that what one sent last is in the other's changes).
        for _ in 0..<3 {
            if lag > 0 { try server.advance(seconds: lag * 2) }
            for s in [a, b] {
                let r = sync(s)
                if ProcessInfo.processInfo.environment["SOAK_DEBUG"] != nil {
                    print("DEBUG settle", s.name, r, (try? s.store.account(named: "google").syncToken) ?? "-")
                }
                if case .failure(let e) = r { XCTFail("settling \(s.name): \(e)") }
            }
        }
        let onGoogle = try seenOnGoogle(server)
        let inA = try seen(a.store)
        let inB = try seen(b.store)
        func differences(_ side: [Seen]) -> String {
            let here = Set(side)
            let there = Set(onGoogle)
            return
                "only here: \(here.subtracting(there).sorted { $0.name < $1.name }); only on Google: \(there.subtracting(here).sorted { $0.name < $1.name })"
        }
        XCTAssertEqual(inA, onGoogle, "store a and Google (seed \(seed)): \(differences(inA))")
        XCTAssertEqual(inB, onGoogle, "store b and Google (seed \(seed)): \(differences(inB))")
        let names = onGoogle.map(\.name)
        XCTAssertEqual(names.count, Set(names).count, "no one twice: \(names)")
        let kept = Set(names)
        let missing = created.filter { !kept.contains($0) && !deleted.contains($0) }
        XCTAssertEqual(missing, [], "no one gone who was not deleted (seed \(seed))")
        XCTAssertGreaterThan(onGoogle.count, 10, "the soak made people")
    }

    func testAMassDeletionOnGooglesSideIsHeld() throws {
        let server = try PeopleServer()
        defer { server.stop() }
        let a = try side("a", server)
        defer { a.store.close() }
        let names = try (0..<40).map { i in try server.create(["names": [["givenName": "P\(i)"]]]) }
        guard case .success = sync(a) else { return XCTFail("first sync") }
        try server.delete(Array(names.prefix(30)))
        let r = try sync(a).get()
        XCTAssertEqual(r.held, 30, "\(r)")
        XCTAssertEqual(try a.store.query(ContactQuery()).total, 40, "nothing deleted until confirmed")
    }
}
