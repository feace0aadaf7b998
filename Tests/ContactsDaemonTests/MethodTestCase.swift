import ContactsStore
import ContactsSupport
import Foundation
import JSONCore
import JSONRPC
import XCTest

@testable import ContactsDaemon

/// The daemon's methods in process: the engine the daemon serves, over a store in a fresh
/// temporary directory, driven with request bytes as a socket would bring them.
class MethodTestCase: XCTestCase {
    var dir = ""
    var store: ContactStore!
    var engine: RPCEngine!
    var sync: SyncService!
    private var nextID = 0

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "daemon-test-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        store = try ContactStore(path: dir + "/contacts.sqlite3")
        let settings = Settings(socketPath: dir + "/s.sock", dataDirectory: dir)
        let photos = PhotoService(store: store, cacheDirectory: dir + "/cache", settings: settings)
        sync = SyncService(store: store)
        engine = Daemon.engine(store: store, importer: Importer(store: store), photos: photos, sync: sync)
    }

    override func tearDown() {
        store?.close()
        store = nil
        engine = nil
        sync = nil
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// The reply to one request: its result, or the error it carried.
    func call(_ method: String, _ params: JSONObject = [:]) throws -> JSONValue {
        nextID += 1
        let request: JSONValue = ["jsonrpc": "2.0", "id": .int(nextID), "method": .string(method), "params": .object(params)]
        let reply = try XCTUnwrap(engine.handle(JSONWriter.serialize(request)), "a request gets a reply")
        let value = try JSONParser.parse(reply)
        XCTAssertEqual(value["id"], .int(nextID))
        if let error = value["error"] {
            throw RPCError(RPCError.Code(rawValue: error["code"]?.intValue ?? 0), error["message"]?.stringValue ?? "", data: error["data"])
        }
        return try XCTUnwrap(value["result"])
    }

    /// The error code `method` answers with, 0 when it succeeds.
    func errorCode(_ method: String, _ params: JSONObject = [:]) -> Int {
        do {
            _ = try call(method, params)
            return 0
        } catch let e as RPCError {
            return e.code.rawValue
        } catch {
            return -1
        }
    }
}
