import Foundation
import JSONCore
import XCTest

/// `changes.since`: a program that keeps its own copy of the contacts asks what changed since
/// the state a `contacts.changed` carried, through the real daemon.
final class ChangesSinceTests: DaemonTestCase {
    func testAProgramThatWasAwayLearnsWhatChangedSinceItsStateOnce() throws {
        let subscriber = try daemon.client()
        _ = try subscriber.call("events.subscribe")
        let c = try daemon.client()
        let kate = try XCTUnwrap(try c.call("contacts.create", ["contact": ["name": "Kate Bell"]])["id"]?.stringValue)
        var state: String?
        while state == nil {
            let m = try subscriber.readMessage()
            if m["method"] == "contacts.changed" { state = m["params"]?["state"]?.stringValue }
        }
        let since = try XCTUnwrap(state)
        // Away: a contact made, one edited, one deleted.
        let anna = try XCTUnwrap(try c.call("contacts.create", ["contact": ["name": "Anna Haro"]])["id"]?.stringValue)
        _ = try c.call("contacts.update", ["id": .string(kate), "changes": ["note": "met at the gig"]])
        let carl = try XCTUnwrap(try c.call("contacts.create", ["contact": ["name": "Carl Jung"]])["id"]?.stringValue)
        _ = try c.call("contacts.delete", ["ids": [.string(carl)]])

        let answer = try c.call("changes.since", ["state": .string(since)])
        XCTAssertEqual(answer["reset"], false)
        XCTAssertEqual(answer["more"], false)
        let changes = answer["changes"]?.arrayValue ?? []
        XCTAssertEqual(changes.map { $0["id"]?.stringValue ?? "" }, [anna, kate, carl], "each once, in commit order")
        XCTAssertEqual(changes.map { $0["change"]?.stringValue ?? "" }, ["created", "updated", "deleted"])
        // From the state given: nothing; a page of one goes on where it stopped.
        let next = try XCTUnwrap(answer["state"]?.stringValue)
        XCTAssertEqual(try c.call("changes.since", ["state": .string(next)])["changes"]?.arrayValue?.count, 0)
        let first = try c.call("changes.since", ["state": .string(since), "limit": 1])
        XCTAssertEqual(first["more"], true)
        XCTAssertEqual(first["changes"]?.arrayValue?.first?["id"]?.stringValue, anna)
        let rest = try c.call("changes.since", ["state": first["state"] ?? .null, "limit": 5])
        XCTAssertEqual(rest["changes"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" }, [kate, carl])
        // A state from the future (or from before a restore): read everything again.
        XCTAssertEqual(try c.call("changes.since", ["state": "99999999"])["reset"], true)
        XCTAssertThrowsError(try c.call("changes.since", ["state": "yesterday"]))
    }
}
