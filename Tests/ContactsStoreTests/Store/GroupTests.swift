import ContactsCore
import ContactsStore
import Foundation
import XCTest

final class GroupTests: StoreTestCase {
    func testGroupNames_areUniqueRegardlessOfCase() throws {
        _ = try store.createGroup(name: "Work")
        XCTAssertThrowsError(try store.createGroup(name: "work")) { e in
            guard case .conflict = e as? StoreError else { return XCTFail("\(e)") }
        }
        XCTAssertThrowsError(try store.createGroup(name: "   ")) { e in
            guard case .invalid = e as? StoreError else { return XCTFail("\(e)") }
        }
    }

    func testContactsJoinExistingGroupsByNameWhateverTheCase() throws {
        _ = try store.createGroup(name: "Family")
        let c = try add("John", groups: ["FAMILY", "Friends"])
        XCTAssertEqual(c.groups, ["Family", "Friends"])
        XCTAssertEqual(try store.groups().map(\.name), ["Family", "Friends"])
    }

    func testDeletingAGroupKeepsItsMembersAndBumpsTheirRevision() throws {
        let c = try add("John", groups: ["Family"])
        try store.deleteGroup("Family")
        let after = try store.contact(id: c.id)
        XCTAssertEqual(after.groups, [])
        XCTAssertEqual(after.revision, 2)
        XCTAssertEqual(try store.groups(), [])
    }

    func testRenamingAGroupShowsOnItsMembers() throws {
        let c = try add("John", groups: ["Famly"])
        let g = try store.group("famly")
        let renamed = try store.renameGroup(g.id, to: "Family")
        XCTAssertEqual(renamed.name, "Family")
        XCTAssertEqual(try store.contact(id: c.id).groups, ["Family"])
        _ = try store.createGroup(name: "Work")
        XCTAssertThrowsError(try store.renameGroup("Family", to: "WORK"))
        XCTAssertEqual(try store.renameGroup("Family", to: "FAMILY").name, "FAMILY", "a change of case is allowed")
    }

    func testAddingAndRemovingMembers() throws {
        let a = try add("Anna")
        let b = try add("Bob")
        let g = try store.createGroup(name: "Work")
        XCTAssertEqual(try store.addMembers(g.id, contactIDs: [a.id, b.id]).memberCount, 2)
        XCTAssertEqual(try store.addMembers(g.id, contactIDs: [a.id]).memberCount, 2, "adding twice is harmless")
        XCTAssertEqual(try store.contact(id: a.id).groups, ["Work"])
        XCTAssertEqual(try store.removeMembers("work", contactIDs: [a.id]).memberCount, 1)
        XCTAssertEqual(try store.contact(id: a.id).groups, [])
        XCTAssertThrowsError(try store.addMembers(g.id, contactIDs: ["missing"])) { e in
            guard case .notFound(let kind, _) = e as? StoreError else { return XCTFail("\(e)") }
            XCTAssertEqual(kind, "contact")
        }
        XCTAssertThrowsError(try store.addMembers("Nope", contactIDs: [a.id]))
    }
}

/// Group cards of an import land in its one transaction, with its contacts.
final class ImportedGroupTests: StoreTestCase {
    /// Hands out its batches, and may say "cancel" once enough contacts are in.
    struct Batches: ImportBatchSource {
        var batches: [ImportBatch]
        var cancelAfter = Int.max
        var expectedCount: Int { batches.reduce(0) { $0 + $1.items.count } }
        mutating func next() -> ImportBatch? { batches.isEmpty ? nil : batches.removeFirst() }
        func isCancelled() -> Bool { cancelAfter == 0 }
    }

    func people(_ range: Range<Int>) -> [ImportItem] {
        range.map { i in
            var c = Contact(name: "Person \(i)")
            c.uid = "urn:uuid:person-\(i)"
            return ImportItem(contact: c, carriesGroups: false, carriesFavorite: false)
        }
    }

    func testContactsAndGroupCardsCommitTogetherAsOneChange() throws {
        let commits = Commits()
        store.setChangeHandler { contacts, groups, _ in commits.add(contacts.count, groups.count) }
        // The group card comes first and names members that come after it, one without urn:uuid:.
        let group = try ImportGroup(name: " Band ", memberUIDs: ["urn:uuid:person-1", "person-2", "urn:uuid:nobody"])
        var source = Batches(batches: [ImportBatch(items: people(0..<1), groups: [group]), ImportBatch(items: people(1..<3))])
        let result = try store.importContacts(from: &source)
        XCTAssertEqual(result.contacts.count, 3)
        XCTAssertEqual(result.groups, 1)
        XCTAssertEqual(commits.all.count, 1, "one file, one change: \(commits.all)")
        XCTAssertEqual(commits.all.first?.contacts, 3, "a contact made and joined in one write is one entry")
        XCTAssertEqual(commits.all.first?.groups ?? 0, 1)
        XCTAssertEqual(try store.groups().map(\.name), ["Band"])
        XCTAssertEqual(try store.groups().first?.memberCount, 2)
    }

    func testAnUndoTakesBackTheContactsAGroupCardJoinedAndTheGroup() throws {
        let kept = try add("Kate Bell")
        let group = try ImportGroup(name: "Band", memberUIDs: ["urn:uuid:person-0", "urn:uuid:person-1"])
        var source = Batches(batches: [ImportBatch(items: people(0..<3), groups: [group])])
        _ = try store.importContacts(from: &source)
        XCTAssertEqual(try store.groups().first?.memberCount, 2)
        _ = try store.undo()
        XCTAssertEqual(try store.query(ContactQuery()).contacts.map(\.id), [kept.id], "every contact the import made is gone")
        XCTAssertEqual(try store.trash().total, 3)
        XCTAssertEqual(try store.groups().count, 0)
        _ = try store.redo()
        XCTAssertEqual(try store.query(ContactQuery()).total, 4)
        XCTAssertEqual(try store.groups().first?.memberCount, 2, "and back in their group")
    }

    func testACancelledImportLeavesNeitherItsContactsNorItsGroups() throws {
        let group = try ImportGroup(name: "Band", memberUIDs: ["urn:uuid:person-1"])
        var source = Batches(batches: [ImportBatch(items: people(0..<600), groups: [group])], cancelAfter: 0)
        XCTAssertThrowsError(try store.importContacts(from: &source)) { e in
            guard case .cancelled = e as? StoreError else { return XCTFail("\(e)") }
        }
        XCTAssertEqual(try store.counts().contacts, 0)
        XCTAssertEqual(try store.groups(), [])
    }

    func testAGroupNameNoGroupMayHaveIsRefusedBeforeTheImport() {
        XCTAssertThrowsError(try ImportGroup(name: "  ", memberUIDs: []))
        XCTAssertThrowsError(try ImportGroup(name: "a\u{7}b", memberUIDs: []))
    }
}

/// What a change handler was told, commit by commit.
final class Commits: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [(contacts: Int, groups: Int)] = []
    func add(_ contacts: Int, _ groups: Int) {
        lock.lock()
        seen.append((contacts, groups))
        lock.unlock()
    }
    var all: [(contacts: Int, groups: Int)] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}
