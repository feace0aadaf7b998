import ContactsCore
import ContactsStore
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
