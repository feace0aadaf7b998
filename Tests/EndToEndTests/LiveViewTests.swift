import Foundation
import JSONCore
import JSONRPC
import XCTest

/// Live views through the real daemon, one rule at a time: what a change is reported as, a
/// reader that leaves its notifications unread, the origins a view leaves out, and the errors.
final class LiveViewTests: DaemonTestCase {
    /// Reads notifications until one for `method` arrives (or `timeout` passes).
    func next(_ method: String, on c: RPCClient, timeout: Double = 10) throws -> JSONValue? {
        let deadline = Date().addingTimeInterval(timeout)
        for n in c.takeNotifications() where n["method"]?.stringValue == method { return n["params"] }
        while Date() < deadline {
            let m = try c.readMessage()
            if m["method"]?.stringValue == method { return m["params"] }
        }
        return nil
    }

    func create(_ c: RPCClient, _ contact: JSONObject) throws -> String {
        try XCTUnwrap(try c.call("contacts.create", ["contact": .object(contact)])["id"]?.stringValue)
    }

    func testAMoveAChangeAndAFieldNotShownAreReportedAsTheRulesSay() throws {
        let c = try daemon.client()
        let anna = try create(c, ["name": "Anna Haro", "emails": [["value": "anna@example.org"]]])
        let bob = try create(c, ["name": "Bob Bell"])
        let carl = try create(c, ["name": "Carl Quinn"])
        let watcher = try daemon.client()
        let open = try watcher.call("views.open", ["fields": ["name", "emails"], "window": ["limit": 2]])
        XCTAssertEqual(open["contacts"]?.arrayValue?.map { $0["id"]?.stringValue }, [anna, bob])
        XCTAssertEqual(open["contacts"]?.arrayValue?.first?["emails"]?.arrayValue?.first?["value"], "anna@example.org")
        XCTAssertNil(open["contacts"]?.arrayValue?.first?["note"], "only the fields asked for")
        XCTAssertEqual(open["total"], 3)
        let view = try XCTUnwrap(open["view"]?.intValue)

        // Anna renamed past Bob: a move inside the window, and a change of a shown field.
        _ = try c.call("contacts.update", ["id": .string(anna), "changes": ["name": "Bruna Haro"]])
        let moved = try XCTUnwrap(try next("view.changed", on: watcher))
        XCTAssertEqual(moved["view"]?.intValue, view)
        XCTAssertEqual(moved["removed"], [])
        XCTAssertEqual(moved["added"], [])
        XCTAssertEqual(moved["moved"], [["id": .string(anna), "from": 0, "to": 1]])
        XCTAssertEqual(moved["changed"]?.arrayValue?.first?["contact"]?["name"], "Bruna Haro")
        XCTAssertEqual(moved["total"], 3)
        XCTAssertNotEqual(moved["from"], moved["to"])

        // A note is not shown: no notification. The barrier (a create past the window) comes next.
        _ = try c.call("contacts.update", ["id": .string(bob), "changes": ["note": "met in Lyon"]])
        _ = try create(c, ["name": "Zoë Zeller"])
        let after = try XCTUnwrap(try next("view.changed", on: watcher))
        XCTAssertEqual(after["total"], 4, "the next notification is the create's: the note's commit sent nothing")
        XCTAssertEqual(after["changed"], [])
        XCTAssertEqual(after["added"], [], "a contact past the window is only counted")

        // Carl deleted, past the window: only counted.
        _ = try c.call("contacts.delete", ["ids": [.string(carl)]])
        let deleted = try XCTUnwrap(try next("view.changed", on: watcher))
        XCTAssertEqual(deleted["removed"], [], "Carl was past the window")
        XCTAssertEqual(deleted["total"], 3)
        // A new first contact: added at 0, Anna (now last of the window) pushed out.
        let aaron = try create(c, ["name": "Aaron Andersson"])
        let added = try XCTUnwrap(try next("view.changed", on: watcher))
        XCTAssertEqual(added["added"]?.arrayValue?.first?["id"]?.stringValue, aaron)
        XCTAssertEqual(added["added"]?.arrayValue?.first?["index"], 0)
        XCTAssertEqual(added["added"]?.arrayValue?.first?["contact"]?["name"], "Aaron Andersson")
        XCTAssertEqual(added["removed"], [.string(anna)])
    }

