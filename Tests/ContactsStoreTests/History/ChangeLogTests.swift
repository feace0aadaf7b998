import ContactsCore
import ContactsStore
import ContactsSupport
import Foundation
import StoredDuplicates
import XCTest

/// The store's commit sequence: what changed in a book after a state, as CardDAV sync
/// tokens, `changes.since` and resumed views read it.
final class ChangeLogTests: StoreTestCase {
    private func page(_ book: AccountScope?, after cursor: ChangeCursor?, limit: Int? = nil) throws -> ChangePage {
        try XCTUnwrap(store.changes(in: book, after: cursor, limit: limit))
    }

    func testEachKindOfChangeIsReportedOnceAfterTheStateBeforeIt() throws {
        let ada = try add("Ada Lovelace")
        let bob = try add("Bob Marley")
        let start = try store.commitState().state
        let first = try page(.local, after: nil)
        XCTAssertEqual(Set(first.changed.map(\.id)), [ada.id, bob.id])
        XCTAssertTrue(first.removed.isEmpty)
        XCTAssertEqual(first.next.state, start)

        // Nothing since: nothing, and the same cursor.
        let idle = try page(.local, after: first.next)
        XCTAssertTrue(idle.changed.isEmpty && idle.removed.isEmpty)
        XCTAssertEqual(idle.next, first.next)

        _ = try store.update(id: ada.id) { $0.note = "first programmer" }
        _ = try store.delete(ids: [bob.id])
        let carol = try add("Carol Shaw")
        let after = try page(.local, after: first.next)
        XCTAssertEqual(after.changed.map(\.id), [ada.id, carol.id], "in commit order")
        XCTAssertEqual(after.changed.map(\.created), [false, true])
        XCTAssertEqual(after.removed, [RemovedContact(id: bob.id, name: bob.id + ".vcf")])
        XCTAssertEqual(try store.lastChange(in: .local), after.next.state)

        // Back from the trash: a change again, no longer a removal.
        _ = try store.undelete(ids: [bob.id])
        let back = try page(.local, after: after.next)
        XCTAssertEqual(back.changed.map(\.id), [bob.id])
        let whole = try page(.local, after: first.next)
        XCTAssertTrue(whole.removed.isEmpty, "a contact that came back is not gone")

        // A write that touches no contact moves the store's state, not the book's.
        try store.addAccount(SyncAccount(name: "dav", url: "http://127.0.0.1:1/", addressBookURL: "http://127.0.0.1:1/book/"))
        XCTAssertGreaterThan(try store.commitState().state, back.next.state)
        XCTAssertEqual(try store.lastChange(in: .local), back.next.state)
        XCTAssertTrue(try page(.local, after: back.next).changed.isEmpty)
    }

    func testAMoveBetweenBooksIsARemovalFromOneAndAChangeInTheOther() throws {
        try store.addAccount(SyncAccount(name: "dav", url: "http://127.0.0.1:1/", addressBookURL: "http://127.0.0.1:1/book/"))
        let ada = try add("Ada Lovelace")
        let localBefore = try page(.local, after: nil).next
        let davBefore = try page(.account("dav"), after: nil).next
        XCTAssertEqual(try store.moveContacts(ids: [ada.id], to: "dav") { $0.id + ".vcf" }, 1)

        let local = try page(.local, after: localBefore)
        XCTAssertEqual(local.removed.map(\.id), [ada.id])
        XCTAssertTrue(local.changed.isEmpty)
        let dav = try page(.account("dav"), after: davBefore)
        XCTAssertEqual(dav.changed.map(\.id), [ada.id])
        XCTAssertTrue(dav.removed.isEmpty)
        // Store-wide it is one change of a contact that is still there.
        let everywhere = try page(nil, after: localBefore)
        XCTAssertEqual(everywhere.changed.map(\.id), [ada.id])
        XCTAssertTrue(everywhere.removed.isEmpty)

        // And back: gone from the account's book, changed in this machine's.
        XCTAssertEqual(try store.moveContacts(ids: [ada.id], to: nil) { $0.id + ".vcf" }, 1)
        XCTAssertEqual(try page(.account("dav"), after: dav.next).removed.map(\.id), [ada.id])
        XCTAssertEqual(try page(.local, after: local.next).changed.map(\.id), [ada.id])
    }

    func testALimitCutsInsideOneCommitAndThePagesTogetherAreTheWhole() throws {
        let before = try store.commitState().state
        let items = (0..<25).map { ImportItem(contact: Contact(name: "Person \($0)"), carriesGroups: false, carriesFavorite: false) }
        _ = try store.importContacts(items)
        let doomed = try store.query(ContactQuery(limit: 5)).contacts.map(\.id)
        _ = try store.delete(ids: doomed)

        var cursor = ChangeCursor(state: before)
        var changed: [String] = []
        var removed: [String] = []
        var pages = 0
        while true {
            let p = try page(.local, after: cursor, limit: 7)
            XCTAssertLessThanOrEqual(p.changed.count + p.removed.count, 7)
            changed += p.changed.map(\.id)
            removed += p.removed.map(\.id)
            // A cursor survives being written out and read back, as a sync token does.
            cursor = try XCTUnwrap(ChangeCursor(p.next.description))
            pages += 1
            if !p.more { break }
        }
        // 20 contacts made and still there, 5 gone: 25 changes in pages of 7.
        XCTAssertEqual(pages, 4)
        XCTAssertEqual(changed.count, 20)
        XCTAssertEqual(Set(changed).count, 20)
        XCTAssertEqual(Set(removed), Set(doomed))
        XCTAssertTrue(Set(changed).isDisjoint(with: doomed))
    }

