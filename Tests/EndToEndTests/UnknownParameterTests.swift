import Foundation
import JSONCore
import JSONRPC
import XCTest

/// Every method refuses a parameter it does not take with -32602 naming it: a misspelt filter
/// (`txt`, `favoriteOnly`) would otherwise answer as if there were none.
final class UnknownParameterTests: DaemonTestCase {
    func testEveryMethodRefusesAParameterItDoesNotTake() throws {
        let client = try daemon.client()
        let discover = try client.call("rpc.discover")
        let methods = (discover["methods"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        XCTAssertGreaterThan(methods.count, 30)
        for method in methods where method != "rpc.discover" {
            do {
                _ = try client.call(method, ["noSuchParameter": true])
                XCTFail("\(method) took an unknown parameter")
            } catch let e as RPCError {
                XCTAssertEqual(e.code, .invalidParams, "\(method): \(e.message)")
                XCTAssertTrue(e.message.contains("'noSuchParameter'"), "\(method): \(e.message)")
            }
        }
        let misspelt: [JSONObject] = [["favoriteOnly": true], ["txt": "kate"]]
        for params in misspelt {
            XCTAssertThrowsError(try client.call("contacts.query", params)) { error in
                XCTAssertEqual((error as? RPCError)?.code, .invalidParams)
                XCTAssertTrue((error as? RPCError)?.message.contains("it takes 'text'") == true, "\(error)")
            }
        }
    }
}