    func testAReaderThatLeavesItsNotificationsUnreadGetsOneResetAndNeverHoldsUpAWriter() throws {
        let watcher = try daemon.client()
        let open = try watcher.call("views.open", [:])
        let view = try XCTUnwrap(open["view"]?.intValue)
        // Each create sends the whole contact (a 40 KB note): 400 of them are twice what the
        // daemon queues for a connection before it stops.
        let note = String(repeating: "long note ", count: 4_000)
        let writer = try RPCClient(path: daemon.socketPath, timeout: 20)
        let started = Date()
        for i in 0..<400 { _ = try create(writer, ["name": .string("Unread \(i)"), "note": .string(note)]) }
        let writing = Date().timeIntervalSince(started)
        XCTAssertLessThan(writing, 60, "the writer was not held up by the reader")

        // The watcher reads now: what was queued, then one reset, then nothing until it reads.
        var changed = 0, bytes = 0
        var reset: JSONValue?
        while reset == nil {
            let line = try watcher.readLine()
            bytes += line.count
            let m = try JSONParser.parse(line)
            switch m["method"]?.stringValue {
            case "view.changed": changed += 1
            case "view.reset": reset = m["params"]
            default: XCTFail("unexpected \(m)")
            }
        }
        XCTAssertGreaterThan(changed, 0)
        XCTAssertLessThan(changed, 400, "not everything was queued")
        XCTAssertLessThan(bytes, 12 << 20, "what waited for the reader was bounded (8 MiB and the socket's buffers)")
        XCTAssertEqual(reset?["view"]?.intValue, view)
        XCTAssertEqual(reset?["total"], 400)

        // After the reset, changes wait for a read: a create sends nothing ...
        let late = try create(writer, ["name": "Aaron Late"])
        let read = try watcher.call("views.read", ["view": .int(view)])
        XCTAssertEqual(
            watcher.takeNotifications().filter { $0["method"] == "view.changed" }.count, 0, "nothing between a reset and the read")
        XCTAssertEqual(read["total"], 401)
        XCTAssertEqual(read["contacts"]?.arrayValue?.first?["id"]?.stringValue, late)
        let fresh = try writer.call("contacts.query", ["fields": ["id"]])
        XCTAssertEqual(read["contacts"]?.arrayValue?.map { $0["id"] }, fresh["contacts"]?.arrayValue?.map { $0["id"] })
        // ... and after it, they flow again.
        _ = try create(writer, ["name": "Zed After"])
        XCTAssertEqual(try next("view.changed", on: watcher)?["total"], 402)
    }

    func testAViewLeavesOutTheOriginItIsAskedToAndHistoryNamesTheCallersProcess() throws {
        let c = try daemon.client()
        let me = ProcessInfo.processInfo.processIdentifier
        let own = try c.call("views.open", ["excludeOrigin": .string("rpc:\(me)")])
        let noImports = try c.call("views.open", ["excludeOrigin": "import"])
        let ownView = try XCTUnwrap(own["view"]?.intValue), noImportsView = try XCTUnwrap(noImports["view"]?.intValue)

        // The test's own write: only the view that does not leave it out hears of it.
        let mine = try create(try daemon.client(), ["name": "Mine Own"])
        let first = try XCTUnwrap(try next("view.changed", on: c))
        XCTAssertEqual(first["view"]?.intValue, noImportsView)
        XCTAssertEqual(first["added"]?.arrayValue?.first?["id"]?.stringValue, mine)
        let history = try c.call("contacts.history", ["id": .string(mine)])
        XCTAssertEqual(
            history["entries"]?.arrayValue?.first?["origin"]?.stringValue, "rpc:\(me)", "a write is recorded as made by its caller")

        // Another program's write (contactsctl): both views hear of it.
        XCTAssertEqual(try daemon.ctl("add", "Other Program").status, 0)
        let a = try XCTUnwrap(try next("view.changed", on: c)), b = try XCTUnwrap(try next("view.changed", on: c))
        XCTAssertEqual(Set([a["view"]?.intValue, b["view"]?.intValue]), [ownView, noImportsView])
        XCTAssertEqual(a["total"], 2)

        // A file in the drop folder (origin import:FILE): left out by the view that leaves out imports.
        try "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Dropped In\r\nEND:VCARD\r\n".write(
            toFile: daemon.dataDir + "/inbox/one.vcf", atomically: true, encoding: .utf8)
        let dropped = try XCTUnwrap(try next("view.changed", on: c))
        XCTAssertEqual(dropped["view"]?.intValue, ownView)
        XCTAssertEqual(dropped["total"], 3)
        // The other view's window still follows: a read gives all three.
        XCTAssertEqual(try c.call("views.read", ["view": .int(noImportsView)])["total"], 3)
    }

    func testViewsAnswerClearErrorsAndBelongToTheirConnection() throws {
        let c = try daemon.client()
        let view = try XCTUnwrap(try c.call("views.open", [:])["view"]?.intValue)
        func code(_ client: RPCClient, _ method: String, _ params: JSONObject) -> Int? {
            do {
                _ = try client.call(method, params)
                return nil
            } catch let e as RPCError {
                return e.code.rawValue
            } catch {
                return -1
            }
        }
        let other = try daemon.client()
        XCTAssertEqual(code(other, "views.read", ["view": .int(view)]), -32001, "another connection's view is not there")
        XCTAssertEqual(code(other, "views.close", ["view": .int(view)]), -32001)
        XCTAssertEqual(code(c, "views.read", ["view": 999]), -32001)
        XCTAssertEqual(code(c, "views.open", ["window": ["limit": 0]]), -32602)
        XCTAssertEqual(code(c, "views.open", ["since": "not a state"]), -32602)
        XCTAssertEqual(code(c, "views.open", ["query": ["group": "No Such Group"]]), -32001)
        XCTAssertEqual(code(c, "views.open", ["query": ["account": "nowhere"]]), -32001)
        XCTAssertEqual(try c.call("daemon.status")["views"], 1)
        XCTAssertEqual(try c.call("views.close", ["view": .int(view)])["closed"], true)
        XCTAssertEqual(code(c, "views.read", ["view": .int(view)]), -32001, "closed")
        XCTAssertEqual(try c.call("daemon.status")["views"], 0)
    }
}
