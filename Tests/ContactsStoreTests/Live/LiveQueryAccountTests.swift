import ContactsCore
import ContactsStore
import Foundation
import XCTest

/// A live query of one account follows the commits that change only who is in the account:
/// contacts adopted by it, and a card a sync forgets (its contact then belongs to no account).
final class LiveQueryAccountTests: StoreTestCase {
    func testAnAccountsViewFollowsContactsAdoptedAndCardsForgotten() throws {
        try store.addAccount(SyncAccount(name: "dav", url: "http://127.0.0.1:1/", addressBookURL: "http://127.0.0.1:1/book/"))
        let ada = try add("Ada Lovelace")
        let bob = try add("Bob Marley")
        let told = ChangesHeard()
        let (live, _) = try store.openLiveQuery(ContactQuery(account: .account("dav"))) { told.add($0) }
        XCTAssertTrue(live.members.isEmpty)

        // Adopted: no contact changes, only the account they are in.
        XCTAssertEqual(try store.addToAccount("dav", ids: [ada.id, bob.id]) { $0.id + ".vcf" }, 2)
        store.awaitLiveQueries()
        XCTAssertEqual(Set(store.snapshot(live).members.map(\.id)), [ada.id, bob.id])
        XCTAssertEqual(told.all.last?.added.count, 2)

        // Forgotten by a sync: Bob belongs to no account now, and leaves the view.
        try store.forgetItem(account: "dav", href: bob.id + ".vcf")
        store.awaitLiveQueries()
        XCTAssertEqual(store.snapshot(live).members.map(\.id), [ada.id])
        XCTAssertEqual(told.all.last?.removed, [bob.id])
        XCTAssertEqual(try store.query(ContactQuery(account: .account("dav"))).contacts.map(\.id), [ada.id])
        store.closeLiveQuery(live)
    }
}

/// The changes a live query was told, in order.
final class ChangesHeard: @unchecked Sendable {
    private let lock = NSLock()
    private var changes: [LiveQueryChange] = []

    func add(_ change: LiveQueryChange) { lock.withLock { changes.append(change) } }
    var all: [LiveQueryChange] { lock.withLock { changes } }
}