    func testAStateThePrunedLogNoLongerReachesOrARestoreForgotIsRefused() throws {
        let ada = try add("Ada Lovelace")
        let old = try page(.local, after: nil).next
        _ = try store.delete(ids: [ada.id])
        XCTAssertNotNil(try store.changes(in: .local, after: old))
        XCTAssertNil(try store.changes(in: .local, after: ChangeCursor(state: old.state + 1000)), "a state from the future")

        // A week on, with a day's retention: the removal is forgotten, and with it the state.
        try store.pruneHistory(HistoryRetention(days: 1), now: Timestamp.now() + 7 * 86_400_000)
        XCTAssertNil(try store.changes(in: .local, after: old))
        let now = try XCTUnwrap(store.changes(in: .local, after: nil)).next
        XCTAssertNotNil(try store.changes(in: .local, after: now))

        // A restore: no state from before it is answered, and the sequence goes on past it.
        let backup = dir + "/backup.sqlite3"
        _ = try store.backup(to: backup)
        try add("Bob Marley")
        let beforeRestore = try store.commitState().state
        _ = try store.restore(from: backup)
        XCTAssertNil(try store.changes(in: .local, after: ChangeCursor(state: beforeRestore)))
        XCTAssertGreaterThan(try store.commitState().state, beforeRestore)
        XCTAssertEqual(try page(.local, after: nil).changed.count, 0)
    }

    /// After `body`, what changed in the store since just before it: ids by kind.
    private func changed(by body: () throws -> Void) throws -> (changed: [String], removed: [String]) {
        let before = ChangeCursor(state: try store.commitState().state)
        try body()
        let p = try page(nil, after: before)
        return (p.changed.map(\.id), p.removed.map(\.id))
    }

    func testEveryWayAContactChangesMovesItsState() throws {
        let ada = try add("Ada Lovelace", emails: ["ada@example.com"])
        let bob = try add("Bob Marley")
        XCTAssertEqual(try changed { _ = try store.update(id: ada.id) { $0.note = "engine" } }.changed, [ada.id], "an edit")
        XCTAssertEqual(try changed { _ = try store.setFavorite(id: bob.id, true) }.changed, [bob.id], "a favorite")
        XCTAssertEqual(try changed { _ = try store.revert(id: ada.id, to: 1) }.changed, [ada.id], "a revert")
        XCTAssertEqual(try changed { _ = try store.undo() }.changed, [ada.id], "an undo")
        XCTAssertEqual(
            try changed {
                _ = try store.createGroup(name: "Band"); _ = try store.addMembers("Band", contactIDs: [bob.id])
            }.changed, [bob.id],
            "a group joined")
        XCTAssertEqual(try changed { _ = try store.renameGroup("Band", to: "Trio") }.changed, [bob.id], "its group renamed")
        let item = ImportItem(contact: Contact(name: "Carl Jung"), carriesGroups: false, carriesFavorite: false)
        let imported = try changed { _ = try store.importContacts([item]) }.changed
        XCTAssertEqual(imported.count, 1, "an import")
        let carl = imported[0]
        XCTAssertEqual(try changed { _ = try store.delete(ids: [carl]) }.removed, [carl], "a delete")
        XCTAssertEqual(try changed { _ = try store.undelete(ids: [carl]) }.changed, [carl], "back from the trash")
        _ = try store.delete(ids: [carl])
        XCTAssertEqual(try changed { _ = try store.purge(ids: [carl]) }.changed, [], "a purge of what is gone already: nothing new")
        let copy = try add("Ada Lovelace", emails: ["ada@example.com"])
        let merge = try changed { _ = try store.merge(ids: [ada.id, copy.id], into: ada.id) }
        XCTAssertEqual(merge.changed, [ada.id], "a merge changes the one kept")
        XCTAssertEqual(merge.removed, [copy.id], "and removes the other")
    }

    func testChangesArriveWithTheStateTheyMade() throws {
        let seen = StatesSeen()
        store.setChangeHandler { _, _, source in seen.append(source.state) }
        try add("Ada Lovelace")
        try add("Bob Marley")
        let states = seen.all
        XCTAssertEqual(states.count, 2)
        XCTAssertEqual(states.last ?? nil, try store.commitState().state)
        XCTAssertLessThan(states[0] ?? 0, states[1] ?? 0)
    }
}

private final class StatesSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var states: [Int64?] = []

    func append(_ state: Int64?) {
        lock.lock()
        states.append(state)
        lock.unlock()
    }

    var all: [Int64?] {
        lock.lock()
        defer { lock.unlock() }
        return states
    }
}
